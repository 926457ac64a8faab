/**
 * arus tables: a directory of Parquet files under the warehouse whose committed contents are
 * listed by a `_spark_metadata` manifest (the file sink's format). Each commit is one manifest
 * version, so a streaming read of the table (the file source over the manifest) sees whole
 * commits appear, and files of a failed write never show. See docs/table-format.md.
 */
import { rm } from "node:fs/promises";
import type { Batch } from "../../columnar/batch.js";
import { AnalysisException, IllegalArgumentException } from "../../common/errors.js";
import { StructOf, type StructType } from "../../types/datatypes.js";
import { writeDataFiles } from "../file-stream/sink.js";
import {
  addEntryFor,
  deleteEntryFor,
  FileStreamSinkLog,
  raceError,
  readCommittedEntries,
  readCommittedFilesSync,
  type SinkFileStatus,
} from "../file-stream/sink-log.js";
import { readFiles } from "../files/index.js";
import { alignToTable } from "./align.js";
import { parseTableName, qualifiedName, type TableIdent, tableDir } from "./layout.js";
import { readTableMetadataSync, type TableMetadata, writeTableMetadataSync } from "./metadata.js";

export const TABLE_FORMAT = "parquet";

export interface TableInfo {
  readonly ident: TableIdent;
  /** `spark_catalog`.`db`.`t`, as Spark's messages print it. */
  readonly qualifiedName: string;
  readonly dir: string;
  readonly schema: StructType;
  readonly partitionColumns: readonly string[];
}

/** Rows to write: columns named by `schema`. */
export interface TableData {
  readonly schema: StructType;
  readonly batches: readonly Batch[];
  readonly timeZone: string;
}

export interface AppendOptions {
  /** Idempotent writes: a (writer, batchId) pair is committed at most once (streaming replays). */
  readonly txn?: { readonly writer: string; readonly batchId: number };
  /** Writer options (e.g. `compression`). */
  readonly options?: Readonly<Record<string, string>>;
}

export interface CommitResult {
  /** The manifest version written, or null when nothing was committed (no rows, or a replay). */
  readonly version: number | null;
  readonly files: readonly string[];
}

export function tableNotFound(name: string): AnalysisException {
  return new AnalysisException(
    "TABLE_OR_VIEW_NOT_FOUND",
    `[TABLE_OR_VIEW_NOT_FOUND] The table or view \`${name}\` cannot be found. Verify the spelling and correctness of the schema and catalog.\n` +
      "If you did not qualify the name with a schema, verify the current_schema() output, or qualify the name with the correct schema and catalog.\n" +
      "To tolerate the error on drop use DROP VIEW IF EXISTS or DROP TABLE IF EXISTS.",
  );
}

function alreadyExists(id: TableIdent): AnalysisException {
  return new AnalysisException(
    "TABLE_OR_VIEW_ALREADY_EXISTS",
    `[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create table or view ${qualifiedName(id)} because it already exists.\n` +
      "Choose a different name, drop or replace the existing object, or add the IF NOT EXISTS clause to tolerate pre-existing objects.",
  );
}

function info(id: TableIdent, dir: string, meta: TableMetadata): TableInfo {
  return { ident: id, qualifiedName: qualifiedName(id), dir, schema: meta.schema, partitionColumns: meta.partitionColumns };
}

/** The table, or null if there is none by that name. */
export function tableInfoSync(warehouse: string, name: string): TableInfo | null {
  const id = parseTableName(name);
  const dir = tableDir(warehouse, id);
  const meta = readTableMetadataSync(dir);
  return meta ? info(id, dir, meta) : null;
}

export function tableExists(warehouse: string, name: string): boolean {
  return tableInfoSync(warehouse, name) !== null;
}

function requireTable(warehouse: string, name: string): TableInfo {
  const t = tableInfoSync(warehouse, name);
  if (!t) throw tableNotFound(name);
  return t;
}

