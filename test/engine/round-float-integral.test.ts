/**
 * round / bround on FLOAT and on integers to a negative scale, as Spark's RoundBase (values from
 * PySpark 4.3): a FLOAT is rounded as the decimal of its double value and narrowed to a float
 * again (it was returned unrounded); a TINYINT / SMALLINT / INT that leaves its type is
 * ARITHMETIC_OVERFLOW under ANSI and wraps as Java's narrowing without it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const value = async (expr: string) => (await session.sql(`SELECT ${expr}`).toArray())[0]![0];

describe("round and bround as Spark's RoundBase", () => {
  it("round a FLOAT (half up, or half even for bround) and keep it a FLOAT", async () => {
    assert.equal(await value("round(CAST(2.5 AS FLOAT))"), 3);
    assert.equal(await value("round(CAST(-2.5 AS FLOAT))"), -3);
    assert.equal(await value("bround(CAST(2.5 AS FLOAT))"), 2);
    assert.equal(await value("bround(CAST(2.5 AS FLOAT), 0)"), 2);
    assert.equal(await value("round(CAST(2.45 AS FLOAT), 1)"), 2.5);
    assert.equal(await value("round(CAST(0.125 AS FLOAT), 2)"), 0.12999999523162842);
    assert.equal(await value("round(CAST(1.5 AS FLOAT), -1)"), 0);
    assert.equal(await value("round(CAST(3.4028235E38 AS FLOAT), -38)"), 3.0000000054977558e38);
    assert.equal(await value("typeof(round(CAST(2.5 AS FLOAT)))"), "float");
  });

  it("a TINYINT, SMALLINT or INT leaving its type: ARITHMETIC_OVERFLOW under ANSI, wrapped without", async () => {
    assert.equal(await value("round(CAST(124 AS TINYINT), -1)"), 120);
    assert.equal(await value("bround(CAST(125 AS TINYINT), -1)"), 120);
    for (const e of [
      "round(CAST(125 AS TINYINT), -1)",
      "round(CAST(-125 AS TINYINT), -1)",
      "round(CAST(32767 AS SMALLINT), -1)",
      "round(2147483647, -1)",
    ]) {
      await assert.rejects(value(e), /^.*\[ARITHMETIC_OVERFLOW\] Overflow\. If necessary set "spark\.sql\.ansi\.enabled" to "false"/, e);
    }
    session.conf.set("spark.sql.ansi.enabled", "false");
    try {
      assert.equal(await value("round(CAST(125 AS TINYINT), -1)"), -126);
      assert.equal(await value("round(CAST(-125 AS TINYINT), -1)"), 126);
      assert.equal(await value("round(2147483647, -1)"), -2147483646);
    } finally {
      session.conf.unset("spark.sql.ansi.enabled");
    }
  });
});
