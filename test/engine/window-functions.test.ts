/**
 * Window functions in batch queries: each function, default and explicit frames (ROWS and
 * RANGE, with NULL order keys and ties), column names, the SQL OVER clause and WINDOW clause,
 * windows over aggregates, Spark's analysis errors, and the refusal on streams. Expected
 * values are what PySpark 4.3 returned for the same data and query.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Window } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
// Order key v has ties (2, 2) and NULLs; x has a NULL.
const t = s.createDataFrame(
  [
    { k: "a", v: 1, x: 10.0 },
    { k: "a", v: 2, x: null },
    { k: "b", v: 3, x: 5.0 },
    { k: "a", v: 2, x: 7.0 },
    { k: "a", v: null, x: 1.0 },
    { k: "a", v: null, x: 2.0 },
    { k: "a", v: 5, x: 3.0 },
  ],
  "k STRING, v INT, x DOUBLE",
);
t.createOrReplaceTempView("wt");
// Unique order key per partition, so ROWS frames and row numbers are deterministic.
const u = s.createDataFrame(
  [
    { k: "a", i: 1, x: 1.0 },
    { k: "a", i: 2, x: null },
    { k: "a", i: 3, x: 3.0 },
    { k: "a", i: 4, x: null },
    { k: "a", i: 5, x: 5.0 },
    { k: "b", i: 1, x: 10.0 },
    { k: "b", i: 2, x: 20.0 },
  ],
  "k STRING, i INT, x DOUBLE",
);
u.createOrReplaceTempView("wu");

/** Rows sorted by the given columns (nulls first), to compare with a fixed expectation. */
async function rowsBy(df: { collect(): Promise<Record<string, unknown>[]> }, ...cols: string[]) {
  const rows = await df.collect();
  const key = (r: Record<string, unknown>) => cols.map((c) => (r[c] === null ? "\u0000" : String(r[c]).padStart(12, "0")));
  return rows.sort((a, b) => (key(a).join("|") < key(b).join("|") ? -1 : 1));
}

describe("ranking functions", () => {
  it("rank, dense_rank, percent_rank, cume_dist and ntile handle ties and NULL keys as Spark", async () => {
    const w = Window.orderBy("v");
    const rows = await t
      .select(
        "v",
        F.rank().over(w).alias("r"),
        F.dense_rank().over(w).alias("d"),
        F.percent_rank().over(w).alias("p"),
        F.cume_dist().over(w).alias("c"),
        F.ntile(3).over(w).alias("n"),
      )
      .collect();
    const byV = new Map(rows.map((r) => [r.v, r]));
    assert.deepEqual(
      [null, 1, 2, 3, 5].map((v) => {
        const r = byV.get(v)!;
        return [r.r, r.d, r.p, r.c];
      }),
      [
        [1, 1, 0, 2 / 7],
        [3, 2, 1 / 3, 3 / 7],
        [4, 3, 0.5, 5 / 7],
        [6, 4, 5 / 6, 6 / 7],
        [7, 5, 1, 1],
      ],
    );
    // ntile(3) over 7 rows: buckets of 3, 2, 2.
    assert.deepEqual(rows.map((r) => r.n).sort(), [1, 1, 1, 2, 2, 3, 3]);
  });
  it("row_number restarts per partition; the column name carries Spark's fixed frame", async () => {
    const df = u.select("k", "i", F.row_number().over(Window.partitionBy("k").orderBy(F.col("i").desc())));
    assert.deepEqual(df.columns, [
      "k",
      "i",
      "row_number() OVER (PARTITION BY k ORDER BY i DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
    ]);
    const rows = await rowsBy(df, "k", "i");
    assert.deepEqual(
      rows.map((r) => Object.values(r)[2]),
      [5, 4, 3, 2, 1, 2, 1],
    );
  });
  it("ntile gives the first buckets the extra rows and one row per bucket when there are more buckets than rows", async () => {
    const w = Window.partitionBy("k").orderBy("i");
    const rows = await rowsBy(u.select("k", "i", F.ntile(2).over(w).alias("n2"), F.ntile(4).over(w).alias("n4")), "k", "i");
    assert.deepEqual(
      rows.map((r) => [r.n2, r.n4]),
      [
        [1, 1],
        [1, 1],
        [1, 2],
        [2, 3],
        [2, 4],
        [1, 1],
        [2, 2],
      ],
    );
  });
});

