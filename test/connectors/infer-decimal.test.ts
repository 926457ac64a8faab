/**
 * DECIMAL in JSON and CSV schema inference, held to PySpark 4.3's answers: an integer beyond
 * BIGINT is DECIMAL(its digits, 0) (arus inferred DOUBLE and rounded it: 18446744073709551615
 * read as 1.8446744073709552E19), merged with BIGINT / INT as the DECIMAL holding both, with a
 * DOUBLE as DOUBLE; past 38 digits a DOUBLE. JSON's `prefersDecimal` makes fractions, and strings
 * holding decimal numbers, DECIMALs (a negative scale, `1e3`, is Spark's error). Values compared
 * as text (`CAST(c AS STRING)`), so no digit can hide in a JavaScript number.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type DataFrame, Session } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";
import { tempDirsSync } from "../temp-dirs.js";

const tempDir = tempDirsSync("arus-infer-decimal-");
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

/** [file text, PySpark 4.3.0's inferred schema and rows without prefersDecimal, and with it (or its error)]. */
const JSON_CASES: [string, [string, (string | null)[][]], [string, (string | null)[][]] | string][] = [
  [
    '{"a": 18446744073709551615}\n{"a": 1}\n',
    ["struct<a:decimal(20,0)>", [["18446744073709551615"], ["1"]]],
    ["struct<a:decimal(20,0)>", [["18446744073709551615"], ["1"]]],
  ],
  [
    '{"a": -9223372036854775809, "b": 9223372036854775807}\n',
    ["struct<a:decimal(19,0),b:bigint>", [["-9223372036854775809", "9223372036854775807"]]],
    ["struct<a:decimal(19,0),b:bigint>", [["-9223372036854775809", "9223372036854775807"]]],
  ],
  [
    '{"a": 123456789012345678901234567890123456789012}\n',
    ["struct<a:double>", [["1.2345678901234568E41"]]],
    ["struct<a:double>", [["1.2345678901234568E41"]]],
  ],
  [
    '{"a": 1.5}\n{"a": 18446744073709551615}\n',
    ["struct<a:double>", [["1.5"], ["1.8446744073709552E19"]]],
    ["struct<a:decimal(21,1)>", [["1.5"], ["18446744073709551615.0"]]],
  ],
  [
    '{"a": 12345678901234567890.5}\n{"a": 18446744073709551615}\n',
    ["struct<a:double>", [["1.2345678901234567E19"], ["1.8446744073709552E19"]]],
    ["struct<a:decimal(21,1)>", [["12345678901234567890.5"], ["18446744073709551615.0"]]],
  ],
  [
    '{"a": [18446744073709551615, 2], "b": {"c": 99999999999999999999999999999999999999}}\n',
    [
      "struct<a:array<decimal(20,0)>,b:struct<c:decimal(38,0)>>",
      [["[18446744073709551615, 2]", "{99999999999999999999999999999999999999}"]],
    ],
    [
      "struct<a:array<decimal(20,0)>,b:struct<c:decimal(38,0)>>",
      [["[18446744073709551615, 2]", "{99999999999999999999999999999999999999}"]],
    ],
  ],
  [
    '{"a": "1.5", "b": "abc", "c": "0.001", "d": "1e3", "e": "-7"}\n{"a": "2.25"}\n',
    [
      "struct<a:string,b:string,c:string,d:string,e:string>",
      [
        ["1.5", "abc", "0.001", "1e3", "-7"],
        ["2.25", null, null, null, null],
      ],
    ],
    [
      "struct<a:decimal(3,2),b:string,c:string,d:string,e:decimal(1,0)>",
      [
        ["1.50", "abc", "0.001", "1e3", "-7"],
        ["2.25", null, null, null, null],
      ],
    ],
  ],
  [
    '{"a": 1.25, "b": 10, "c": 1e3, "d": 1.0E-3}\n{"a": 3.125}\n',
    [
      "struct<a:double,b:bigint,c:double,d:double>",
      [
        ["1.25", "10", "1000.0", "0.001"],
        ["3.125", null, null, null],
      ],
    ],
    "NEGATIVE_SCALE_DISALLOWED",
  ],
];

/** [CSV text (header line first), PySpark 4.3.0's inferred schema and rows (inferSchema)]. */
const CSV_CASES: [string, string, (string | null)[][]][] = [
  [
    "a,b\n18446744073709551615,1\n1,2.5\n",
    "struct<a:decimal(20,0),b:double>",
    [
      ["18446744073709551615", "1.0"],
      ["1", "2.5"],
    ],
  ],
  [
    "a,b,c\n1.5e1,5,007\n-18446744073709551616,99999999999999999999,1\n",
    "struct<a:decimal(20,0),b:decimal(20,0),c:int>",
    [
      ["15", "5", "7"],
      ["-18446744073709551616", "99999999999999999999", "1"],
    ],
  ],
  ["a\n1\n18446744073709551615\n2.5\n", "struct<a:double>", [["1.0"], ["1.8446744073709552E19"], ["2.5"]]],
  ["a\n12345678901234567890123456789012345678901\n", "struct<a:double>", [["1.2345678901234568E40"]]],
  [
    "a,b\n1.25,10\n3.125,1e3\n",
    "struct<a:double,b:double>",
    [
      ["1.25", "10.0"],
      ["3.125", "1000.0"],
    ],
  ],
];

async function inferred(df: DataFrame): Promise<[string, (string | null)[][]]> {
  const rows = await df.selectExpr(...df.columns.map((c) => `CAST(\`${c}\` AS STRING)`)).collect();
  return [simpleString(df.schema), rows.map((r) => Object.values(r) as (string | null)[])];
}

describe("DECIMAL in schema inference (PySpark 4.3's answers)", () => {
  it("JSON: integers beyond BIGINT, and prefersDecimal", async () => {
    for (const [text, plain, preferring] of JSON_CASES) {
      const file = join(tempDir(), "d.json");
      writeFileSync(file, text);
      assert.deepEqual(await inferred(session.read.json(file)), plain, text);
      if (typeof preferring === "string")
        assert.throws(() => session.read.option("prefersDecimal", "true").json(file), new RegExp(preferring), text);
      else assert.deepEqual(await inferred(session.read.option("prefersDecimal", "true").json(file)), preferring, text);
    }
  });

  it("CSV: integers beyond BIGINT (prefersDecimal changes nothing, as in Spark 4.3)", async () => {
    for (const [text, schema, rows] of CSV_CASES) {
      const file = join(tempDir(), "d.csv");
      writeFileSync(file, text);
      for (const prefers of ["false", "true"]) {
        const df = session.read.option("header", "true").option("inferSchema", "true").option("prefersDecimal", prefers).csv(file);
        assert.deepEqual(await inferred(df), [schema, rows], text);
      }
    }
  });
});
