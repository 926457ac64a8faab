/** Shared test helpers for the file connector tests (not a test file itself). */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { type Batch, batchFromRows, rowValues } from "../../src/columnar/batch.js";
import type { StructType } from "../../src/types/datatypes.js";

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

export async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "arus-files-"));
  dirs.push(d);
  return d;
}

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
