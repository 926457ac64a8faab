import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { sorted, utcSession } from "./helpers.js";

const s = utcSession();
const people = s.createDataFrame(
  [
    { name: "Ani", city: "Bandung", age: 31, score: 7.5 },
    { name: "Budi", city: "Jakarta", age: 25, score: null },
    { name: "Citra", city: "Bandung", age: null, score: 9.0 },
    { name: "Dewi", city: "Surabaya", age: 40, score: 6.0 },
  ],
  "name STRING, city STRING, age INT, score DOUBLE",
);

describe("projections and filters", () => {
  it("select, withColumn, drop and rename keep Spark's column names", async () => {
    const df = people.withColumn("age2", F.col("age").multiply(2)).drop("score").withColumnRenamed("city", "kota");
    assert.deepEqual(df.columns, ["name", "kota", "age", "age2"]);
    assert.deepEqual(people.select(F.col("age").plus(1), F.upper("name")).columns, ["(age + 1)", "upper(name)"]);
    const rows = await df.where(F.col("age2").gt(60)).collect();
    assert.deepEqual(rows, [
      { name: "Ani", kota: "Bandung", age: 31, age2: 62 },
      { name: "Dewi", kota: "Surabaya", age: 40, age2: 80 },
    ]);
  });
  it("filters with SQL strings and three-valued logic drop NULL conditions", async () => {
    assert.equal(await people.filter("age > 30 OR score > 8").count(), 3);
    assert.equal(await people.filter(F.col("age").gt(20).and(F.col("score").isNull())).count(), 1);
    assert.equal(await people.filter(F.col("age").isin(25, 40)).count(), 2);
    assert.equal(await people.filter(F.col("name").like("_e%")).count(), 1);
  });
  it("integer division by zero is an ANSI error, as in Spark 4", async () => {
    await assert.rejects(people.select(F.col("age").divide(0)).collect(), /DIVIDE_BY_ZERO/);
  });
  it("CASE WHEN, coalesce and casts", async () => {
    const rows = await people
      .select(
        F.when(F.col("age").geq(30), "senior").when(F.col("age").lt(30), "junior").otherwise("unknown").alias("band"),
        F.coalesce(F.col("score"), F.lit(0)).alias("s"),
        F.col("age").cast("string").alias("a"),
      )
      .collect();
    assert.deepEqual(rows, [
      { band: "senior", s: 7.5, a: "31" },
      { band: "junior", s: 0, a: "25" },
      { band: "unknown", s: 9, a: null },
      { band: "senior", s: 6, a: "40" },
    ]);
  });
});

describe("aggregation", () => {
  it("groupBy with every aggregate function", async () => {
    const rows = await people
      .groupBy("city")
      .agg(
        F.count("*").alias("n"),
        F.count("age").alias("n_age"),
        F.sum("age").alias("sum_age"),
        F.avg("score").alias("avg_score"),
        F.min("name").alias("first_name"),
        F.max("age").alias("oldest"),
        F.collect_list("name").alias("names"),
        F.approx_count_distinct("name").alias("distinct"),
      )
      .orderBy("city")
      .collect();
    assert.deepEqual(rows, [
      {
        city: "Bandung",
        n: 2,
        n_age: 1,
        sum_age: 31,
        avg_score: 8.25,
        first_name: "Ani",
        oldest: 31,
        names: ["Ani", "Citra"],
        distinct: 2,
      },
      { city: "Jakarta", n: 1, n_age: 1, sum_age: 25, avg_score: null, first_name: "Budi", oldest: 25, names: ["Budi"], distinct: 1 },
      { city: "Surabaya", n: 1, n_age: 1, sum_age: 40, avg_score: 6, first_name: "Dewi", oldest: 40, names: ["Dewi"], distinct: 1 },
    ]);
  });
  it("global aggregates over no rows give one row (count 0, sum NULL)", async () => {
    const rows = await people.filter("age > 100").agg(F.count("*").alias("n"), F.sum("age").alias("s")).collect();
    assert.deepEqual(rows, [{ n: 0, s: null }]);
  });
  it("groupBy().count() names the column count", async () => {
    const df = people.groupBy("city").count();
    assert.deepEqual(df.columns, ["city", "count"]);
  });
  it("a non-grouped column in the select list is a MISSING_AGGREGATION error", () => {
    assert.throws(() => people.groupBy("city").agg(F.col("name")), /MISSING_AGGREGATION/);
    // without GROUP BY it is Spark's MISSING_GROUP_BY
    assert.throws(() => people.select(F.col("name"), F.count("*")), /\[MISSING_GROUP_BY\] The query does not include a GROUP BY clause\./);
  });
  it("distinct and dropDuplicates", async () => {
    assert.equal(await people.select("city").distinct().count(), 3);
    const firsts = await people.dropDuplicates(["city"]).select("name").collect();
    assert.deepEqual(
      firsts.map((r) => r.name),
      ["Ani", "Budi", "Dewi"],
    );
  });
});

