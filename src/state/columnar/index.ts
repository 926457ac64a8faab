/** The columnar aggregation state store (docs/state.md, "Columnar aggregation state"). */
export { type ColumnarChunk, encodeColumnarFile, readColumnarFile } from "./format.js";
export { ColumnarStateProvider, ColumnarStateStore } from "./provider.js";
export { type BufferColumn, type ColumnarSchema, columnarSchemaOf, type KeyColumn, type Phys, physOf } from "./schema.js";
export { ColumnarTable } from "./table.js";
