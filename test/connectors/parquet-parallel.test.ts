// Parquet decoded on a worker thread must give exactly the rows of a main-thread read, and a
// file that cannot be read must fail with the reader's own error.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { type Batch, batchFromRows, rowValues } from "../../src/columnar/batch.js";
import { AnalysisException } from "../../src/common/errors.js";
import { parallelScanCounters, setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { encodeParquet, readParquetFile } from "../../src/connectors/files/parquet.js";
import { readParquetOffThread } from "../../src/connectors/files/parquet-parallel.js";
import { parseSchema } from "../../src/sql/datatype.js";

const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));
const SCHEMA = parseSchema("id BIGINT, name STRING, ts TIMESTAMP, ok BOOLEAN, tags ARRAY<STRING>, w STRUCT<start: TIMESTAMP, n: INT>");
const row = fc.tuple(
  fc.option(fc.integer(), { nil: null }),
  fc.option(fc.string(), { nil: null }),
  fc.option(
    fc.integer({ min: 0, max: 2_000_000_000 }).map((s) => s * 1_000_000),
    { nil: null },
  ),
  fc.option(
    fc.boolean().map((b) => (b ? 1 : 0)),
    { nil: null },
  ),
  fc.option(fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }), { nil: null }),
  fc.option(fc.record({ start: fc.integer({ min: 0, max: 1_000_000 }).map((s) => s * 1_000_000), n: fc.integer({ min: -5, max: 5 }) }), {
    nil: null,
  }),
);

describe("Parquet off the main thread", () => {
  setScanThreads(2);
  after(() => setScanThreads(1));
  const dir = mkdtempSync(path.join(tmpdir(), "arus-pq-par-"));

  it("same rows as a main-thread read", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 50 }), async (rows) => {
        const file = path.join(dir, `f${n++}.parquet`);
        writeFileSync(
          file,
          encodeParquet(
            SCHEMA,
            [
              batchFromRows(
                SCHEMA.fields.map((f) => f.type),
                rows,
              ),
            ],
            "snappy",
          ),
        );
        const before = parallelScanCounters.ranges;
        const off = rowsOf(await readParquetOffThread(file, SCHEMA, 0));
        assert.equal(parallelScanCounters.ranges, before + 1, "decoded on a worker");
        assert.deepStrictEqual(off, rowsOf(await readParquetFile(file, SCHEMA)));
      }),
      { numRuns: 30 },
    );
    assert.equal(parallelScanCounters.fallbacks, 0);
  });

  it("a type mismatch fails with the reader's own error", async () => {
    const file = path.join(dir, "typed.parquet");
    writeFileSync(file, encodeParquet(parseSchema("id STRING"), [batchFromRows([SCHEMA.fields[1]!.type], [["x"]])], "snappy"));
    await assert.rejects(
      readParquetOffThread(file, parseSchema("id BIGINT"), 0),
      (e: Error) => e instanceof AnalysisException && /PARQUET_COLUMN_DATA_TYPE_MISMATCH/.test(e.message),
    );
  });
});
