/**
 * `<table>/_arus_table.json`: what a table is (format version, schema, partitioning). It is
 * written once at creation (rewritten only by an overwrite that replaces the table), atomically,
 * and its presence is what makes a directory a table.
 */

import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ArusError } from "../../common/errors.js";
import type { StructType } from "../../types/datatypes.js";
import { schemaFromJson, typeToJson } from "./schema-json.js";

export const TABLE_META_FILE = "_arus_table.json";
export const TABLE_FORMAT_VERSION = 1;

export interface TableMetadata {
  readonly name: string;
  readonly schema: StructType;
  readonly partitionColumns: readonly string[];
  readonly format: "parquet";
  readonly createdAtMs: number;
}

export function metadataPath(dir: string): string {
  return join(dir, TABLE_META_FILE);
}

export function writeTableMetadataSync(dir: string, meta: TableMetadata): void {
  const json = {
    formatVersion: TABLE_FORMAT_VERSION,
    name: meta.name,
    format: meta.format,
    schema: typeToJson(meta.schema),
    partitionColumns: meta.partitionColumns,
    createdAtMs: meta.createdAtMs,
  };
  mkdirSync(dir, { recursive: true });
  // Temp file + rename: a reader sees the old definition or the new one, never half of one.
  const tmp = join(dir, `.${TABLE_META_FILE}.${randomUUID()}.tmp`);
  try {
    writeFileSync(tmp, `${JSON.stringify(json, null, 2)}\n`);
    renameSync(tmp, metadataPath(dir));
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The table's metadata, or null when `dir` holds no table. */
export function readTableMetadataSync(dir: string): TableMetadata | null {
  let text: string;
  try {
    text = readFileSync(metadataPath(dir), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  const j = JSON.parse(text) as Record<string, unknown>;
  if (typeof j.formatVersion !== "number" || j.formatVersion > TABLE_FORMAT_VERSION) {
    throw new ArusError(
      "UNSUPPORTED_TABLE_FORMAT",
      `Table at ${dir} has format version ${String(j.formatVersion)}; this arus reads up to version ${TABLE_FORMAT_VERSION}.`,
    );
  }
  return {
    name: String(j.name),
    schema: schemaFromJson(j.schema),
    partitionColumns: (j.partitionColumns as string[] | undefined) ?? [],
    format: "parquet",
    createdAtMs: Number(j.createdAtMs ?? 0),
  };
}
