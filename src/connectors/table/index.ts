/**
 * On-disk tables (`saveAsTable`, `toTable`, `session.table`, `readStream.table`): Parquet files
 * plus a `_spark_metadata` manifest under `<warehouse>/<name>`, described by `_arus_table.json`.
 * Importing this module registers the "arus-table" streaming source and sink. Layout:
 * docs/table-format.md.
 */
import "../file-stream/index.js";
import { registerSink, registerSource } from "../registry.js";
import { TABLE_SOURCE_FORMAT, tableSinkProvider, tableSourceProvider } from "./provider.js";

export { DEFAULT_WAREHOUSE, parseTableName, WAREHOUSE_KEY, warehouseDir } from "./layout.js";
export { TABLE_FORMAT_VERSION, TABLE_META_FILE } from "./metadata.js";
export { TABLE_SOURCE_FORMAT, tableSinkProvider, tableSourceProvider } from "./provider.js";
export { schemaFromJson, typeToJson } from "./schema-json.js";
export {
  type AppendOptions,
  appendToTable,
  type CommitResult,
  createTable,
  createTableSync,
  dropTable,
  overwriteTable,
  readTable,
  saveAsTable,
  type TableData,
  type TableInfo,
  type TableSaveMode,
  tableExists,
  tableFilesSync,
  tableInfoSync,
  tableNotFound,
  tableSchema,
  tableSchemaSync,
} from "./table.js";

registerSource(TABLE_SOURCE_FORMAT, tableSourceProvider);
registerSink(TABLE_SOURCE_FORMAT, tableSinkProvider);
