/** The columnar stream-stream join state (docs/state.md, "Columnar join state"). */
export { ColumnarJoinProvider, ColumnarJoinStore } from "./provider.js";
export { JoinSideTable } from "./table.js";
