// The byte scanner (json-scan.ts) must give exactly the rows the JSON.parse path gives, for
// any input: valid flat records, nested values, escapes, odd numbers and timestamps, and
// malformed lines in every parse mode.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type Batch, rowValues } from "../../src/columnar/batch.js";
import { parseTimestamp } from "../../src/common/datetime/index.js";
import { isoUtcMicros } from "../../src/connectors/files/byte-values.js";
import { dateTimeText } from "../../src/connectors/files/datetime-text.js";
import { type JsonReadSettings, readJsonText } from "../../src/connectors/files/json/json-read.js";
import { readJsonBytes } from "../../src/connectors/files/json/json-scan.js";
import { parseSchema } from "../../src/sql/datatype.js";
import { isoTimestamp } from "./arbitraries.js";

const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));

/** Both paths on the same bytes: the same rows, or the same error. */
function sameResult(text: string, ddl: string, s: JsonReadSettings): void {
  const schema = parseSchema(ddl);
  const bytes = new TextEncoder().encode(text);
  let expected: unknown[][] | Error;
  try {
    expected = rowsOf(readJsonText("f.json", new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""), schema, s));
  } catch (e) {
    expected = e as Error;
  }
  if (expected instanceof Error) {
    assert.throws(() => readJsonBytes("f.json", bytes, schema, s), { message: expected.message });
    return;
  }
  assert.deepStrictEqual(rowsOf(readJsonBytes("f.json", bytes, schema, s)), expected, JSON.stringify(text));
}

const scalar = fc.oneof(
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }).map(String),
  fc.constantFrom(
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
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom("true", "false", "null", "tru", "nul", "NaN"),
  fc.string().map((x) => JSON.stringify(x)),
  fc.string({ unit: "grapheme" }).map((x) => JSON.stringify(x)),
  fc.constantFrom('"a\\"b"', '"tab\there"', '"\\u00e9"', '"\\x"', '"é ü 中"', '"NaN"', '"Infinity"', '""', '"2026-01-16"'),
  isoTimestamp.map((t) => JSON.stringify(t)),
  fc.constantFrom('{"x":1}', "[1,2]", "[]", "{}", '{"a":[{"b":null}]}', "[1,]"),
);
const key = fc.constantFrom("a", "b", "s", "ts", "n", "flag", "other", "__proto__", "_corrupt_record", "ü", "s\\u0020");
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
