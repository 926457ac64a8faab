// The CSV byte scanner (csv-scan.ts) must give exactly the rows the text path (decodeText →
// CsvTokenizer → textConverter) gives, for any input: quotes, escapes, embedded separators and
// line breaks, nulls, odd numbers and timestamps, malformed records, BOMs, CRLF, broken UTF-8,
// under every parse mode and the syntax options the scanner mirrors (or hands back); STRING
// columns as JS strings and as UTF-8 vectors (tokens copied as bytes).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type Batch, rowValues } from "../../src/columnar/batch.js";
import { utf8Of } from "../../src/columnar/utf8.js";
import { setUtf8Strings, utf8Strings } from "../../src/columnar/utf8-conf.js";
import { csvReadOptions } from "../../src/connectors/files/csv/csv-options.js";
import { readCsvText } from "../../src/connectors/files/csv/csv-read.js";
import { readCsvBytes } from "../../src/connectors/files/csv/csv-scan.js";
import { dateTimeText } from "../../src/connectors/files/datetime-text.js";
import { decodeText } from "../../src/connectors/files/lines.js";
import { SourceOptions } from "../../src/connectors/files/options.js";
import { parseSchema } from "../../src/sql/datatype.js";
import { assertCanonicalUtf8 } from "../columnar/utf8-check.js";
import { isoTimestamp } from "./arbitraries.js";

const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));

/** Both paths on the same bytes: the same rows, or the same error. */
function sameResult(bytes: Uint8Array, ddl: string, options: Record<string, string>, zone = "UTC"): void {
  const schema = parseSchema(ddl);
  const so = new SourceOptions(options);
  const o = csvReadOptions(so);
  const dt = dateTimeText(so, zone);
  let expected: unknown[][] | Error;
  try {
    expected = rowsOf(readCsvText("f.csv", decodeText(bytes), schema, o, dt));
  } catch (e) {
    expected = e as Error;
  }
  const what = `${JSON.stringify(Buffer.from(bytes).toString("latin1"))} ${JSON.stringify(options)} ${ddl}`;
  // STRING columns as JS strings and as UTF-8 vectors (arus.columnar.utf8Strings): the same rows
  for (const utf8 of [false, true]) {
    const scan = () => {
      const old = utf8Strings();
      setUtf8Strings(utf8);
      try {
        return readCsvBytes("f.csv", bytes, schema, o, dt);
      } finally {
        setUtf8Strings(old);
      }
    };
    if (expected instanceof Error) {
      assert.throws(scan, { message: expected.message }, what);
      continue;
    }
    const batches = scan();
    if (utf8) {
      assertCanonicalUtf8(batches);
      for (const b of batches)
        schema.fields.forEach((f, i) => {
          if (f.type.kind === "string") assert.ok(utf8Of(b.columns[i]!), `${f.name}: a UTF-8 vector`);
        });
    }
    assert.deepStrictEqual(rowsOf(batches), expected, `${what} utf8Strings=${utf8}`);
  }
}

interface Syntax {
  sep: string;
  quote: string;
  escape: string;
}

/** Raw text of a value, before quoting. */
const value = fc.oneof(
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }).map(String),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc
    .tuple(fc.constantFrom("", "-", "+"), fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 18 }), fc.boolean())
    .chain(([sign, ds, dot]) =>
      fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 8 }).map((f) => `${sign}${ds}${dot ? "." : ""}${dot ? f : ""}`),
    ),
  fc.double({ noDefaultInfinity: true }).map(String),
  fc.constantFrom(
    "0",
    "-0",
    "+0",
    "-0.0",
    "007",
    "2147483648",
    "-2147483648",
    "9007199254740993",
    "1e3",
    "1.5d",
    "2f",
    " 1",
    "1 ",
    "+",
    "-",
    ".",
    "1.2.3",
    "NaN",
    "Inf",
    "-Inf",
    "Infinity",
    "+NaN",
    "nan",
    "true",
    "FALSE",
    "NA",
    "EMPTY",
    "2026-01-16",
    "2026-1-6 01:02:03",
    "١٢",
    "\u00a0",
  ),
  isoTimestamp,
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
  fc.constantFrom("é ü 中", "a\u2028b", "\uFEFFx", "tab\there", "sp "),
);