/** Spark puts partition columns last in a table's schema. */
function tableLayout(schema: StructType, partitionBy: readonly string[]): { schema: StructType; partitionColumns: string[] } {
  const cols = partitionBy.map((p) => {
    const f = schema.fields.find((x) => x.name.toLowerCase() === p.toLowerCase());
    if (!f)
      throw new AnalysisException(
        "COLUMN_NOT_FOUND",
        `[COLUMN_NOT_FOUND] The column \`${p}\` cannot be found. Verify the spelling and correctness of the column name according to the SQL config "spark.sql.caseSensitive".`,
      );
    return f;
  });
  const isPart = new Set(cols.map((f) => f.name));
  return { schema: StructOf([...schema.fields.filter((f) => !isPart.has(f.name)), ...cols]), partitionColumns: cols.map((f) => f.name) };
}

export function createTableSync(
  warehouse: string,
  name: string,
  schema: StructType,
  opts: { partitionBy?: readonly string[]; ifNotExists?: boolean } = {},
): TableInfo {
  const id = parseTableName(name);
  const existing = tableInfoSync(warehouse, name);
  if (existing) {
    if (opts.ifNotExists) return existing;
    throw alreadyExists(id);
  }
  const layout = tableLayout(schema, opts.partitionBy ?? []);
  const dir = tableDir(warehouse, id);
  const meta: TableMetadata = {
    name: id.table,
    schema: layout.schema,
    partitionColumns: layout.partitionColumns,
    format: TABLE_FORMAT,
    createdAtMs: Date.now(),
  };
  writeTableMetadataSync(dir, meta);
  return info(id, dir, meta);
}

export async function createTable(
  warehouse: string,
  name: string,
  schema: StructType,
  opts: { partitionBy?: readonly string[]; ifNotExists?: boolean } = {},
): Promise<TableInfo> {
  return createTableSync(warehouse, name, schema, opts);
}

export function tableSchemaSync(warehouse: string, name: string): StructType {
  return requireTable(warehouse, name).schema;
}

export async function tableSchema(warehouse: string, name: string): Promise<StructType> {
  return tableSchemaSync(warehouse, name);
}

/** Committed data files (absolute paths): what a batch read of the table opens. */
export function tableFilesSync(warehouse: string, name: string): string[] {
  return readCommittedFilesSync(requireTable(warehouse, name).dir) ?? [];
}

/** The whole table as batches in its schema (partition columns filled from directories). */
export async function readTable(warehouse: string, name: string, timeZone: string): Promise<Batch[]> {
  const t = requireTable(warehouse, name);
  return readFiles(TABLE_FORMAT, tableFilesSync(warehouse, name), t.schema, { basePath: t.dir }, timeZone);
}

/** Commits `entries` as the next manifest version; a concurrent writer just pushes us one further. */
async function commitVersion(dir: string, entries: readonly SinkFileStatus[]): Promise<number> {
  const log = new FileStreamSinkLog(dir);
  for (let attempt = 0; attempt < 100; attempt++) {
    const v = (await log.latestBatchId()) + 1;
    if (await log.add(v, entries)) return v;
  }
  throw raceError(await log.latestBatchId());
}

function txnTag(writer: string, batchId: number): string {
  return `${writer}:${batchId}`;
}

/** The highest batch id `writer` has committed to the table's live files, or -1. */
export async function lastCommittedBatch(dir: string, writer: string): Promise<number> {
  let last = -1;
  for (const f of await readCommittedEntries(dir)) {
    const cut = f.txn?.lastIndexOf(":") ?? -1;
    if (cut > 0 && f.txn!.slice(0, cut) === writer) last = Math.max(last, Number(f.txn!.slice(cut + 1)));
  }
  return last;
}

async function writeAligned(t: TableInfo, data: TableData, opts: AppendOptions): Promise<string[]> {
  const batches = alignToTable(t.qualifiedName, t.schema, data.schema, data.batches);
  return writeDataFiles(TABLE_FORMAT, t.dir, t.schema, batches, data.timeZone, opts.options ?? {}, t.partitionColumns);
}

