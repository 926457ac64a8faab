// The byte scanner (json-scan.ts) and the WASM decoder (json-wasm.ts, with the byte scanner's
// per-line fallback) must give exactly the rows the JSON.parse path gives, for any input: valid
// flat records, nested values, escapes, odd numbers, dates and timestamps, and malformed lines
// in every parse mode.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type Batch, rowValues } from "../../src/columnar/batch.js";
import { setUtf8Strings, utf8Strings } from "../../src/columnar/utf8-conf.js";
import { parseTimestamp } from "../../src/common/datetime/index.js";
import { isoUtcMicros } from "../../src/connectors/files/byte-values.js";
import { dateTimeText } from "../../src/connectors/files/datetime-text.js";
import { jsonDecoder, setJsonDecoder } from "../../src/connectors/files/json/json-decoder.js";
import { type JsonReadSettings, readJsonText } from "../../src/connectors/files/json/json-read.js";
import { readJsonBytes, scanJsonBytes } from "../../src/connectors/files/json/json-scan.js";
import { setWasmWindow, wasmJsonCounters } from "../../src/connectors/files/json/json-wasm.js";
import { parseSchema } from "../../src/sql/datatype.js";
import { assertCanonicalUtf8 } from "../columnar/utf8-check.js";
import { isoTimestamp } from "./arbitraries.js";

const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));

/** The WASM decoder (through the reader's entry point) with a given input window. */
function wasmRead(bytes: Uint8Array, schema: ReturnType<typeof parseSchema>, s: JsonReadSettings, window: number, utf8 = false): Batch[] {
  const decoder = jsonDecoder();
  const old = setWasmWindow(window);
  const oldUtf8 = utf8Strings();
  setJsonDecoder("wasm");
  setUtf8Strings(utf8);
  try {
    const batches = readJsonBytes("f.json", bytes, schema, s);
    if (utf8) assertCanonicalUtf8(batches);
    return batches;
  } finally {
    setWasmWindow(old);
    setJsonDecoder(decoder);
    setUtf8Strings(oldUtf8);
  }
}

/** All paths on the same bytes: the same rows, or the same error. */
function sameResult(input: string | Uint8Array, ddl: string, s: JsonReadSettings, window = 1 << 20): void {
  const schema = parseSchema(ddl);
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  let expected: unknown[][] | Error;
  try {
    expected = rowsOf(readJsonText("f.json", new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""), schema, s));
  } catch (e) {
    expected = e as Error;
  }
  if (expected instanceof Error) {
    assert.throws(() => scanJsonBytes("f.json", bytes, schema, s), { message: expected.message });
    assert.throws(() => wasmRead(bytes, schema, s, window), { message: expected.message });
    assert.throws(() => wasmRead(bytes, schema, s, window, true), { message: expected.message });
    return;
  }
  const what = typeof input === "string" ? JSON.stringify(input) : Buffer.from(bytes).toString("hex");
  assert.deepStrictEqual(rowsOf(scanJsonBytes("f.json", bytes, schema, s)), expected, what);
  assert.deepStrictEqual(rowsOf(wasmRead(bytes, schema, s, window)), expected, `wasm: ${what}`);
  // STRING columns as UTF-8 bytes (arus.columnar.utf8Strings): the same rows once decoded
  assert.deepStrictEqual(rowsOf(wasmRead(bytes, schema, s, window, true)), expected, `wasm utf8: ${what}`);
}

