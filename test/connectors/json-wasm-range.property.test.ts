// A decode thread's range read straight into the WASM decoder's memory (line-range.ts
// RangeReader, json-wasm.ts readJsonWasmRange) must give exactly what reading the range's lines
// into a buffer and running the byte scanner gives: the same bytes, the same rows (STRING columns
// as JS strings or UTF-8 vectors), the same errors and lone-`\r` refusal, for any window size.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type Batch, rowValues } from "../../src/columnar/batch.js";
import { setUtf8Strings, utf8Strings } from "../../src/columnar/utf8-conf.js";
import { jsonDecoder, setJsonDecoder } from "../../src/connectors/files/json/json-decoder.js";
import { hasLoneCarriageReturn, readJsonRange, scanJsonBytes } from "../../src/connectors/files/json/json-scan.js";
import { jsonReadSettings } from "../../src/connectors/files/json/json-settings.js";
import { setWasmWindow, wasmJsonCounters } from "../../src/connectors/files/json/json-wasm.js";
import { nominalRanges, RangeReader, readLinesOfRange } from "../../src/connectors/files/line-range.js";
import { SourceOptions } from "../../src/connectors/files/options.js";
import { parseSchema } from "../../src/sql/datatype.js";
import { assertCanonicalUtf8 } from "../columnar/utf8-check.js";
import { tempDirsSync } from "../temp-dirs.js";

const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));
const tempDir = tempDirsSync("arus-json-wasm-range-");

function fileOf(bytes: Uint8Array): { file: string; size: number } {
  const file = join(tempDir(), "f.json");
  writeFileSync(file, bytes);
  return { file, size: bytes.length };
}

const SCHEMA = parseSchema("a BIGINT, s STRING, ts TIMESTAMP, n INT, _corrupt_record STRING");

const text = fc.string({ unit: fc.constantFrom("a", "b", "é", "中", "😀", "\\n", '\\"', "\\u00e9", "\r", "\t"), maxLength: 40 });
const record = fc
  .record({
    a: fc.oneof(fc.integer(), fc.constantFrom("1e3", "12345678901234567890", "null", '"x"')),
    s: fc.oneof(
      text.map((t) => `"${t}"`),
      fc.constantFrom("null", "7", "[1]"),
    ),
    ts: fc.constantFrom('"2026-01-16T00:00:01.5Z"', '"2026-01-17T10:00:00Z"', '"2026-01-16 07:00:00"', "null", "1700000000"),
    url: text.map((t) => `"https://x/${t}"`),
    n: fc.integer({ min: -5, max: 5 }),
  })
  .map((r) => `{"a":${r.a},"url":${r.url},"s":${r.s},"ts":${r.ts},"n":${r.n}}`);
const line = fc.oneof(
  { weight: 8, arbitrary: record },
  { weight: 1, arbitrary: fc.constantFrom("", "  ", "{broken", "[1]", '[{"a":1},{"a":2}]', '{"s":{"x":1}}', "{}\r{}", '{"a":1}\r') },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 400 }).map((k) => `{"s":"${"x".repeat(k)}"}`) },
);
const fileBytes = fc
  .tuple(
    fc.array(line, { maxLength: 30 }),
    fc.constantFrom("\n", "\r\n"),
    fc.boolean(),
    fc.boolean(),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(0x80, 0xc3, 0xff)), { maxLength: 2 }),
  )
  .map(([ls, sep, trailing, bom, bad]) => {
    const bytes = [...Buffer.from((bom ? "\uFEFF" : "") + ls.join(sep) + (trailing ? sep : ""))];
    for (const [at, b] of bad) bytes.splice(at % (bytes.length + 1), 0, b); // invalid UTF-8 anywhere
    return new Uint8Array(bytes);
  });

/** The range through a buffer and the byte scanner (what readJsonRange did before): rows, or the error's message. */
function viaBuffer(file: string, start: number, end: number, size: number, settings: ReturnType<typeof jsonReadSettings>): unknown {
  const { bytes, atFileStart } = readLinesOfRange(file, start, end, size);
  if (hasLoneCarriageReturn(bytes)) return "lone CR";
  try {
    return rowsOf(scanJsonBytes(file, bytes, SCHEMA, settings, atFileStart));
  } catch (e) {
    return (e as Error).message;
  }
}

function viaWasm(
  file: string,
  start: number,
  end: number,
  size: number,
  settings: ReturnType<typeof jsonReadSettings>,
  utf8: boolean,
): unknown {
  const decoder = jsonDecoder();
  const oldUtf8 = utf8Strings();
  setJsonDecoder("wasm");
  setUtf8Strings(utf8);
  try {
    const batches = readJsonRange(file, start, end, size, SCHEMA, settings);
    if (utf8) assertCanonicalUtf8(batches);
    return rowsOf(batches);
  } catch (e) {
    const m = (e as Error).message;
    return m.includes("lone \\r") ? "lone CR" : m;
  } finally {
    setJsonDecoder(decoder);
    setUtf8Strings(oldUtf8);
  }
}

