/** Moved to functions/typing.ts (below execution); re-exported for existing imports. */
export { carriedMetadata, nullableOf, outputOf, toAttribute, typeOf } from "../functions/typing.js";
