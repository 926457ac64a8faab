/**
 * A table, view or DataFrame joined with itself: its second side is read under fresh column
 * ids (Spark's DeduplicateRelations), so `a.k = b.k` compares the two sides' columns. Before,
 * both sides kept the same ids and every such join compared a column with itself (a cross
 * join). Every expected answer is PySpark 4.3.0's on the same tables.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DataFrame, F } from "../../src/index.js";
import { assertAsPySpark, type Expected, session } from "./pyspark-tables.js";

const SQL: [string, Expected][] = [
  [
    "SELECT a.k, a.v, b.v AS bv FROM t1 a JOIN t1 b ON a.k = b.k",
    {
      cols: ["k", "v", "bv"],
      types: ["int", "int", "int"],
      rows: [
        [1, 10, 10],
        [1, 10, 20],
        [1, 20, 10],
        [1, 20, 20],
        [2, 5, 5],
        [3, 7, 7],
        [4, null, null],
      ],
    },
  ],
  [
    "SELECT a.k, a.v, b.v AS bv FROM t1 a LEFT JOIN t1 b ON a.k = b.k AND a.v < b.v",
    {
      cols: ["k", "v", "bv"],
      types: ["int", "int", "int"],
      rows: [
        [1, 10, 20],
        [1, 20, null],
        [2, 5, null],
        [3, 7, null],
        [4, null, null],
        [null, 1, null],
      ],
    },
  ],
  [
    "SELECT a.v, b.v AS bv, c.v AS cv FROM t1 a JOIN t1 b ON a.k = b.k JOIN t1 c ON b.k = c.k WHERE a.k = 2",
    { cols: ["v", "bv", "cv"], types: ["int", "int", "int"], rows: [[5, 5, 5]] },
  ],
  [
    "SELECT * FROM t1 JOIN t1 b USING (k)",
    {
      cols: ["k", "v", "v"],
      types: ["int", "int", "int"],
      rows: [
        [1, 10, 10],
        [1, 10, 20],
        [1, 20, 10],
        [1, 20, 20],
        [2, 5, 5],
        [3, 7, 7],
        [4, null, null],
      ],
    },
  ],
  [
    "SELECT a.k, count(*) AS n FROM t1 a JOIN t1 b ON a.k = b.k GROUP BY a.k",
    {
      cols: ["k", "n"],
      types: ["int", "bigint"],
      rows: [
        [1, 4],
        [2, 1],
        [3, 1],
        [4, 1],
      ],
    },
  ],
  [
    "WITH x AS (SELECT k, v FROM t1) SELECT x1.v, x2.v AS v2 FROM x x1 JOIN x x2 ON x1.k = x2.k AND x1.v < x2.v",
    { cols: ["v", "v2"], types: ["int", "int"], rows: [[10, 20]] },
  ],
];

describe("self-joins, as PySpark 4.3", () => {
  for (const [query, expected] of SQL) {
    it(query, async () => {
      await assertAsPySpark(() => session.sql(query), expected);
    });
  }
});

describe("a DataFrame joined with itself or with a DataFrame made from it, as PySpark 4.3", () => {
  const df = session.createDataFrame(
    [
      [1, 10],
      [1, 20],
      [2, 5],
      [3, 7],
      [null, 1],
    ],
    "k INT, v INT",
  );
  const counts = df.groupBy("k").count();
  const pairs = [
    [1, 10, 10],
    [1, 10, 20],
    [1, 20, 10],
    [1, 20, 20],
    [2, 5, 5],
    [3, 7, 7],
  ];
  const cases: [string, () => DataFrame, Expected][] = [
    [
      'df.alias("a").join(df.alias("b"), a.k = b.k)',
      () =>
        df
          .alias("a")
          .join(df.alias("b"), F.col("a.k").equalTo(F.col("b.k")))
          .select("a.k", "a.v", "b.v"),
      { cols: ["k", "v", "v"], types: ["int", "int", "int"], rows: pairs },
    ],
    ['df.join(df, ["k"])', () => df.join(df, ["k"]), { cols: ["k", "v", "v"], types: ["int", "int", "int"], rows: pairs }],
    [
      'df.join(df, df.col("k").equalTo(df.col("k"))): the trivially true equality read as left = right',
      () => df.join(df, df.col("k").equalTo(df.col("k"))),
      { cols: ["k", "v", "k", "v"], types: ["int", "int", "int", "int"], rows: pairs.map(([k, a, b]) => [k, a, k, b]) },
    ],
    [
      "df joined with its own groupBy().count() on df.k = counts.k",
      () => df.join(counts, df.col("k").equalTo(counts.col("k"))).select(df.col("v"), counts.col("count")),
      {
        cols: ["v", "count"],
        types: ["int", "bigint"],
        rows: [
          [10, 2],
          [20, 2],
          [5, 1],
          [7, 1],
        ],
      },
    ],
    [
      "a filtered DataFrame joined with its source under aliases",
      () => df.filter("v > 5").alias("x").join(df.alias("y"), F.expr("x.k = y.k AND x.v < y.v")).select("x.v", "y.v"),
      { cols: ["v", "v"], types: ["int", "int"], rows: [[10, 20]] },
    ],
  ];
  for (const [name, query, expected] of cases) {
    it(name, async () => {
      await assertAsPySpark(query, expected);
    });
  }
});

describe("a stream joined with itself", () => {
  it("matches each click with a buy of the same id within 5 minutes (before: every row with itself)", async () => {
    const events = session.memoryStream("id INT, t TIMESTAMP, kind STRING");
    const ev = events.toDF().withWatermark("t", "10 minutes");
    const clicks = ev.filter("kind = 'click'").alias("a");
    const buys = ev.filter("kind = 'buy'").alias("b");
    const q = await clicks
      .join(buys, F.expr("a.id = b.id AND b.t BETWEEN a.t AND a.t + INTERVAL 5 MINUTES"))
      .select("a.id", F.col("a.t").alias("clicked"), F.col("b.t").alias("bought"))
      .writeStream.format("memory")
      .queryName("self_join_stream")
      .outputMode("append")
      .start();
    events.addData([
      { id: 1, t: new Date("2024-01-01T00:00:00Z"), kind: "click" },
      { id: 1, t: new Date("2024-01-01T00:03:00Z"), kind: "buy" },
      { id: 2, t: new Date("2024-01-01T00:01:00Z"), kind: "click" },
      { id: 2, t: new Date("2024-01-01T00:09:00Z"), kind: "buy" },
      { id: 3, t: new Date("2024-01-01T00:02:00Z"), kind: "buy" },
    ]);
    await q.processAllAvailable();
    await q.stop();
    const rows = await session.sql("SELECT id, CAST(clicked AS STRING), CAST(bought AS STRING) FROM self_join_stream").toArray();
    assert.deepEqual(rows, [[1, "2024-01-01 00:00:00", "2024-01-01 00:03:00"]]);
  });
});

describe("join(other, [conditions])", () => {
  it("ANDs a list of condition Columns, as PySpark (was: read as USING column names, a TypeError)", async () => {
    const a = session.createDataFrame(
      [
        [1, 10],
        [1, 20],
        [2, 5],
        [3, 7],
        [null, 1],
      ],
      "k INT, v INT",
    );
    const b = session.createDataFrame(
      [
        [1, "x"],
        [2, "y"],
        [4, "z"],
      ],
      "k INT, s STRING",
    );
    await assertAsPySpark(() => a.join(b, [a.col("k").equalTo(b.col("k")), a.col("v").gt(6)]), {
      cols: ["k", "v", "k", "s"],
      types: ["int", "int", "int", "string"],
      rows: [
        [1, 10, 1, "x"],
        [1, 20, 1, "x"],
      ],
    });
  });
});

describe("a join condition that cannot say which side of a self-join it means", () => {
  it("is refused as Spark's failAmbiguousSelfJoin check does (_LEGACY_ERROR_TEMP_1182); a column only one side has is not", async () => {
    const df = session.createDataFrame(
      [
        [1, 10],
        [1, 20],
        [2, 5],
      ],
      "k INT, v INT",
    );
    const f5 = df.filter("v > 5");
    const counts = df.groupBy("k").count();
    for (const cond of [df.col("k").equalTo(f5.col("k")).and(df.col("v").lt(15)), df.col("k").equalTo(f5.col("k").plus(1))]) {
      await assert.rejects(
        async () => df.join(f5, cond).toArray(),
        (e: Error & { errorClass?: string }) => e.errorClass === "_LEGACY_ERROR_TEMP_1182" && /are ambiguous/.test(e.message),
      );
    }
    await assertAsPySpark(() => df.join(counts, df.col("k").equalTo(counts.col("k")).and(counts.col("count").gt(1))), {
      cols: ["k", "v", "k", "count"],
      types: ["int", "int", "int", "bigint"],
      rows: [
        [1, 10, 1, 2],
        [1, 20, 1, 2],
      ],
    });
  });
});
