// Edges a sweep against PySpark 4.3 found (SELECT <expr> in both, same value and type or the same
// error class): remainder by zero, |MIN_VALUE| and -MIN_VALUE of every integral type,
// array_contains' three-valued answer, and Spark 4's error for week-based pattern letters.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { utcSession } from "./helpers.js";

const s = utcSession();
const value = async (expr: string) => (await s.sql(`SELECT ${expr} AS v`).collect())[0]!.v;

/** `expr`'s value with spark.sql.ansi.enabled=false. */
async function legacyValue(expr: string): Promise<unknown> {
  s.conf.set("spark.sql.ansi.enabled", "false");
  try {
    return await value(expr);
  } finally {
    s.conf.set("spark.sql.ansi.enabled", "true");
  }
}

describe("arithmetic edges (ANSI)", () => {
  it("%, mod and pmod by zero raise REMAINDER_BY_ZERO (doubles and decimals too); division stays DIVIDE_BY_ZERO", async () => {
    for (const e of ["7 % 0", "pmod(7, 0)", "mod(7, 0)", "7.5 % 0", "CAST(7 AS DOUBLE) % 0", "7L % 0", "pmod(7L, 0L)"]) {
      await assert.rejects(value(e), /^.*\[REMAINDER_BY_ZERO\] Remainder by zero\. Use `try_mod` to tolerate divisor being 0/, e);
    }
    await assert.rejects(value("1 / 0"), /DIVIDE_BY_ZERO/);
    await assert.rejects(value("7 div 0"), /DIVIDE_BY_ZERO/);
    assert.equal(await legacyValue("7 % 0"), null);
  });
  it("abs and unary minus of an integral MIN_VALUE overflow, as Spark's plain 'overflow.'", async () => {
    for (const e of [
      "abs(-2147483648)",
      "abs(CAST(-128 AS TINYINT))",
      "abs(CAST(-32768 AS SMALLINT))",
      "abs(-9223372036854775808L)",
      "-CAST(-2147483648 AS INT)",
      "-CAST(-128 AS TINYINT)",
      "-(-9223372036854775808L)",
    ]) {
      await assert.rejects(
        value(e),
        /\[ARITHMETIC_OVERFLOW\] overflow\. If necessary set "spark\.sql\.ansi\.enabled" to "false" to bypass this error\./,
        e,
      );
    }
    assert.equal(await value("abs(-2147483647)"), 2147483647);
    // without ANSI, Java's wrap-around
    assert.equal(await legacyValue("abs(-2147483648)"), -2147483648);
    assert.equal(await legacyValue("-(-2147483648)"), -2147483648);
    assert.equal(await legacyValue("abs(CAST(-128 AS TINYINT))"), -128);
  });
});

describe("array_contains", () => {
  it("is NULL when nothing matches and the array holds a NULL", async () => {
    assert.equal(await value("array_contains(array(1, null), 3)"), null);
    assert.equal(await value("array_contains(array(1, null), 1)"), true);
    assert.equal(await value("array_contains(array(1, 2), 3)"), false);
    assert.equal(await value("array_contains(array(), 1)"), false);
    await assert.rejects(value("array_contains(array(1, 2), null)"), /DATATYPE_MISMATCH\.NULL_TYPE/);
  });
});

describe("datetime patterns", () => {
  it("Y, W, w and u are not recognized (Spark 4); e and c are week-based", async () => {
    await assert.rejects(
      value("date_format(DATE'2024-03-05', 'yyyy-ww')"),
      /DATETIME_PATTERN_RECOGNITION.*\n?.*Fail to recognize 'yyyy-ww' pattern/,
    );
    await assert.rejects(value("date_format(DATE'2024-03-05', 'u')"), /DATETIME_PATTERN_RECOGNITION/);
    await assert.rejects(value("date_format(DATE'2024-03-05', 'e')"), /DATETIME_WEEK_BASED_PATTERN[\s\S]*detected week-based character: e/);
  });
});
