// The parallel JSON scan (real worker threads) must give exactly the rows of a one-thread read,
// in file order, and report a FAILFAST record with its true line number.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { type Batch, rowValues } from "../../src/columnar/batch.js";
import { parallelScanCounters, setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { lineAlignedRanges, readJsonRanges } from "../../src/connectors/files/json/json-parallel.js";
import { readJsonBytes } from "../../src/connectors/files/json/json-scan.js";
import { jsonReadSettings } from "../../src/connectors/files/json/json-settings.js";
import { SourceOptions } from "../../src/connectors/files/options.js";
import { parseSchema } from "../../src/sql/datatype.js";

const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));

function shared(text: string): SharedArrayBuffer {
  const bytes = new TextEncoder().encode(text);
  const sab = new SharedArrayBuffer(bytes.length);
  new Uint8Array(sab).set(bytes);
  return sab;
}

const SCHEMA = parseSchema("id BIGINT, name STRING, ts TIMESTAMP, tags ARRAY<STRING>, _corrupt_record STRING");
const line = fc.oneof(
  fc
    .record({
      id: fc.integer(),
      name: fc.string(),
      ts: fc.constantFrom("2026-01-16T00:00:01.5Z", "2026-01-16 07:00:00", "bad"),
      tags: fc.array(fc.string(), { maxLength: 2 }),
    })
    .map((r) => JSON.stringify(r)),
  fc.constantFrom("", "{broken", "[1]", '{"id":"x"}', "\uFEFF{}"),
);

describe("parallel JSON scan", () => {
  setScanThreads(3);
  after(() => setScanThreads(1));

  it("line-aligned ranges cover the input and end after a newline", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }), { maxLength: 40 }), fc.integer({ min: 1, max: 6 }), (ls, parts) => {
        const bytes = new TextEncoder().encode(ls.map((l) => l.replace(/\n/g, "")).join("\n"));
        const ranges = lineAlignedRanges(bytes, parts);
        let at = 0;
        for (const [s, e] of ranges) {
          assert.equal(s, at);
          assert.ok(e > s);
          if (e < bytes.length) assert.equal(bytes[e - 1], 0x0a);
          at = e;
        }
        assert.equal(at, bytes.length);
        assert.ok(ranges.length <= parts);
      }),
    );
  });

  for (const mode of ["PERMISSIVE", "DROPMALFORMED"] as const) {
    it(`same rows as one thread, ${mode}`, async () => {
      const o = new SourceOptions({ mode });
      const settings = jsonReadSettings(o, "Asia/Jakarta");
      await fc.assert(
        fc.asyncProperty(
          fc.array(line, { maxLength: 60 }),
          fc.constantFrom("\n", "\r\n"),
          fc.integer({ min: 2, max: 4 }),
          async (ls, sep, parts) => {
            const text = ls.join(sep);
            const sab = shared(text);
            const one = rowsOf(readJsonBytes("f.json", new Uint8Array(sab), SCHEMA, settings));
            const many = rowsOf(await readJsonRanges("f.json", sab, SCHEMA, o.toRecord(), "Asia/Jakarta", settings, parts));
            assert.deepStrictEqual(many, one);
          },
        ),
        { numRuns: 40 },
      );
      // The rows above came from the worker threads, not from the one-thread fallback.
      assert.equal(parallelScanCounters.fallbacks, 0);
      assert.ok(parallelScanCounters.ranges > 40);
    });
  }

  it("a FAILFAST record in a later range is reported with its line number in the file", async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ id: i, name: `n${i}` }));
    lines[876] = '{"id": "not a number"}';
    const o = new SourceOptions({ mode: "FAILFAST" });
    await assert.rejects(
      readJsonRanges("f.json", shared(lines.join("\n")), SCHEMA, o.toRecord(), "UTC", jsonReadSettings(o, "UTC"), 3),
      /f\.json at line 877/,
    );
    assert.equal(parallelScanCounters.fallbacks, 1);
  });
});