/** A token as it appears in the file: plain, quoted (quotes/escapes doubled or escaped), or broken. */
function token(syn: Syntax): fc.Arbitrary<string> {
  const q = syn.quote;
  const quoted = fc.tuple(value, fc.constantFrom("", "", "x", " ", "\t"), fc.constantFrom("", "", " ")).map(([v, tail, lead]) => {
    if (q === "") return v;
    let body = "";
    for (const ch of v) body += ch === q ? (syn.escape === "" || syn.escape === q ? q + q : syn.escape + q) : ch;
    return `${lead}${q}${body}${q}${tail}`;
  });
  const special = fc.constantFrom(
    "",
    "",
    `${q}${q}`,
    `${q}a${syn.sep}b${q}`,
    `${q}line\nbreak${q}`,
    `${q}cr\rlf\r\n${q}`,
    `${q}${syn.escape}${syn.escape}${q}`,
    `${q}a${syn.escape}x${q}`,
    `${q}unterminated`,
    `a${q}b`,
    " x ",
    "\t7\t",
  );
  return fc.oneof({ weight: 5, arbitrary: value }, { weight: 3, arbitrary: quoted }, { weight: 2, arbitrary: special });
}

function file(syn: Syntax): fc.Arbitrary<Uint8Array> {
  // Mostly as many tokens as some schema has columns, so that many records are well formed.
  const width = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(2, 3, 6, 7) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 9 }) });
  const record = width.chain((w) => fc.array(token(syn), { minLength: w, maxLength: w })).map((ts) => ts.join(syn.sep));
  const line = fc.oneof(
    { weight: 8, arbitrary: record },
    { weight: 1, arbitrary: fc.constantFrom("", "#comment", "# a,b", " ", syn.sep, `${syn.sep}${syn.sep}`) },
  );
  return fc
    .tuple(
      fc.array(fc.tuple(line, fc.constantFrom("\n", "\n", "\r\n", "\r")), { maxLength: 10 }),
      fc.boolean(),
      fc.constantFrom(0, 0, 1, 2),
      fc.array(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 3 })), { maxLength: 2 }),
    )
    .map(([ls, trailing, boms, junk]) => {
      let text = "\uFEFF".repeat(boms);
      ls.forEach(([l, sep], i) => {
        text += l;
        if (trailing || i < ls.length - 1) text += sep;
      });
      let bytes = Buffer.from(text, "utf8");
      // Arbitrary bytes (broken UTF-8, stray separators) at random places.
      for (const [at, extra] of junk) {
        const k = at % (bytes.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, k), extra, bytes.subarray(k)]);
      }
      return new Uint8Array(bytes);
    });
}

const SCHEMAS = [
  "a BIGINT, b INT, s STRING, d DOUBLE, ts TIMESTAMP, f BOOLEAN, dt DATE",
  "a BIGINT, _corrupt_record STRING, b INT, s STRING, d DOUBLE, ts TIMESTAMP",
  "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP, extra STRING",
  "s STRING, t STRING, _corrupt_record STRING",
  "x DOUBLE, y INT, bad STRING",
  "ts TIMESTAMP, n BIGINT",
];

