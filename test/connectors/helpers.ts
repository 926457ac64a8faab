/** Shared test helpers for the file connector tests (not a test file itself). */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Batch, batchFromRows, rowValues } from "../../src/columnar/batch.js";
import type { StructType } from "../../src/types/datatypes.js";
import { tempDirs } from "../temp-dirs.js";

/** A fresh temp directory, removed after the test file's tests. */
export const tempDir = tempDirs("arus-files-");

/** Writes `text` to a file called `name` in a fresh temp directory; returns its path. */
export async function tempFile(name: string, text: string): Promise<string> {
  const p = join(await tempDir(), name);
  await writeFile(p, text);
  return p;
}

export function batchOf(schema: StructType, rows: readonly (readonly unknown[])[]): Batch {
  return batchFromRows(
    schema.fields.map((f) => f.type),
    rows,
  );
}

export function rowsOf(batches: readonly Batch[]): unknown[][] {
  const out: unknown[][] = [];
  for (const b of batches) for (let i = 0; i < b.numRows; i++) out.push(rowValues(b, i));
  return out;
}

/** Micros for a UTC wall time. */
export function utcMicros(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, micros = 0): number {
  return Date.UTC(y, mo - 1, d, h, mi, s) * 1000 + micros;
}