const EDGE_NUMBERS = [
  "0",
  "-0",
  "1e3",
  "1.5",
  "-2.25E-2",
  "12345678901234567890",
  "9007199254740993",
  "01",
  "1.",
  ".5",
  "-",
  "+1",
  "1e",
  "0.0",
  "-0.0",
  "0.1e1",
  "1E+2",
  "-1.0",
  "1.7976931348623157e308",
  "5e-324",
  "2.2250738585072011e-308",
  "123456789012345678",
  "1234567890123456",
  "9007199254740992",
  "-9007199254740993",
  "2147483647",
  "-2147483648",
  "2147483648",
  "9223372036854",
  "-9223372036855",
  "0.000001",
  "123456789012345e22",
  "1e23",
];
const EDGE_TEXTS = [
  '"a\\"b"',
  '"tab\there"',
  '"\\u00e9"',
  '"\\x"',
  '"é ü 中"',
  '"NaN"',
  '"Infinity"',
  '""',
  '"2026-01-16"',
  '"2026-02-30"',
  '"2024-02-29"',
  '"2026-1-6"',
  '"0000-01-01"',
  '" 2026-01-16"',
  '"2026-01-16T10:00"',
  '"\\ud83d"',
  '"1970-01-01T00:00:00Z"',
  '"9999-12-31T23:59:59.999999999Z"',
  '"0000-01-01T00:00:00.1Z"',
];
const scalar = fc.oneof(
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }).map(String),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom("true", "false", "null", "tru", "nul", "NaN"),
  fc.string().map((x) => JSON.stringify(x)),
  fc.string({ unit: "grapheme" }).map((x) => JSON.stringify(x)),
  fc.string({ unit: "binary" }).map((x) => JSON.stringify(x)),
  // Long strings (the WASM decoder scans 16 bytes at a time): stops at any offset, raw control
  // characters (invalid JSON), escapes and multi-byte characters anywhere.
  fc
    .string({ unit: fc.constantFrom("a", "a", "a", "é", "中", "😀", "\\n", "\\u00e9", '\\"', "\u0001", "\u007f"), maxLength: 70 })
    .map((x) => `"${x}"`),
  fc
    .string({
      unit: fc.constantFrom("\\n", "\\u00e9", "\\ud83d\\ude00", "\\ud83d", "\\ude00", "\\/", "\\t", "a", "\\u0000", "\\uD834\\uDD1E"),
    })
    .map((x) => `"${x}"`),
  fc.constantFrom(...EDGE_TEXTS),
  isoTimestamp.map((t) => JSON.stringify(t)),
  fc.constantFrom('{"x":1}', "[1,2]", "[]", "{}", '{"a":[{"b":null}]}', "[1,]"),
);
const key = fc.constantFrom("a", "b", "s", "ts", "n", "flag", "d", "other", "__proto__", "_corrupt_record", "ü", "s\\u0020");
const space = fc.constantFrom("", "", " ", "\t", "  ");
const record = fc
  .array(fc.tuple(key, space, scalar, space), { maxLength: 7 })
  .map((kv) => `{${kv.map(([k, sp, v, sp2]) => `${sp}"${k}"${sp}:${sp2}${v}`).join(",")}}`);
const line = fc.oneof(
  { weight: 6, arbitrary: record },
  {
    weight: 1,
    arbitrary: fc
      .tuple(record, fc.nat(), fc.string({ maxLength: 2 }))
      .map(([r, at, ins]) => r.slice(0, at % (r.length + 1)) + ins + r.slice(at % (r.length + 1))),
  },
  { weight: 1, arbitrary: fc.tuple(record, fc.nat()).map(([r, cut]) => r.slice(0, cut % (r.length + 1))) },
  { weight: 1, arbitrary: fc.constantFrom("", "   ", "\t", "[]", '[{"a":1},{"a":2}]', "null", "42", '"x"', "{} x", " {} ", "\u00a0") },
);
const file = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom("\n", "\r\n"), fc.boolean(), fc.boolean())
  .map(([ls, sep, trailing, bom]) => (bom ? "\uFEFF" : "") + ls.join(sep) + (trailing && ls.length > 0 ? sep : ""));

const SCHEMAS = [
  "a BIGINT, b DOUBLE, s STRING, ts TIMESTAMP, n INT, flag BOOLEAN",
  "a BIGINT, b DOUBLE, s STRING, ts TIMESTAMP, n INT, flag BOOLEAN, _corrupt_record STRING",
  "ts TIMESTAMP",
  "`__proto__` STRING, `ü` STRING, other DOUBLE",
  "s STRING, _corrupt_record STRING",
  "d DATE, a INT, b BIGINT, ts TIMESTAMP, s STRING, flag BOOLEAN, n DOUBLE",
];

const settings = (mode: JsonReadSettings["mode"], zone: string, tsFormat?: string): JsonReadSettings => ({
  mode,
  corruptColumn: "_corrupt_record",
  dateTime: dateTimeText(tsFormat ? ({ get: (k: string) => (k === "timestampFormat" ? tsFormat : undefined) } as never) : null, zone),
});

