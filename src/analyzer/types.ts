/** Moved to functions/typing.ts (below execution); re-exported for existing imports. */
export { nullableOf, outputOf, toAttribute, typeOf } from "../functions/typing.js";