/** Appends rows as one new version. With `txn`, a (writer, batchId) already committed is skipped. */
export async function appendToTable(warehouse: string, name: string, data: TableData, opts: AppendOptions = {}): Promise<CommitResult> {
  const t = requireTable(warehouse, name);
  if (opts.txn && opts.txn.batchId <= (await lastCommittedBatch(t.dir, opts.txn.writer))) return { version: null, files: [] };
  const files = await writeAligned(t, data, opts);
  if (files.length === 0) return { version: null, files };
  const tag = opts.txn ? txnTag(opts.txn.writer, opts.txn.batchId) : undefined;
  const entries = await Promise.all(files.map((f) => addEntryFor(f, tag)));
  return { version: await commitVersion(t.dir, entries), files };
}

/**
 * Replaces the table's definition and contents in one version (deletes for every live file plus
 * the new files). The replaced files are removed from disk afterwards, so a reader still holding
 * them mid-read fails, as it would with Spark's overwrite of a file table.
 */
export async function overwriteTable(
  warehouse: string,
  name: string,
  data: TableData,
  opts: AppendOptions & { partitionBy?: readonly string[] } = {},
): Promise<CommitResult> {
  const old = requireTable(warehouse, name);
  const layout = tableLayout(data.schema, opts.partitionBy ?? []);
  const meta: TableMetadata = {
    name: old.ident.table,
    schema: layout.schema,
    partitionColumns: layout.partitionColumns,
    format: TABLE_FORMAT,
    createdAtMs: Date.now(),
  };
  const t = info(old.ident, old.dir, meta);
  const files = await writeAligned(t, data, opts);
  const live = await readCommittedEntries(t.dir);
  const entries = [...live.map((f) => deleteEntryFor(f)), ...(await Promise.all(files.map((f) => addEntryFor(f))))];
  const version = entries.length > 0 ? await commitVersion(t.dir, entries) : null;
  writeTableMetadataSync(t.dir, meta);
  for (const f of live) await rm(f.path, { force: true });
  return { version, files };
}

export type TableSaveMode = "append" | "overwrite" | "error" | "errorifexists" | "default" | "ignore";

/** `df.write.mode(m).partitionBy(...).saveAsTable(name)`. */
export async function saveAsTable(
  warehouse: string,
  name: string,
  data: TableData,
  mode: TableSaveMode | string = "errorifexists",
  partitionBy: readonly string[] = [],
): Promise<CommitResult> {
  const m = mode.toLowerCase();
  const existing = tableInfoSync(warehouse, name);
  if (existing) {
    switch (m) {
      case "error":
      case "errorifexists":
      case "default":
        throw alreadyExists(existing.ident);
      case "ignore":
        return { version: null, files: [] };
      case "overwrite":
        return overwriteTable(warehouse, name, data, { partitionBy });
      case "append": {
        const same =
          partitionBy.length === 0 ||
          partitionBy.map((p) => p.toLowerCase()).join(",") === existing.partitionColumns.map((p) => p.toLowerCase()).join(",");
        if (!same) {
          throw new AnalysisException(
            "_LEGACY_ERROR_TEMP_1164",
            `Specified partitioning does not match that of the existing table ${existing.qualifiedName}.\nSpecified partition columns: [${partitionBy.join(", ")}]\nExisting partition columns: [${existing.partitionColumns.join(", ")}]`,
          );
        }
        return appendToTable(warehouse, name, data);
      }
      default:
        break;
    }
  }
  if (!["append", "overwrite", "error", "errorifexists", "default", "ignore"].includes(m)) {
    throw new IllegalArgumentException(
      `Unknown save mode: ${mode}. Accepted save modes are 'overwrite', 'append', 'ignore', 'error', 'errorifexists', 'default'.`,
    );
  }
  createTableSync(warehouse, name, data.schema, { partitionBy });
  return appendToTable(warehouse, name, data);
}

/** Removes the table and its files. */
export async function dropTable(warehouse: string, name: string, ifExists = false): Promise<boolean> {
  const t = tableInfoSync(warehouse, name);
  if (!t) {
    if (ifExists) return false;
    throw tableNotFound(name);
  }
  await rm(t.dir, { recursive: true, force: true });
  return true;
}