describe("joins", () => {
  const left = s.createDataFrame(
    [
      [1, "a"],
      [2, "b"],
      [null, "n"],
    ],
    "k INT, v STRING",
  );
  const right = s.createDataFrame(
    [
      [1, "x"],
      [1, "y"],
      [3, "z"],
    ],
    "k INT, w STRING",
  );
  const cases: [string, unknown[]][] = [
    [
      "inner",
      [
        { k: 1, v: "a", w: "x" },
        { k: 1, v: "a", w: "y" },
      ],
    ],
    [
      "left",
      [
        { k: 1, v: "a", w: "x" },
        { k: 1, v: "a", w: "y" },
        { k: 2, v: "b", w: null },
        { k: null, v: "n", w: null },
      ],
    ],
    [
      "right",
      [
        { k: 1, v: "a", w: "x" },
        { k: 1, v: "a", w: "y" },
        { k: 3, v: null, w: "z" },
      ],
    ],
    [
      "full",
      [
        { k: 1, v: "a", w: "x" },
        { k: 1, v: "a", w: "y" },
        { k: 2, v: "b", w: null },
        { k: null, v: "n", w: null },
        { k: 3, v: null, w: "z" },
      ],
    ],
    ["left_semi", [{ k: 1, v: "a" }]],
    [
      "left_anti",
      [
        { k: 2, v: "b" },
        { k: null, v: "n" },
      ],
    ],
  ];
  for (const [how, expected] of cases) {
    it(`${how} join USING k (NULL keys never match)`, async () => {
      assert.deepEqual(sorted(await left.join(right, "k", how).collect()), sorted(expected));
    });
  }
  it("join on a condition keeps both key columns; cross join multiplies", async () => {
    const j = left.join(right, left.col("k").equalTo(right.col("k")).and(right.col("w").notEqual("y")));
    assert.deepEqual(j.columns, ["k", "v", "k", "w"]);
    assert.deepEqual(await j.select("v", "w").collect(), [{ v: "a", w: "x" }]);
    assert.equal(await left.crossJoin(right).count(), 9);
  });
  it("unknown join type is refused with the list of supported ones", () => {
    assert.throws(() => left.join(right, "k", "sideways"), /UNSUPPORTED_JOIN_TYPE.*left_outer/);
  });
});

describe("set operations, sorting, limits", () => {
  it("union by position widens types; unionByName reorders", async () => {
    const a = s.createDataFrame([[1, "x"]], "n INT, s STRING");
    const b = s.createDataFrame([["y", 2.5]], "s STRING, n DOUBLE");
    assert.deepEqual(await a.unionByName(b).collect(), [
      { n: 1, s: "x" },
      { n: 2.5, s: "y" },
    ]);
    assert.throws(() => a.union(s.range(3)), /NUM_COLUMNS_MISMATCH/);
  });
  it("orderBy with NULLS FIRST for asc and NULLS LAST for desc, then limit", async () => {
    assert.deepEqual(
      (await people.orderBy("age").collect()).map((r) => r.age),
      [null, 25, 31, 40],
    );
    assert.deepEqual(
      (await people.orderBy(F.col("age").desc()).limit(2).collect()).map((r) => r.age),
      [40, 31],
    );
    assert.deepEqual(
      (await people.orderBy(F.col("score").desc_nulls_first()).collect()).map((r) => r.score),
      [null, 9, 7.5, 6],
    );
  });
  it("range with step", async () => {
    assert.deepEqual(
      (await s.range(2, 11, 4).collect()).map((r) => r.id),
      [2, 6, 10],
    );
  });
});

describe("temp views and SQL", () => {
  it("runs SELECT ... JOIN ... WHERE ... GROUP BY ... HAVING ... ORDER BY ... LIMIT", async () => {
    people.createOrReplaceTempView("people");
    s.createDataFrame(
      [
        ["Bandung", "Jawa Barat"],
        ["Jakarta", "DKI"],
        ["Surabaya", "Jawa Timur"],
      ],
      "city STRING, prov STRING",
    ).createOrReplaceTempView("cities");
    const rows = await s
      .sql(
        "SELECT c.prov, count(*) AS n, max(p.age) AS oldest FROM people p JOIN cities c ON p.city = c.city WHERE p.name <> 'Budi' GROUP BY c.prov HAVING count(*) >= 1 ORDER BY n DESC, prov LIMIT 2",
      )
      .collect();
    assert.deepEqual(rows, [
      { prov: "Jawa Barat", n: 2, oldest: 31 },
      { prov: "Jawa Timur", n: 1, oldest: 40 },
    ]);
  });
  it("HAVING on an aggregate that is not selected and ORDER BY a dropped column", async () => {
    const rows = await s.sql("SELECT city FROM people GROUP BY city HAVING avg(age) > 30 ORDER BY city").collect();
    assert.deepEqual(rows, [{ city: "Bandung" }, { city: "Surabaya" }]);
    const byAge = await s.sql("SELECT name FROM people WHERE age IS NOT NULL ORDER BY age DESC").collect();
    assert.deepEqual(
      byAge.map((r) => r.name),
      ["Dewi", "Ani", "Budi"],
    );
  });
  it("an unknown table names itself", () => {
    assert.throws(() => s.sql("SELECT * FROM nope"), /TABLE_OR_VIEW_NOT_FOUND.*`nope`/);
  });
});
