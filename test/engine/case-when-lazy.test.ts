/**
 * CASE WHEN computes a branch's value only over the rows that take that branch (Spark evaluates
 * CaseWhen row by row): a value the CASE does not pick must not fail the query, while one it
 * picks still does.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const df = session.createDataFrame(
  [
    { k: 1, d: 3.99 },
    { k: 2, d: 1e20 },
    { k: 3, d: -2.5 },
    { k: 4, d: null },
  ],
  "k INT, d DOUBLE",
);

describe("CASE WHEN is lazy per row", () => {
  it("a cast that would overflow under ANSI is not computed for rows the CASE does not pick", async () => {
    const rows = await df
      .select("k", F.when(F.abs("d").lt(1e9), F.col("d").cast("int")).otherwise(F.lit(-1)).alias("v"))
      .orderBy("k")
      .collect();
    assert.deepEqual(
      rows.map((r) => [r.k, r.v]),
      [
        [1, 3],
        [2, -1],
        [3, -2],
        [4, -1],
      ],
    );
  });

  it("SQL CASE with several branches, each computed over its own rows", async () => {
    df.createOrReplaceTempView("case_lazy");
    const rows = await session
      .sql(
        "SELECT k, CASE WHEN d IS NULL THEN 'none' WHEN abs(d) < 1e9 THEN CAST(CAST(d AS INT) AS STRING) ELSE concat('big ', CAST(k AS STRING)) END AS v FROM case_lazy ORDER BY k",
      )
      .collect();
    assert.deepEqual(
      rows.map((r) => r.v),
      ["3", "big 2", "-2", "none"],
    );
  });

  it("a picked value that overflows still fails under ANSI", async () => {
    await assert.rejects(df.select(F.when(F.col("k").equalTo(2), F.col("d").cast("int")).alias("v")).collect(), /CAST_OVERFLOW/);
  });
});
