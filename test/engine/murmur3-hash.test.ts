// hash(...) is Spark's Murmur3Hash (seed 42) bit for bit: every expected value below is PySpark 4.3's
// answer to the same SELECT (ints, longs, strings of every tail length, UTF-8, NULLs, booleans,
// -0.0 / NaN, floats, dates, timestamps, decimals both sides of 18 digits, arrays, structs, binary).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();

describe("hash", () => {
  it("matches Spark's Murmur3Hash", async () => {
    const cases: [string, number][] = [
      ["hash(1)", -559580957],
      ["hash(0)", 933211791],
      ["hash(-1)", -1604776387],
      ["hash(2147483647)", 133916647],
      ["hash(1L)", -1712319331],
      ["hash(-9223372036854775808L)", -853646085],
      ["hash('a')", 1485273170],
      ["hash('')", 142593372],
      ["hash('abc')", 1322437556],
      ["hash('abcd')", -396302900],
      ["hash('abcde')", 814637928],
      ["hash('h\u00e9llo w\u00f6rld \ud83d\ude00')", -282305500],
      ["hash(null)", 42],
      ["hash(1, 'a')", -936062819],
      ["hash('a', null, 2)", 201997482],
      ["hash(true)", -559580957],
      ["hash(false)", 933211791],
      ["hash(1.5D)", 1290763749],
      ["hash(-0.0D)", -1670924195],
      ["hash(0.0D)", -1670924195],
      ["hash(CAST('NaN' AS DOUBLE))", -1281358385],
      ["hash(CAST(1.5 AS FLOAT))", -221251528],
      ["hash(CAST(-0.0 AS FLOAT))", 933211791],
      ["hash(DATE'2024-01-31')", 1648657082],
      ["hash(TIMESTAMP'2024-01-31 10:00:00')", -1556731223],
      ["hash(CAST(1.25 AS DECIMAL(5,2)))", 1910520950],
      ["hash(CAST(-123456789012.5 AS DECIMAL(38,1)))", 339127229],
      ["hash(CAST(12345678901234567890.5 AS DECIMAL(38,1)))", 832414797],
      ["hash(array(1, 2, null))", -222940379],
      ["hash(named_struct('a', 1, 'b', 'x'))", -1305545736],
      ["hash(X'0102FF')", 456895484],
      ["hash(CAST(5 AS TINYINT))", 1023896466],
      ["hash(CAST(-3 AS SMALLINT))", -1573329414],
    ];
    for (const [expr, want] of cases) assert.equal((await s.sql(`SELECT ${expr} AS v`).collect())[0]!.v, want, expr);
  });
  it("refuses maps and is F.hash too", async () => {
    assert.throws(() => s.sql("SELECT hash(map('k', 1))"), /DATATYPE_MISMATCH\.HASH_MAP_TYPE/);
    const df = s.createDataFrame([{ a: 1, b: "a" }], "a INT, b STRING");
    assert.equal((await df.select(F.hash("a", "b").alias("h")).collect())[0]!.h, -936062819);
  });
});