describe("offset functions", () => {
  it("lag and lead stay inside the partition, with defaults, negative offsets and IGNORE NULLS", async () => {
    const w = Window.partitionBy("k").orderBy("i");
    const rows = await rowsBy(
      u.select(
        "k",
        "i",
        F.lag("x").over(w).alias("lag1"),
        F.lead("x", 2, -1).over(w).alias("lead2"),
        F.lag("x", -1).over(w).alias("lagneg"),
        F.expr("lag(x) IGNORE NULLS OVER (PARTITION BY k ORDER BY i)").alias("lagnn"),
        F.expr("lead(x, 1, i * 100) OVER (PARTITION BY k ORDER BY i)").alias("leaddef"),
      ),
      "k",
      "i",
    );
    assert.deepEqual(
      rows.map((r) => [r.lag1, r.lead2, r.lagneg, r.lagnn, r.leaddef]),
      [
        [null, 3, null, null, null],
        [1, null, 3, 1, 3],
        [null, 5, null, 1, null],
        [3, -1, 5, 3, 5],
        [null, -1, null, 3, 500],
        [null, -1, 20, null, 20],
        [10, -1, null, 10, 200],
      ],
    );
  });
  it("lag/lead and nth_value names show their arguments as Spark's", () => {
    assert.deepEqual(
      s.sql("SELECT nth_value(x, 2) IGNORE NULLS OVER (ORDER BY v), lag(x) IGNORE NULLS OVER (ORDER BY v) FROM wt").columns,
      [
        "nth_value(x, 2) ignore nulls OVER (ORDER BY v ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
        "lag(x, 1, NULL) OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN -1 FOLLOWING AND -1 FOLLOWING)",
      ],
    );
    const w = Window.orderBy("v");
    assert.deepEqual(t.select(F.lag("v").over(w), F.lead("v", 2, 0).over(w)).columns, [
      "lag(v, 1, NULL) OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN -1 FOLLOWING AND -1 FOLLOWING)",
      "lead(v, 2, 0) OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN 2 FOLLOWING AND 2 FOLLOWING)",
    ]);
  });
});

describe("first, last and nth_value over frames", () => {
  it("respect the frame and ignoreNulls", async () => {
    const w = Window.partitionBy("k").orderBy("i");
    const whole = w.rowsBetween(Window.unboundedPreceding, Window.unboundedFollowing);
    const rows = await rowsBy(
      u.select(
        "k",
        "i",
        F.first("x").over(w.rowsBetween(1, 2)).alias("f"),
        F.first("x", true).over(w.rowsBetween(1, 2)).alias("fnn"),
        F.last("x").over(w).alias("l"),
        F.last("x", true).over(w).alias("lnn"),
        F.nth_value("x", 2).over(whole).alias("n2"),
        F.nth_value("x", 2, true).over(whole).alias("n2nn"),
        F.nth_value("x", 3).over(w).alias("n3run"),
      ),
      "k",
      "i",
    );
    assert.deepEqual(
      rows.map((r) => [r.f, r.fnn, r.l, r.lnn, r.n2, r.n2nn, r.n3run]),
      [
        [null, 3, 1, 1, null, 3, null],
        [3, 3, null, 1, null, 3, null],
        [null, 5, 3, 3, null, 3, 3],
        [5, 5, null, 3, null, 3, 3],
        [null, null, 5, 5, null, 3, 3],
        [20, 20, 10, 10, 20, 20, null],
        [null, null, 20, 20, 20, 20, null],
      ],
    );
  });
});

