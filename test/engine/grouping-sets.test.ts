/**
 * GROUPING SETS, ROLLUP and CUBE in SQL and the DataFrame API: one output row per (set, group),
 * NULL in the rolled-up columns, grouping() / grouping_id() with Spark's bit order, aggregates
 * reading the input's own values of a grouping column, HAVING / ORDER BY on grouping(), and
 * Spark's errors. Expected rows are what PySpark 4.3 returned for the same data and query.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
const t = s.createDataFrame(
  [
    { k: "a", v: 1, x: 10.0 },
    { k: "a", v: 2, x: null },
    { k: "b", v: 3, x: 5.0 },
    { k: "a", v: 2, x: 7.0 },
  ],
  "k STRING, v INT, x DOUBLE",
);
t.createOrReplaceTempView("gt");

const sortRows = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();

describe("ROLLUP, CUBE and GROUPING SETS", () => {
  it("ROLLUP gives the groups, the subtotals and the grand total, grouping_id with bit n-1-i per rolled-up column", async () => {
    const rows = await s.sql("SELECT k, v, sum(x) s, grouping(k) gk, grouping_id() g FROM gt GROUP BY ROLLUP(k, v)").collect();
    assert.deepEqual(
      sortRows(rows),
      sortRows([
        { k: "a", v: 1, s: 10, gk: 0, g: 0 },
        { k: "a", v: 2, s: 7, gk: 0, g: 0 },
        { k: "b", v: 3, s: 5, gk: 0, g: 0 },
        { k: "a", v: null, s: 17, gk: 0, g: 1 },
        { k: "b", v: null, s: 5, gk: 0, g: 1 },
        { k: null, v: null, s: 22, gk: 1, g: 3 },
      ]),
    );
  });
  it("CUBE has every combination; names and types as Spark's", async () => {
    const df = s.sql("SELECT k, v, count(*), grouping(v), grouping_id(k, v) FROM gt GROUP BY CUBE(k, v)");
    assert.deepEqual(df.columns, ["k", "v", "count(1)", "grouping(v)", "grouping_id(k, v)"]);
    const rows = await df.collect();
    assert.equal(rows.length, 3 + 2 + 3 + 1);
    const total = rows.find((r) => r["grouping_id(k, v)"] === 3)!;
    assert.deepEqual(total, { k: null, v: null, "count(1)": 4, "grouping(v)": 1, "grouping_id(k, v)": 3 });
    const byV = rows.filter((r) => r["grouping_id(k, v)"] === 2).map((r) => [r.v, r["count(1)"]]);
    assert.deepEqual(byV.sort(), [
      [1, 1],
      [2, 2],
      [3, 1],
    ]);
  });
  it("GROUPING SETS, mixed GROUP BY elements and WITH ROLLUP", async () => {
    assert.deepEqual(
      sortRows(await s.sql("SELECT k, v, count(*) c FROM gt GROUP BY GROUPING SETS ((k), (k, v), ())").collect()),
      sortRows([
        { k: "a", v: 1, c: 1 },
        { k: "a", v: 2, c: 2 },
        { k: "b", v: 3, c: 1 },
        { k: "a", v: null, c: 3 },
        { k: "b", v: null, c: 1 },
        { k: null, v: null, c: 4 },
      ]),
    );
    assert.deepEqual(
      sortRows(await s.sql("SELECT k, v, count(*) c FROM gt GROUP BY k, ROLLUP(v)").collect()),
      sortRows([
        { k: "a", v: 1, c: 1 },
        { k: "a", v: 2, c: 2 },
        { k: "b", v: 3, c: 1 },
        { k: "a", v: null, c: 3 },
        { k: "b", v: null, c: 1 },
      ]),
    );
    assert.deepEqual(
      sortRows(await s.sql("SELECT k, count(*) c FROM gt GROUP BY k WITH ROLLUP").collect()),
      sortRows([
        { k: "a", c: 3 },
        { k: "b", c: 1 },
        { k: null, c: 4 },
      ]),
    );
  });
  it("aggregates read the input's own value of a grouping column, not the rolled-up NULL", async () => {
    const rows = await s.sql("SELECT v, sum(v) s, count(v) n FROM gt GROUP BY ROLLUP(v)").collect();
    assert.deepEqual(
      rows.find((r) => r.v === null),
      { v: null, s: 8, n: 4 },
    );
  });
  it("HAVING and ORDER BY on grouping()", async () => {
    assert.deepEqual(await s.sql("SELECT k, count(*) c FROM gt GROUP BY ROLLUP(k) HAVING grouping(k) = 1").collect(), [{ k: null, c: 4 }]);
    assert.deepEqual(await s.sql("SELECT k, count(*) c FROM gt GROUP BY ROLLUP(k) ORDER BY grouping(k), k").collect(), [
      { k: "a", c: 3 },
      { k: "b", c: 1 },
      { k: null, c: 4 },
    ]);
  });
  it("the DataFrame API: rollup, cube and groupingSets with F.grouping / F.grouping_id", async () => {
    const r = t.rollup("k").agg(F.grouping("k"), F.sum("v"));
    assert.deepEqual(r.columns, ["k", "grouping(k)", "sum(v)"]);
    assert.deepEqual(
      sortRows(await r.collect()),
      sortRows([
        { k: "a", "grouping(k)": 0, "sum(v)": 5 },
        { k: "b", "grouping(k)": 0, "sum(v)": 3 },
        { k: null, "grouping(k)": 1, "sum(v)": 8 },
      ]),
    );
    const c = t.cube("k", "v").agg(F.grouping_id(), F.count("*"));
    assert.deepEqual(c.columns, ["k", "v", "grouping_id()", "count(1)"]);
    assert.equal(await c.count(), 9);
    assert.deepEqual(
      sortRows(
        await t
          .groupingSets([["k"], []], "k")
          .agg(F.sum("v"))
          .collect(),
      ),
      sortRows([
        { k: "a", "sum(v)": 5 },
        { k: "b", "sum(v)": 3 },
        { k: null, "sum(v)": 8 },
      ]),
    );
  });
  it("Spark's errors for grouping() outside grouping sets and for columns that are not grouped", () => {
    assert.throws(
      () => s.sql("SELECT k, grouping(k) FROM gt GROUP BY k"),
      /\[UNSUPPORTED_GROUPING_EXPRESSION\] grouping\(\)\/grouping_id\(\) can only be used with GroupingSets\/Cube\/Rollup/,
    );
    assert.throws(
      () => s.sql("SELECT k, grouping(v) FROM gt GROUP BY ROLLUP(k)"),
      /\[GROUPING_COLUMN_MISMATCH\] Column of grouping \(v\) can't be found in grouping columns k/,
    );
    assert.throws(
      () => s.sql("SELECT k, grouping_id(v, k) FROM gt GROUP BY CUBE(k, v)"),
      /\[GROUPING_ID_COLUMN_MISMATCH\] Columns of grouping_id \(v,k\) does not match grouping columns \(k,v\)/,
    );
    assert.throws(() => s.sql("SELECT k, x FROM gt GROUP BY ROLLUP(k)"), /MISSING_AGGREGATION/);
  });
});

describe("groupingSets beyond its columns", () => {
  it("shows only the columns given after the sets, as PySpark", async () => {
    const df = t.groupingSets([["k", "v"], ["k"]], "k").agg(F.count("*"));
    assert.deepEqual(df.columns, ["k", "count(1)"]);
    assert.deepEqual(
      sortRows(await df.collect()),
      sortRows([
        { k: "a", "count(1)": 1 },
        { k: "a", "count(1)": 2 },
        { k: "b", "count(1)": 1 },
        { k: "a", "count(1)": 3 },
        { k: "b", "count(1)": 1 },
      ]),
    );
  });
});

describe("grouping sets with expressions and windows", () => {
  it("rolls up an expression, named as Spark names it", async () => {
    const df = s.sql("SELECT v + 1, count(*) FROM gt GROUP BY ROLLUP(v + 1)");
    assert.deepEqual(df.columns, ["(v + 1)", "count(1)"]);
    assert.deepEqual(
      sortRows(await df.collect()),
      sortRows([
        { "(v + 1)": 2, "count(1)": 1 },
        { "(v + 1)": 3, "count(1)": 2 },
        { "(v + 1)": 4, "count(1)": 1 },
        { "(v + 1)": null, "count(1)": 4 },
      ]),
    );
  });
  it("a window over a rollup ranks the subtotals with the groups", async () => {
    const rows = await s.sql("SELECT k, sum(v) s, rank() OVER (ORDER BY sum(v)) r FROM gt GROUP BY ROLLUP(k)").collect();
    assert.deepEqual(
      sortRows(rows),
      sortRows([
        { k: "b", s: 3, r: 1 },
        { k: "a", s: 5, r: 2 },
        { k: null, s: 8, r: 3 },
      ]),
    );
  });
});
