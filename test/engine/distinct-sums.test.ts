/**
 * sum(DISTINCT x) and avg(DISTINCT x) (PySpark's sum_distinct / sumDistinct): the group's
 * distinct non-NULL values summed as sum(x) sums them, with its result types. Expected values
 * from PySpark 4.3.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

describe("sum and avg of DISTINCT values", () => {
  it("sums each group's distinct values with sum's result types", async () => {
    const df = session.sql(
      "SELECT k, sum(DISTINCT v), avg(DISTINCT v), count(DISTINCT v), sum(DISTINCT d), avg(DISTINCT d), " +
        "sum(DISTINCT CAST(v AS DECIMAL(10,2))) AS sdec, avg(DISTINCT CAST(v AS DECIMAL(10,2))) AS adec " +
        "FROM VALUES (1, 2, 1.5D), (1, 2, 1.5D), (1, 3, 2.5D), (1, NULL, NULL), (2, NULL, NULL) AS t(k, v, d) GROUP BY k ORDER BY k",
    );
    assert.deepEqual(df.columns.slice(1, 6), [
      "sum(DISTINCT v)",
      "avg(DISTINCT v)",
      "count(DISTINCT v)",
      "sum(DISTINCT d)",
      "avg(DISTINCT d)",
    ]);
    assert.deepEqual(
      df.dtypes.map(([, t]) => t),
      ["int", "bigint", "double", "bigint", "double", "double", "decimal(20,2)", "decimal(14,6)"],
    );
    const rows = await df.collect();
    const text = rows.map((r) => df.columns.map((c) => String(r[c])));
    assert.deepEqual(text, [
      ["1", "5", "2.5", "2", "4", "2", "5.00", "2.500000"],
      ["2", "null", "null", "0", "null", "null", "null", "null"],
    ]);
  });

  it("has F.sum_distinct / F.sumDistinct", async () => {
    const df = session.createDataFrame(
      [
        [1, 2],
        [1, 2],
        [1, 5],
      ],
      "k int, v int",
    );
    const out = df.groupBy("k").agg(F.sum_distinct("v").alias("a"), F.sumDistinct("v").alias("b"));
    const [row] = await out.collect();
    assert.deepEqual([row!.a, row!.b], [7, 7]);
  });

  it("fails on BIGINT overflow in ANSI mode, as sum does", async () => {
    await assert.rejects(
      session.sql("SELECT sum(DISTINCT v) AS s FROM VALUES (9223372036854775807L), (1L) AS t(v)").collect(),
      /ARITHMETIC_OVERFLOW/,
    );
  });
});