describe("JSON-lines ranges read into the WASM decoder's memory", () => {
  it("RangeReader gives a range's lines as readLinesOfRange does, whatever the piece size", () => {
    fc.assert(
      fc.property(fileBytes, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 300 }), (bytes, parts, piece) => {
        const { file, size } = fileOf(bytes);
        for (const [s, e] of nominalRanges(size, parts)) {
          const want = Buffer.from(readLinesOfRange(file, s, e, size).bytes);
          const r = new RangeReader(file, s, e, size);
          const got: Buffer[] = [];
          try {
            for (;;) {
              const b = Buffer.alloc(piece);
              const k = r.read(b, 0, piece);
              got.push(b.subarray(0, k));
              if (k < piece) break;
            }
            assert.equal(r.read(Buffer.alloc(1), 0, 1), 0, "nothing after the end");
          } finally {
            r.close();
          }
          assert.deepStrictEqual(Buffer.concat(got), want, `range [${s}, ${e})`);
          assert.equal(r.atFileStart, s === 0);
        }
      }),
      { numRuns: 300 },
    );
  });

  for (const mode of ["PERMISSIVE", "DROPMALFORMED", "FAILFAST"] as const) {
    it(`the same rows as the byte scanner on the range's bytes, ${mode}`, () => {
      const settings = jsonReadSettings(new SourceOptions({ mode }), "UTC");
      fc.assert(
        fc.property(
          fileBytes,
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 1, max: 256 }),
          fc.boolean(),
          (bytes, parts, window, utf8) => {
            const { file, size } = fileOf(bytes);
            const old = setWasmWindow(window);
            try {
              for (const [s, e] of nominalRanges(size, parts)) {
                const want = viaBuffer(file, s, e, size, settings);
                const got = viaWasm(file, s, e, size, settings, utf8);
                const what = `range [${s}, ${e}) of ${Buffer.from(bytes).toString("hex")}`;
                // FAILFAST: a malformed record before the first lone \r may fail the range first;
                // either failure has the calling thread read the whole file (json-parallel.ts).
                if (mode === "FAILFAST" && want === "lone CR") assert.equal(typeof got, "string", what);
                else assert.deepStrictEqual(got, want, what);
              }
            } finally {
              setWasmWindow(old);
            }
          },
        ),
        { numRuns: 250 },
      );
    });
  }

  it("a JS-path row after WASM rows taken whole into a UTF-8 column keeps its offsets (an empty string too)", () => {
    const settings = jsonReadSettings(new SourceOptions({}), "UTC");
    const { file, size } = fileOf(Buffer.from('{"s":"0"}\n{"a":{"x":1},"s":""}\n{"s":"xy"}\n{}\n'));
    const rows = viaWasm(file, 0, size, size, settings, true); // checks each UTF-8 row's bytes
    assert.deepStrictEqual(rows, [
      [null, "0", null, null, null],
      [null, "", null, null, '{"a":{"x":1},"s":""}'],
      [null, "xy", null, null, null],
      [null, null, null, null, null],
    ]);
  });

  it("a read that fails part way leaves no rows behind for the next read", () => {
    const settings = jsonReadSettings(new SourceOptions({}), "UTC");
    const read = (text: string) => {
      const { file, size } = fileOf(Buffer.from(text));
      return viaWasm(file, 0, size, size, settings, true);
    };
    // a TIMESTAMP past 2^53 µs fails the WASM read after both rows were decoded (the byte scanner reads it)
    const far = '{"a":1,"ts":"2026-01-16T00:00:00Z"}\n{"a":2,"ts":"9999-12-31T23:59:59.999999999Z"}\n';
    assert.equal((read(far) as unknown[][]).length, 2);
    const before = wasmJsonCounters.rows;
    assert.deepStrictEqual(read('{"a":3,"n":1}\n'), [[3, null, null, 1, null]]);
    assert.equal(wasmJsonCounters.rows - before, 1, "decoded in WASM, alone");
  });

  it("batches of many rows cross windows whole, with JS-path lines among them", () => {
    const lines: string[] = [];
    for (let i = 0; i < 80_000; i++) {
      if (i % 5003 === 0)
        lines.push(`{"a":${i},"s":{"nested":1}}`); // JS path
      else lines.push(`{"a":${i},"url":"u${i}","s":"v${i % 7 === 0 ? "é" : ""}${i}","ts":"2026-01-16T00:00:0${i % 10}.5Z","n":${i % 100}}`);
    }
    const { file, size } = fileOf(Buffer.from(lines.join("\n")));
    const settings = jsonReadSettings(new SourceOptions({}), "UTC");
    const old = setWasmWindow(64 << 10);
    try {
      for (const [s, e] of nominalRanges(size, 2)) {
        const before = wasmJsonCounters.rows;
        const want = viaBuffer(file, s, e, size, settings) as unknown[][];
        assert.deepStrictEqual(viaWasm(file, s, e, size, settings, true), want);
        assert.ok(wasmJsonCounters.rows - before > want.length - 20, "decoded in WASM");
      }
    } finally {
      setWasmWindow(old);
    }
  });
});
