// The parallel JSON scan (real worker threads, each reading its own range of the file) must give
// exactly the rows of a one-thread read, in file order, and report a FAILFAST record with its true
// line number.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { type Batch, rowValues } from "../../src/columnar/batch.js";
import { parallelScanCounters, setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { readJsonRanges } from "../../src/connectors/files/json/json-parallel.js";
import { readJsonBytes } from "../../src/connectors/files/json/json-scan.js";
import { jsonReadSettings } from "../../src/connectors/files/json/json-settings.js";
import { nominalRanges, readLinesOfRange } from "../../src/connectors/files/line-range.js";
import { SourceOptions } from "../../src/connectors/files/options.js";
import { parseSchema } from "../../src/sql/datatype.js";
import { tempDirsSync } from "../temp-dirs.js";

const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));

const tempDir = tempDirsSync("arus-json-parallel-");

/** `content` written to a fresh `f.json`: its path and size. */
function fileOf(content: string | Uint8Array): { file: string; size: number } {
  const file = join(tempDir(), "f.json");
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  writeFileSync(file, bytes);
  return { file, size: bytes.length };
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

  it("each line is read by exactly one range, whole, in file order", () => {
    const piece = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("\r", "\n\n", "ü✓", ""));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.boolean(), fc.integer({ min: 1, max: 7 }), (ls, endNl, parts) => {
        const text = ls.join("\n") + (endNl ? "\n" : "");
        const { file, size } = fileOf(text);
        const got: Buffer[] = [];
        for (const [s, e] of nominalRanges(size, parts)) {
          const { bytes, atFileStart } = readLinesOfRange(file, s, e, size);
          assert.equal(atFileStart, s === 0);
          // whole lines: ends after a newline, or at the end of the file
          if (bytes.length > 0 && got.reduce((n, b) => n + b.length, 0) + bytes.length < size) assert.equal(bytes.at(-1), 0x0a);
          got.push(Buffer.from(bytes)); // the bytes are a view of a reused buffer
        }
        assert.equal(Buffer.concat(got).toString("utf8"), text);
      }),
      { numRuns: 200 },
    );
  });

  it("a line longer than its range and the read-ahead is read whole by the range it starts in", () => {
    const long = "x".repeat(300_000);
    const text = `a\n${long}\nb\n${long}`;
    const { file, size } = fileOf(text);
    for (const parts of [2, 3, 5, 40]) {
      const pieces = nominalRanges(size, parts).map(([s, e]) => Buffer.from(readLinesOfRange(file, s, e, size).bytes).toString());
      assert.equal(pieces.join(""), text);
      assert.ok(pieces.filter((p) => p.includes(long)).length === 2, `${parts} parts: the long lines in one piece each`);
    }
  });

  it("bytes appended after the file was listed are not read", () => {
    const { file, size } = fileOf("a\nb\n");
    writeFileSync(file, "a\nb\nc\n");
    const text = nominalRanges(size, 2)
      .map(([s, e]) => Buffer.from(readLinesOfRange(file, s, e, size).bytes).toString())
      .join("");
    assert.equal(text, "a\nb\n");
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
            const { file, size } = fileOf(text);
            const one = rowsOf(readJsonBytes(file, new TextEncoder().encode(text), SCHEMA, settings));
            const many = rowsOf(await readJsonRanges(file, size, SCHEMA, o.toRecord(), "Asia/Jakarta", settings, parts));
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
    const { file, size } = fileOf(lines.join("\n"));
    await assert.rejects(readJsonRanges(file, size, SCHEMA, o.toRecord(), "UTC", jsonReadSettings(o, "UTC"), 3), /f\.json at line 877/);
    assert.equal(parallelScanCounters.fallbacks, 1);
  });

  it("lone \\r line ends are read on one thread, with the one-thread rows", async () => {
    const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ id: i, name: `n${i}` }));
    const text = lines.slice(0, 150).join("\n") + "\r" + lines.slice(150).join("\n");
    const o = new SourceOptions({});
    const settings = jsonReadSettings(o, "UTC");
    const { file, size } = fileOf(text);
    const before = parallelScanCounters.fallbacks;
    const many = rowsOf(await readJsonRanges(file, size, SCHEMA, o.toRecord(), "UTC", settings, 2));
    assert.deepStrictEqual(many, rowsOf(readJsonBytes(file, new TextEncoder().encode(text), SCHEMA, settings)));
    assert.equal(many.length, 300);
    assert.equal(parallelScanCounters.fallbacks, before + 1);
  });
});