describe("JSON byte scanner ≡ JSON.parse path", () => {
  for (const mode of ["PERMISSIVE", "DROPMALFORMED", "FAILFAST"] as const) {
    it(`random files, ${mode}`, () => {
      fc.assert(
        fc.property(file, fc.constantFrom(...SCHEMAS), fc.constantFrom("UTC", "Asia/Jakarta"), (text, ddl, zone) =>
          sameResult(text, ddl, settings(mode, zone)),
        ),
        { numRuns: 400 },
      );
    });
  }

  it("every edge value in every column type", () => {
    const values = [...EDGE_NUMBERS, ...EDGE_TEXTS, "true", "false", "null", "[]", "{}"];
    for (const ddl of SCHEMAS) {
      const keys = parseSchema(ddl).fields.map((f) => f.name);
      const lines = keys.flatMap((k) => values.map((v) => `{${JSON.stringify(k)}:${v}}`));
      for (const mode of ["PERMISSIVE", "DROPMALFORMED"] as const) sameResult(lines.join("\n"), ddl, settings(mode, "UTC"));
    }
  });

  it("WASM decoder: input windows of any size, lines across their ends", () => {
    fc.assert(
      fc.property(file, fc.constantFrom(...SCHEMAS), fc.integer({ min: 1, max: 200 }), (text, ddl, window) =>
        sameResult(text, ddl, settings("PERMISSIVE", "UTC"), window),
      ),
      { numRuns: 300 },
    );
  });

  it("invalid UTF-8 bytes anywhere decode as the text path decodes them", () => {
    fc.assert(
      fc.property(
        file,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff, 0xed)), { maxLength: 4 }),
        fc.constantFrom(...SCHEMAS),
        (text, inserts, ddl) => {
          const bytes = [...new TextEncoder().encode(text)];
          for (const [at, b] of inserts) bytes.splice(at % (bytes.length + 1), 0, b);
          sameResult(new Uint8Array(bytes), ddl, settings("PERMISSIVE", "UTC"));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("WASM decoder: flat records are decoded in WASM, batches split as the byte scanner splits them", () => {
    const schema = parseSchema("a BIGINT, s STRING, ts TIMESTAMP, d DATE, _corrupt_record STRING");
    const lines: string[] = [];
    for (let i = 0; i < 70_000; i++) {
      if (i % 997 === 0)
        lines.push(`{"a":${i},"s":{"nested":true}}`); // a nested value: JS path
      else if (i % 1009 === 0)
        lines.push(`[{"a":${i}},{"a":${-i}}]`); // two rows from one line
      else if (i % 1013 === 0) lines.push("");
      else
        lines.push(
          `{"a":${i},"s":"v\u00e9${i}","ts":"2026-01-16T00:00:0${i % 10}.5Z","d":"2026-03-${String(1 + (i % 28)).padStart(2, "0")}"}`,
        );
    }
    const bytes = new TextEncoder().encode(lines.join("\n"));
    const s = settings("PERMISSIVE", "UTC");
    const before = { ...wasmJsonCounters };
    const wasm = wasmRead(bytes, schema, s, 1 << 16);
    const js = scanJsonBytes("f.json", bytes, schema, s);
    assert.deepStrictEqual(
      wasm.map((b) => b.numRows),
      js.map((b) => b.numRows),
    );
    assert.deepStrictEqual(rowsOf(wasm), rowsOf(js));
    const fallbacks = lines.filter((l, i) => i % 997 === 0 || (i % 1009 === 0 && l !== "")).length;
    assert.equal(wasmJsonCounters.fallbackLines - before.fallbackLines, fallbacks);
    assert.equal(wasmJsonCounters.rows - before.rows, rowsOf(js).length - fallbacks - lines.filter((l) => l.startsWith("[")).length);
  });

  it("a timestampFormat option turns the ISO fast path off", () => {
    fc.assert(
      fc.property(file, (text) => sameResult(text, SCHEMAS[0]!, settings("PERMISSIVE", "UTC", "yyyy-MM-dd'T'HH:mm:ss.SSSX"))),
      { numRuns: 100 },
    );
  });

  it("lone carriage returns end lines as in Hadoop's reader", () => {
    sameResult('{"a":1}\r{"a":2}\r\n{"a":3}', SCHEMAS[0]!, settings("PERMISSIVE", "UTC"));
    const rows = rowsOf(
      readJsonBytes("f.json", new TextEncoder().encode('{"a":1}\r{"a":2}'), parseSchema("a BIGINT"), settings("PERMISSIVE", "UTC")),
    );
    assert.deepStrictEqual(rows, [[1], [2]]);
  });

  it("ISO-8601 UTC timestamps parse in place exactly as the cast parser does", () => {
    fc.assert(
      fc.property(isoTimestamp, (t) => {
        const fast = isoUtcMicros(Buffer.from(t, "latin1"), 0, t.length);
        if (Number.isNaN(fast)) return; // not the fast shape: the full parser decides
        assert.equal(fast, parseTimestamp(t, "Asia/Jakarta"), t);
      }),
      { numRuns: 2000 },
    );
    assert.equal(
      isoUtcMicros(Buffer.from("2026-01-16T00:00:00.123456789Z"), 0, 30),
      parseTimestamp("2026-01-16T00:00:00.123456789Z", "UTC"),
    );
    assert.ok(Number.isNaN(isoUtcMicros(Buffer.from("2026-02-30T00:00:00Z"), 0, 20)));
  });
});
