/**
 * Casts Spark refuses at analysis are refused here too, with its error class, under ANSI and
 * without it (analyzer/cast-rules.ts): every pair of fifteen types in both settings, recorded
 * from PySpark 4.3 in test/fixtures/spark-cast-legality.json. They once gave NULL.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, "../fixtures/spark-cast-legality.json"), "utf8")) as {
  values: Record<string, string>;
  casts: Record<string, string>;
};
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

/** "ok", or the DATATYPE_MISMATCH sub-class arus refuses the cast with. */
function outcome(sql: string): string {
  try {
    session.sql(sql).dtypes;
    return "ok";
  } catch (e) {
    const m = /\[DATATYPE_MISMATCH\.(\w+)\]/.exec((e as Error).message);
    return m ? m[1]! : (e as Error).message;
  }
}

describe("cast legality as Spark's", () => {
  it("accepts and refuses the same casts as PySpark 4.3, with its error class, in both ANSI settings", () => {
    const wrong: string[] = [];
    try {
      for (const [key, want] of Object.entries(fixture.casts)) {
        const [ansi, from, to] = key.split("|") as [string, string, string];
        session.conf.set("spark.sql.ansi.enabled", ansi);
        const got = outcome(`SELECT CAST(${fixture.values[from]} AS ${to})`);
        if (got !== want) wrong.push(`${key}: Spark ${want}, arus ${got}`);
      }
    } finally {
      session.conf.unset("spark.sql.ansi.enabled");
    }
    assert.deepEqual(wrong, []);
    assert.equal(Object.keys(fixture.casts).length, 420);
  });

  it("words the errors as Spark does; TRY_CAST follows the ANSI rules; nested types by their elements", () => {
    assert.throws(
      () => session.sql("SELECT CAST(DATE'2020-01-01' AS INT)"),
      /\[DATATYPE_MISMATCH\.CAST_WITH_FUNC_SUGGESTION\] Cannot resolve "CAST\(DATE '2020-01-01' AS INT\)" due to data type mismatch: cannot cast "DATE" to "INT"\./,
    );
    assert.throws(
      () => session.sql("SELECT CAST(true AS TIMESTAMP)"),
      /\[DATATYPE_MISMATCH\.CAST_WITH_CONF_SUGGESTION\] Cannot resolve "CAST\(true AS TIMESTAMP\)" due to data type mismatch: cannot cast "BOOLEAN" to "TIMESTAMP" with ANSI mode on\./,
    );
    assert.throws(
      () => session.sql("SELECT CAST(true AS ARRAY<INT>)"),
      /\[DATATYPE_MISMATCH\.CAST_WITHOUT_SUGGESTION\] Cannot resolve "true" due to data type mismatch: cannot cast "BOOLEAN" to "ARRAY<INT>"\./,
    );
    session.conf.set("spark.sql.ansi.enabled", "false");
    try {
      assert.equal(outcome("SELECT CAST(true AS TIMESTAMP)"), "ok");
      assert.equal(outcome("SELECT try_cast(true AS TIMESTAMP)"), "CAST_WITH_CONF_SUGGESTION");
    } finally {
      session.conf.unset("spark.sql.ansi.enabled");
    }
    assert.equal(outcome("SELECT CAST(array(1) AS ARRAY<STRING>)"), "ok");
    assert.equal(outcome("SELECT CAST(array(DATE'2020-01-01') AS ARRAY<INT>)"), "CAST_WITH_FUNC_SUGGESTION");
    assert.equal(outcome("SELECT CAST(map(1, true) AS MAP<STRING, DATE>)"), "CAST_WITHOUT_SUGGESTION");
    assert.equal(outcome("SELECT CAST(named_struct('a', 1, 'b', 2) AS STRUCT<a: INT>)"), "CAST_WITHOUT_SUGGESTION");
  });
});