describe("aggregates over frames", () => {
  it("default frames: RANGE to the current row's peers with ORDER BY, the whole partition without", async () => {
    const rows = await t
      .where("k = 'a'")
      .select(
        "v",
        "x",
        F.sum("x").over(Window.orderBy("v")).alias("run"),
        F.sum("x")
          .over(Window.orderBy(F.col("v").asc_nulls_last()))
          .alias("runNullsLast"),
        F.max("x").over(Window.partitionBy("k")).alias("m"),
        F.count("*").over(Window.partitionBy("k")).alias("n"),
      )
      .collect();
    const got = rows.map((r) => [r.v, r.run, r.runNullsLast, r.m, r.n]).sort((a, b) => String(a).localeCompare(String(b)));
    assert.deepEqual(
      got,
      [
        [null, 3, 23, 10, 6],
        [null, 3, 23, 10, 6],
        [1, 13, 10, 10, 6],
        [2, 20, 17, 10, 6],
        [2, 20, 17, 10, 6],
        [5, 23, 20, 10, 6],
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
  });
  it("RANGE frames with value bounds: NULL keys frame their peers, DESC turns PRECEDING into larger keys", async () => {
    const rows = await s
      .sql(
        `SELECT v, x,
           sum(x) OVER (ORDER BY v RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) a,
           sum(x) OVER (ORDER BY v DESC NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) b,
           count(*) OVER (ORDER BY v RANGE BETWEEN CURRENT ROW AND 2 FOLLOWING) c
         FROM wt WHERE k = 'a'`,
      )
      .collect();
    const got = rows.map((r) => [r.v, r.x, r.a, r.b, r.c]).sort((a, b) => String(a).localeCompare(String(b)));
    assert.deepEqual(
      got,
      [
        [null, 1, 3, 3, 2],
        [null, 2, 3, 3, 2],
        [5, 3, 3, 3, 1],
        [2, 7, 17, 17, 2],
        [2, null, 17, 17, 2],
        [1, 10, 10, 17, 3],
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
  });
  it("RANGE over a DOUBLE key with a fractional bound", async () => {
    const rows = await s.sql("SELECT x, count(*) OVER (ORDER BY x RANGE BETWEEN 2.5 PRECEDING AND CURRENT ROW) c FROM wt").collect();
    const got = rows.map((r) => [r.x, r.c]).sort((a, b) => String(a).localeCompare(String(b)));
    assert.deepEqual(
      got,
      [
        [null, 1],
        [1, 1],
        [2, 2],
        [3, 3],
        [5, 2],
        [7, 2],
        [10, 1],
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
  });
  it("ROWS frames: sliding sums, order-keeping collect_list, empty frames give count 0 and sum NULL", async () => {
    const w = Window.partitionBy("k").orderBy("i");
    const rows = await rowsBy(
      u.select(
        "k",
        "i",
        F.sum("x").over(w.rowsBetween(-1, 1)).alias("s"),
        F.collect_list("x").over(w.rowsBetween(-2, 0)).alias("cl"),
        F.count("x").over(w.rowsBetween(3, 4)).alias("n"),
        F.sum("x").over(w.rowsBetween(3, 4)).alias("s34"),
        F.avg("x").over(w.rowsBetween(Window.currentRow, Window.unboundedFollowing)).alias("a"),
      ),
      "k",
      "i",
    );
    assert.deepEqual(
      rows.map((r) => [r.s, r.cl, r.n, r.s34, r.a]),
      [
        [1, [1], 1, 5, 3],
        [4, [1], 1, 5, 4],
        [3, [1, 3], 0, null, 4],
        [8, [3], 0, null, 5],
        [5, [3, 5], 0, null, 5],
        [30, [10], 0, null, 15],
        [30, [10, 20], 0, null, 20],
      ],
    );
  });
  it("a SQL query with a named WINDOW clause", async () => {
    const rows = await rowsBy(
      s.sql("SELECT k, i, sum(x) OVER w s, row_number() OVER w rn FROM wu WINDOW w AS (PARTITION BY k ORDER BY i)"),
      "k",
      "i",
    );
    assert.deepEqual(
      rows.map((r) => [r.s, r.rn]),
      [
        [1, 1],
        [1, 2],
        [4, 3],
        [4, 4],
        [9, 5],
        [10, 1],
        [30, 2],
      ],
    );
  });
  it("windows over a grouped aggregation (rank by sum) and nested windows", async () => {
    const ranked = await s.sql("SELECT k, sum(v) s, rank() OVER (ORDER BY sum(v) DESC) r FROM wt GROUP BY k").collect();
    assert.deepEqual(
      ranked.sort((a, b) => String(a.k).localeCompare(String(b.k))),
      [
        { k: "a", s: 10, r: 1 },
        { k: "b", s: 3, r: 2 },
      ],
    );
    const api = await t
      .groupBy("k")
      .agg(F.sum("v").alias("s"))
      .withColumn("r", F.rank().over(Window.orderBy(F.desc("s"))))
      .collect();
    assert.deepEqual(api.map((r) => [r.k, r.r]).sort(), [
      ["a", 1],
      ["b", 2],
    ]);
    const nested = await s.sql("SELECT i, sum(i) OVER (ORDER BY row_number() OVER (ORDER BY i, k)) n FROM wu").collect();
    assert.deepEqual(
      nested.map((r) => r.n).sort((a, b) => Number(a) - Number(b)),
      [1, 2, 4, 6, 9, 13, 18],
    );
  });
});

describe("analysis errors, as Spark's", () => {
  const w = Window.partitionBy("k").orderBy("v");
  it("window functions need OVER, an ORDER BY, and their own frame", () => {
    assert.throws(
      () => t.select(F.row_number()),
      /\[WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE\] Window function "row_number\(\)" requires an OVER clause/,
    );
    assert.throws(
      () => t.select(F.row_number().over(Window.partitionBy("k"))),
      /\[WINDOW_FUNCTION_FRAME_NOT_ORDERED\] Window function row_number requires the window to be ordered/,
    );
    assert.throws(
      () => t.select(F.lag("v").over(Window.partitionBy("k"))),
      /SELECT lag\(v, 1, NULL\) OVER \(PARTITION BY window_partition/,
    );
    assert.throws(
      () => t.select(F.rank().over(w.rowsBetween(-1, 1))),
      /Window Frame specifiedwindowframe\(RowFrame, -1, 1\) must match the required frame specifiedwindowframe\(RowFrame, unboundedpreceding\$\(\), currentrow\$\(\)\)/,
    );
    assert.throws(() => t.select(F.lag("v").over(w.rowsBetween(-1, 1))), /Cannot specify window frame for lag function/);
    assert.throws(() => t.select(F.ntile(0).over(w)), /The buckets must be between \(0, 2147483647\] \(current value = 0\)/);
  });
  it("frames are checked", () => {
    assert.throws(
      () => s.sql("SELECT sum(v) OVER (ORDER BY v ROWS BETWEEN 1 FOLLOWING AND 1 PRECEDING) FROM wt"),
      /SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON/,
    );
    assert.throws(
      () => s.sql("SELECT sum(v) OVER (ORDER BY k, v RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wt"),
      /RANGE_FRAME_MULTI_ORDER/,
    );
    assert.throws(
      () => s.sql("SELECT sum(v) OVER (PARTITION BY k RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wt"),
      /RANGE_FRAME_WITHOUT_ORDER/,
    );
    assert.throws(() => s.sql("SELECT count(DISTINCT v) OVER (PARTITION BY k) FROM wt"), /\[DISTINCT_WINDOW_FUNCTION_UNSUPPORTED\]/);
  });
  it("window functions are refused in WHERE, HAVING and inside aggregates", () => {
    assert.throws(
      () => t.where(F.row_number().over(w).equalTo(1)),
      /\[WINDOW_FUNCTION_NOT_ALLOWED_IN_CLAUSE\] It is not allowed to use window functions inside WHERE clause/,
    );
    assert.throws(
      () => s.sql("SELECT k, count(*) c FROM wt GROUP BY k HAVING rank() OVER (ORDER BY count(*)) = 1"),
      /inside HAVING clause/,
    );
    assert.throws(
      () => s.sql("SELECT sum(row_number() OVER (ORDER BY v)) FROM wt"),
      /not allowed to use a window function inside an aggregate function/,
    );
  });
  it("a streaming query with a window function fails at start with Spark's error", async () => {
    const ms = s.memoryStream("k STRING, v INT");
    const q = ms.toDF().withColumn("r", F.sum("v").over(Window.partitionBy("k")));
    await assert.rejects(
      q.writeStream.format("memory").queryName("winsql_refused").start(),
      /\[NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING\] Window function is not supported in SUM\(V\) \(as column `r`\) on streaming DataFrames\/Datasets\.\nStructured Streaming only supports time-window aggregation using the WINDOW function\. \(window specification: \(PARTITION BY K ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING\)\)/,
    );
  });
});

describe("the foreachBatch upsert recipe", () => {
  it("keeps the newest row per key with row_number() inside foreachBatch", async () => {
    const ms = s.memoryStream("id STRING, ts BIGINT, status STRING");
    const kept: Record<string, unknown>[][] = [];
    const q = await ms
      .toDF()
      .writeStream.foreachBatch(async (batch, _id) => {
        const newest = batch
          .withColumn("rn", F.row_number().over(Window.partitionBy("id").orderBy(F.col("ts").desc())))
          .where("rn = 1")
          .drop("rn");
        kept.push(await newest.collect());
      })
      .start();
    ms.addData([
      { id: "o1", ts: 1, status: "new" },
      { id: "o2", ts: 5, status: "new" },
      { id: "o1", ts: 3, status: "paid" },
      { id: "o1", ts: 2, status: "packed" },
    ]);
    await q.processAllAvailable();
    await q.stop();
    assert.deepEqual(
      kept.flat().sort((a, b) => String(a.id).localeCompare(String(b.id))),
      [
        { id: "o1", ts: 3, status: "paid" },
        { id: "o2", ts: 5, status: "new" },
      ],
    );
  });
});

describe("partitions", () => {
  it("-0.0 and 0.0 are one partition, NULL keys another, as in Spark's grouping", async () => {
    const z = s.createDataFrame(
      [
        { k: 0.0, v: 1 },
        { k: -0.0, v: 2 },
        { k: null, v: 3 },
      ],
      "k DOUBLE, v INT",
    );
    const rows = await z.select("v", F.count("*").over(Window.partitionBy("k")).alias("n")).collect();
    assert.deepEqual(rows.map((r) => [r.v, r.n]).sort(), [
      [1, 2],
      [2, 2],
      [3, 1],
    ]);
  });
});

describe("plans", () => {
  it("explain shows one Window node per specification, as Spark's", () => {
    const df = u.select(
      "k",
      F.row_number().over(Window.partitionBy("k").orderBy("i")).alias("rn"),
      F.sum("x").over(Window.partitionBy("k")).alias("s"),
    );
    const text = df.explainString();
    assert.match(
      text,
      /Window \[row_number\(\) windowspecdefinition\(k, i ASC NULLS FIRST, specifiedwindowframe\(RowFrame, unboundedpreceding\$\(\), currentrow\$\(\)\)\) AS rn\], \[k\], \[i ASC NULLS FIRST\]/,
    );
    assert.match(
      text,
      /Window \[sum\(x\) windowspecdefinition\(k, specifiedwindowframe\(RowFrame, unboundedpreceding\$\(\), unboundedfollowing\$\(\)\)\) AS s\], \[k\], \[\]/,
    );
  });
  it("a window function in ORDER BY is refused with a clear message", () => {
    assert.throws(
      () => s.sql("SELECT * FROM wu ORDER BY row_number() OVER (ORDER BY i)"),
      /window function in ORDER BY .* select it as a column/,
    );
  });
});

describe("RANGE frames over time", () => {
  const ev = s
    .createDataFrame(
      [
        { ts: new Date("2024-01-01T00:00:00Z"), d: "2024-01-01", v: 1 },
        { ts: new Date("2024-01-01T00:00:05Z"), d: "2024-01-02", v: 2 },
        { ts: new Date("2024-01-01T00:00:12Z"), d: "2024-01-04", v: 3 },
        { ts: null, d: null, v: 4 },
      ],
      "ts TIMESTAMP, d STRING, v INT",
    )
    .selectExpr("ts", "cast(d AS DATE) d", "v");
  ev.createOrReplaceTempView("wev");
  it("INTERVAL bounds over a TIMESTAMP key, named as Spark names them", async () => {
    const df = s.sql(
      "SELECT v, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 10 SECONDS PRECEDING AND CURRENT ROW), sum(v) OVER (ORDER BY ts DESC RANGE BETWEEN CURRENT ROW AND INTERVAL '1' MINUTE FOLLOWING) FROM wev",
    );
    assert.deepEqual(df.columns.slice(1), [
      "count(1) OVER (ORDER BY ts ASC NULLS FIRST RANGE BETWEEN INTERVAL '10' SECOND PRECEDING AND CURRENT ROW)",
      "sum(v) OVER (ORDER BY ts DESC NULLS LAST RANGE BETWEEN CURRENT ROW AND INTERVAL '01' MINUTE FOLLOWING)",
    ]);
    const rows = (await df.collect()).map((r) => Object.values(r)).sort((a, b) => Number(a[0]) - Number(b[0]));
    // DESC: FOLLOWING rows have earlier timestamps.
    assert.deepEqual(rows, [
      [1, 1, 1],
      [2, 2, 3],
      [3, 2, 6],
      [4, 1, 4],
    ]);
  });
  it("a DATE key takes whole-day INTERVAL bounds or day counts", async () => {
    const rows = await s
      .sql(
        "SELECT v, sum(v) OVER (ORDER BY d RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW) a, sum(v) OVER (ORDER BY d RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) b FROM wev",
      )
      .collect();
    assert.deepEqual(
      rows.map((r) => [r.v, r.a, r.b]).sort((x, y) => Number(x[0]) - Number(y[0])),
      [
        [1, 1, 1],
        [2, 3, 3],
        [3, 3, 5],
        [4, 4, 4],
      ],
    );
    assert.throws(
      () => s.sql("SELECT sum(v) OVER (ORDER BY d RANGE BETWEEN INTERVAL 1 HOUR PRECEDING AND CURRENT ROW) FROM wev"),
      /whole days/,
    );
  });
  it("a TIMESTAMP key refuses plain numbers, as Spark", () => {
    assert.throws(
      () => ev.select(F.sum("v").over(Window.orderBy("ts").rangeBetween(-10, 0))),
      /\[DATATYPE_MISMATCH.RANGE_FRAME_INVALID_TYPE\] .* The data type "TIMESTAMP" used in the order specification does not support the data type "BIGINT"/,
    );
  });
});