const syntaxes: fc.Arbitrary<Syntax & { options: Record<string, string> }> = fc
  .record({
    sep: fc.constantFrom(",", ",", ";", "\t", "||", "§"),
    quote: fc.constantFrom('"', '"', "'", ""),
    escape: fc.constantFrom("\\", "\\", '"', ""),
  })
  .chain((syn) =>
    fc
      .record(
        {
          header: fc.constantFrom("true", "false"),
          mode: fc.constantFrom("PERMISSIVE", "DROPMALFORMED", "FAILFAST"),
          comment: fc.constantFrom("#", ""),
          ignoreLeadingWhiteSpace: fc.constantFrom("true", "false"),
          ignoreTrailingWhiteSpace: fc.constantFrom("true", "false"),
          nullValue: fc.constantFrom("", "NA", "1", "é"),
          emptyValue: fc.constantFrom("", "EMPTY"),
          nanValue: fc.constantFrom("NaN", "nan", "0"),
          positiveInf: fc.constantFrom("Inf", "+1"),
          timestampFormat: fc.constantFrom("yyyy-MM-dd'T'HH:mm:ss.SSSX"),
          dateFormat: fc.constantFrom("yyyy-MM-dd"),
          columnNameOfCorruptRecord: fc.constantFrom("bad"),
        },
        { requiredKeys: ["header", "mode"] },
      )
      .map((extra) => {
        const options: Record<string, string> = { ...extra, sep: syn.sep, quote: syn.quote, escape: syn.escape };
        if (syn.sep === "\t") options.sep = "\\t";
        return { ...syn, options };
      }),
  );

describe("CSV byte scanner ≡ text path", () => {
  it("random files, schemas and options", () => {
    fc.assert(
      fc.property(
        syntaxes.chain((syn) => fc.tuple(fc.constant(syn.options), file(syn))),
        fc.constantFrom(...SCHEMAS),
        fc.constantFrom("UTC", "Asia/Jakarta"),
        ([options, bytes], ddl, zone) => sameResult(bytes, ddl, options, zone),
      ),
      { numRuns: 1500 },
    );
  });

  for (const mode of ["PERMISSIVE", "DROPMALFORMED", "FAILFAST"]) {
    it(`default syntax, ${mode}`, () => {
      const syn = { sep: ",", quote: '"', escape: "\\" };
      fc.assert(
        fc.property(file(syn), fc.constantFrom(...SCHEMAS), fc.boolean(), (bytes, ddl, header) =>
          sameResult(bytes, ddl, { mode, header: String(header) }),
        ),
        { numRuns: 500 },
      );
    });
  }

  it("numbers into numeric columns", () => {
    const numeric = fc.oneof(value, fc.double().map(String), fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }).map(String));
    fc.assert(
      fc.property(
        fc.array(numeric, { maxLength: 8 }),
        fc.constantFrom("x DOUBLE", "n BIGINT", "i INT", "x DOUBLE, _corrupt_record STRING"),
        fc.constantFrom<Record<string, string>>({}, { nanValue: "0" }, { positiveInf: "1.5" }, { negativeInf: "-2" }, { nullValue: "7" }),
        (vals, ddl, options) => sameResult(new TextEncoder().encode(vals.join("\n")), ddl, options),
      ),
      { numRuns: 1000 },
    );
  });

  it("examples", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const ddl = SCHEMAS[0]!;
    sameResult(enc('1,2,"a ""b"" \\"c\\"",1.5,2026-01-16T00:00:00.123Z,true,2026-01-16\r\n'), ddl, {});
    sameResult(enc("-0,-0,x,-0.0,2026-02-30T00:00:00Z,x,y\n+5,+5,,+.5,,,\n123456789012345678,1,é,0.1e1,,,"), ddl, {});
    sameResult(enc("0.1234567890123457\n1234567890.1234567\n9007199254740993\n-.5\n5.\n0\n"), "x DOUBLE", { nanValue: "0" });
    sameResult(enc('"multi\nline",2\n3,"4'), "s STRING, n BIGINT, _corrupt_record STRING", {});
    sameResult(enc("1,2\n1,2,3\n1"), "a INT, b INT", { mode: "FAILFAST" });
    sameResult(enc("\uFEFF\uFEFFh1,h2\n1,2\n"), "a STRING, b STRING", { header: "true" });
    sameResult(Uint8Array.from([0x61, 0xe2, 0x82, 0x2c, 0xf0, 0x9f, 0x92, 0x0a, 0xc3, 0x28, 0x2c, 0xff]), "a STRING, b STRING", {});
  });
});
