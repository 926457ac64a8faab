/**
 * Grouping and ordering cases found wrong by comparing with PySpark 4.3 (its values below): an
 * ARRAY key holding NaN, ±Infinity or NULL is its own group (they were one: NaN, infinities and
 * NULL all read as JSON's null, columnar/value-key.ts), and ORDER BY count(*) over a GROUP BY
 * sorts by the aggregate (it was planned as a scalar call and failed to run); -0.0 reads 0.0 in
 * DISTINCT, dropDuplicates keys, collect_set and the array set functions, as Spark normalizes it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const rows = (sql: string) => session.sql(sql).toArray();
const SPECIALS =
  "VALUES (0.0D, 1), (-0.0D, 2), (double('NaN'), 3), (-double('NaN'), 4), (CAST(NULL AS DOUBLE), 5), (1.0D, 6), (double('Infinity'), 7), (-double('Infinity'), 8) AS t(k, v)";

describe("grouping and ordering as Spark", () => {
  it("an ARRAY key: -0.0 is 0.0 and NaN is NaN, but NaN, the infinities and NULL stay apart", async () => {
    assert.deepEqual(
      await rows(
        `SELECT CAST(s AS STRING) AS s, sort_array(collect_list(v)) AS vs FROM (SELECT array(k) AS s, v FROM ${SPECIALS}) GROUP BY s ORDER BY vs[0]`,
      ),
      [
        ["[0.0]", [1, 2]],
        ["[NaN]", [3, 4]],
        ["[null]", [5]],
        ["[1.0]", [6]],
        ["[Infinity]", [7]],
        ["[-Infinity]", [8]],
      ],
    );
    assert.deepEqual(await rows(`SELECT size(collect_set(array(k))), count(DISTINCT array(k)) FROM ${SPECIALS}`), [[6, 6]]);
    assert.deepEqual(await rows(`SELECT count(*) FROM (SELECT DISTINCT array(k) FROM ${SPECIALS})`), [[6]]);
  });

  it("-0.0 is 0.0 where Spark normalizes it: DISTINCT, a batch dropDuplicates key, collect_set, array_distinct and the array set functions", async () => {
    const sign = (v: unknown): unknown => (Object.is(v, -0) ? "-0.0" : Array.isArray(v) ? v.map(sign) : v);
    const signed = async (sql: string) => (await rows(sql)).map((r) => r.map(sign));
    assert.deepEqual(await signed("SELECT DISTINCT x FROM VALUES (-0.0D), (1.0D) AS t(x)"), [[0], [1]]);
    assert.deepEqual(await signed("SELECT collect_set(x), collect_list(x), first(x) FROM VALUES (-0.0D), (1.0D) AS t(x)"), [
      [[0, 1], ["-0.0", 1], "-0.0"],
    ]);
    assert.deepEqual(
      await signed(
        "SELECT array_distinct(array(-0.0D, 0.0D)), array_union(array(-0.0D), array(1.0D)), array_intersect(array(-0.0D, 1.0D), array(0.0D)), array_distinct(array(-0.0F, 0.0F))",
      ),
      [[[0], [0, 1], [0], [0]]],
    );
    // dropDuplicates(keys): the key normalized, the other columns the first row's as they are (PySpark: Row(k=0.0, v=-0.0))
    const df = session.createDataFrame(
      [
        { k: -0, v: -0 },
        { k: 0, v: 1 },
      ],
      "k DOUBLE, v DOUBLE",
    );
    assert.deepEqual(
      (await df.dropDuplicates(["k"]).toArray()).map((r) => r.map(sign)),
      [[0, "-0.0"]],
    );
  });

  it("ORDER BY count(*) or its position sorts by the aggregate", async () => {
    const t = "VALUES (1, 2), (1, 3), (2, 5) AS t(k, v)";
    const byCount = session.sql(`SELECT k FROM ${t} GROUP BY k ORDER BY count(*) DESC`);
    assert.deepEqual(byCount.columns, ["k"]);
    assert.deepEqual(await byCount.toArray(), [[1], [2]]);
    const byPosition = session.sql(`SELECT count(*) FROM ${t} GROUP BY k ORDER BY 1`);
    assert.deepEqual(byPosition.columns, ["count(1)"]);
    assert.deepEqual(await byPosition.toArray(), [[1], [2]]);
    const both = session.sql(`SELECT k, count(1) FROM ${t} GROUP BY k ORDER BY 2 DESC, 1`);
    assert.deepEqual(both.columns, ["k", "count(1)"]);
    assert.deepEqual(await both.toArray(), [
      [1, 2],
      [2, 1],
    ]);
  });
});
