/** Moved to plan/join-cleanup.ts (below execution); re-exported for existing imports. */
export { deriveCleanup, type SideCleanup } from "../plan/join-cleanup.js";
