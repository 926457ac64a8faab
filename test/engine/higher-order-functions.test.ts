/**
 * Higher-order functions with lambdas: transform, filter, exists, forall, aggregate / reduce,
 * zip_with, in SQL and through `F.transform(col, x => ...)`. Expected values, generated names and
 * error classes are PySpark 4.3's (the conformance case higher-order/array-lambdas runs the same
 * functions side by side on a stream); the property tests hold the vectorized evaluation (every
 * element of a batch at once) to a plain per-row reference.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const df = session.createDataFrame(
  [
    [[1, 2, null], [10, 20], "a"],
    [null, [1], "b"],
    [[], [], "c"],
  ],
  "a array<int>, b array<int>, s string",
);

async function column(expr: string): Promise<{ name: string; type: string; values: unknown[] }> {
  const r = df.selectExpr(expr);
  const rows = await r.collect();
  const [name, type] = r.dtypes[0]!;
  return { name, type, values: rows.map((x) => x[name]) };
}

describe("higher-order functions in SQL", () => {
  it("transform, with the element and with its index; a lambda reading an outer column", async () => {
    const t = await column("transform(a, x -> x + 1)");
    assert.equal(t.name, "transform(a, lambdafunction((namedlambdavariable() + 1), namedlambdavariable()))");
    assert.equal(t.type, "array<int>");
    assert.deepEqual(t.values, [[2, 3, null], null, []]);
    assert.deepEqual((await column("transform(a, (x, i) -> x * i)")).values, [[0, 2, null], null, []]);
    assert.deepEqual((await column("transform(a, x -> concat(s, x))")).values, [["a1", "a2", null], null, []]);
    assert.deepEqual((await column("transform(a, x -> a)")).values, [
      [
        [1, 2, null],
        [1, 2, null],
        [1, 2, null],
      ],
      null,
      [],
    ]);
  });

  it("a lambda inside a lambda sees both variables", async () => {
    const t = await column("transform(b, x -> transform(a, y -> x + y))");
    assert.equal(t.type, "array<array<int>>");
    assert.deepEqual(t.values, [
      [
        [11, 12, null],
        [21, 22, null],
      ],
      [null],
      [],
    ]);
  });

  it("filter keeps the elements whose test is true (not NULL)", async () => {
    assert.deepEqual((await column("filter(a, x -> x > 1)")).values, [[2], null, []]);
    assert.deepEqual((await column("filter(a, (x, i) -> i > 0)")).values, [[2, null], null, []]);
  });

  it("exists and forall in three-valued logic", async () => {
    assert.deepEqual((await column("exists(a, x -> x > 1)")).values, [true, null, false]);
    assert.deepEqual((await column("exists(a, x -> x > 5)")).values, [null, null, false]);
    assert.deepEqual((await column("exists(a, x -> x is null)")).values, [true, null, false]);
    assert.deepEqual((await column("forall(a, x -> x > 0)")).values, [null, null, true]);
    assert.deepEqual((await column("forall(a, x -> x > 1)")).values, [false, null, true]);
  });

  it("aggregate and reduce fold left, with the identity finish in the name when none is given", async () => {
    const a = await column("aggregate(a, 0, (acc, x) -> acc + x)");
    assert.equal(
      a.name,
      "aggregate(a, 0, lambdafunction((namedlambdavariable() + namedlambdavariable()), namedlambdavariable(), namedlambdavariable()), lambdafunction(namedlambdavariable(), namedlambdavariable()))",
    );
    assert.deepEqual(a.values, [null, null, 0]);
    assert.deepEqual((await column("aggregate(a, 0, (acc, x) -> acc + coalesce(x, 0), acc -> acc * 10)")).values, [30, null, 0]);
    assert.deepEqual((await column("reduce(b, 0L, (acc, x) -> acc + x)")).values, [30, 1, 0]);
    assert.equal((await column("reduce(b, 0L, (acc, x) -> acc + x)")).type, "bigint");
  });

  it("zip_with pads the shorter array with NULLs", async () => {
    assert.deepEqual((await column("zip_with(a, b, (x, y) -> x + y)")).values, [[11, 22, null], null, []]);
    assert.deepEqual((await column("zip_with(b, array(1), (x, y) -> coalesce(y, -x))")).values, [[1, -20], [1], [1]]);
  });

  it("Spark's errors: wrong argument count, duplicate names, a non-array, a non-boolean test, an accumulator changing type", async () => {
    await assert.rejects(
      column("transform(a, (x, y, z) -> x)"),
      /INVALID_LAMBDA_FUNCTION_CALL\.NUM_ARGS_MISMATCH.*expects 3 arguments, but got 1/,
    );
    await assert.rejects(column("transform(a, (x, X) -> x)"), /INVALID_LAMBDA_FUNCTION_CALL\.DUPLICATE_ARG_NAMES/);
    await assert.rejects(column("transform(s, x -> x)"), /UNEXPECTED_INPUT_TYPE.*first parameter requires the "ARRAY" type/);
    await assert.rejects(column("filter(a, x -> x + 1)"), /UNEXPECTED_INPUT_TYPE.*second parameter requires the "BOOLEAN" type/);
    await assert.rejects(
      column("aggregate(a, 0.0, (acc, x) -> acc + x)"),
      /UNEXPECTED_INPUT_TYPE.*third parameter requires the "DECIMAL\(1,1\)" type/,
    );
    await assert.rejects(column("transform(a, x -> y)"), /UNRESOLVED_COLUMN/);
  });

  it("a lambda variable shadows a column of the same name", async () => {
    const d = session.createDataFrame([[[1, 2], 100]], "a array<int>, x int");
    const r = await d.selectExpr("transform(a, x -> x * 2) AS t", "transform(a, y -> x + y) AS u").collect();
    assert.deepEqual(r, [{ t: [2, 4], u: [101, 102] }]);
  });

  it("EXISTS (SELECT ...) is still a subquery, exists(arr, ...) the function", async () => {
    assert.deepEqual(await session.sql("SELECT 1 WHERE EXISTS (SELECT 1)").toArray(), [[1]]);
    assert.deepEqual(await session.sql("SELECT 1 WHERE NOT EXISTS (SELECT 1)").toArray(), []);
    assert.deepEqual(await session.sql("SELECT exists(array(1, 2), x -> x > 1)").toArray(), [[true]]);
  });
});

describe("higher-order map functions and array_sort's comparator (SQL)", () => {
  const maps = session.sql("SELECT map(1, 'a', 2, 'b', 3, null) AS m, map(1, 'x', 4, 'y') AS n, array(3, 1, null, 2) AS a");
  async function one(expr: string): Promise<unknown> {
    const v = (await maps.selectExpr(`${expr} AS v`).collect())[0]!.v;
    return v instanceof Map ? [...v] : v;
  }

  it("map_filter, transform_values, transform_keys, map_zip_with", async () => {
    assert.deepEqual(await one("map_filter(m, (k, v) -> k > 1)"), [
      [2, "b"],
      [3, null],
    ]);
    assert.deepEqual(await one("map_filter(m, (k, v) -> v IS NULL)"), [[3, null]]);
    assert.deepEqual(await one("transform_values(m, (k, v) -> concat(v, k))"), [
      [1, "a1"],
      [2, "b2"],
      [3, null],
    ]);
    assert.deepEqual(await one("transform_keys(m, (k, v) -> k * 2)"), [
      [2, "a"],
      [4, "b"],
      [6, null],
    ]);
    assert.deepEqual(await one("map_zip_with(m, n, (k, v1, v2) -> concat(coalesce(v1, '-'), coalesce(v2, '-')))"), [
      [1, "ax"],
      [2, "b-"],
      [3, "--"],
      [4, "-y"],
    ]);
    assert.equal(await one("map_filter(CAST(NULL AS MAP<INT, STRING>), (k, v) -> true)"), null);
  });

  it("transform_keys refuses a NULL or repeated key, as Spark", async () => {
    await assert.rejects(one("transform_keys(m, (k, v) -> 1)"), /DUPLICATED_MAP_KEY/);
    await assert.rejects(one("transform_keys(m, (k, v) -> v)"), /NULL_MAP_KEY/);
    await assert.rejects(one("map_filter(m, (k, v) -> 1)"), /second parameter requires the "BOOLEAN" type/);
  });

  it("array_sort with a comparator (stable), without one the plain sort; an INT comparator only; NULL answers fail", async () => {
    const desc = "(l, r) -> CASE WHEN l IS NULL THEN 1 WHEN r IS NULL THEN -1 WHEN l < r THEN 1 WHEN l > r THEN -1 ELSE 0 END";
    assert.deepEqual(await one(`array_sort(a, ${desc})`), [3, 2, 1, null]);
    assert.deepEqual(await one("array_sort(a, (l, r) -> 0)"), [3, 1, null, 2]);
    assert.deepEqual(await one("array_sort(a)"), [1, 2, 3, null]);
    await assert.rejects(one("array_sort(a, (l, r) -> l - r)"), /COMPARATOR_RETURNS_NULL/);
    await assert.rejects(
      one("array_sort(a, (l, r) -> 1L)"),
      /UNEXPECTED_RETURN_TYPE.*requires return "INT" type, but the actual is "BIGINT"/,
    );
    await assert.rejects(one("array_sort(a, l -> 1)"), /NUM_ARGS_MISMATCH.*expects 1 arguments, but got 2/);
  });
});

describe("higher-order functions in the DataFrame API", () => {
  it("the JS function's parameters are Columns; its arity picks the index form", async () => {
    const r = df.select(
      F.transform("a", (x) => x.plus(1)),
      F.transform("a", (x, i) => x.multiply(i)).alias("ti"),
      F.filter("a", (x) => x.gt(1)).alias("f"),
      F.exists("a", (x) => x.gt(1)).alias("e"),
      F.forall("b", (x) => x.gt(0)).alias("fa"),
      F.aggregate(
        "b",
        F.lit(0),
        (acc, x) => acc.plus(x),
        (acc) => acc.multiply(2),
      ).alias("agg"),
      F.zip_with("a", "b", (x, y) => F.coalesce(x, y)).alias("z"),
    );
    assert.equal(r.columns[0], "transform(a, lambdafunction((namedlambdavariable() + 1), namedlambdavariable()))");
    assert.deepEqual(await r.drop(r.columns[0]!).collect(), [
      { ti: [0, 2, null], f: [2], e: true, fa: true, agg: 60, z: [1, 2, null] },
      { ti: null, f: null, e: null, fa: true, agg: 2, z: null },
      { ti: [], f: [], e: false, fa: true, agg: 0, z: [] },
    ]);
  });

  it("the map functions and array_sort's comparator", async () => {
    const m = session.sql("SELECT map(1, 'a', 2, 'b') AS m, map(2, 'x') AS n, array(2, 3, 1) AS a");
    const [r] = await m
      .select(
        F.map_filter("m", (k) => k.gt(1)).alias("f"),
        F.transform_values("m", (k, v) => F.concat(v, k.cast("string"))).alias("tv"),
        F.transform_keys("m", (k) => k.plus(10)).alias("tk"),
        F.map_zip_with("m", "n", (_k, x, y) => F.coalesce(y, x)).alias("z"),
        F.array_sort("a", (l, r) => r.minus(l)).alias("desc"),
        F.array_sort("a").alias("asc"),
      )
      .collect();
    const entries = (x: unknown) => [...(x as Map<unknown, unknown>)];
    assert.deepEqual(entries(r!.f), [[2, "b"]]);
    assert.deepEqual(entries(r!.tv), [
      [1, "a1"],
      [2, "b2"],
    ]);
    assert.deepEqual(entries(r!.tk), [
      [11, "a"],
      [12, "b"],
    ]);
    assert.deepEqual(entries(r!.z), [
      [1, "a"],
      [2, "x"],
    ]);
    assert.deepEqual(r!.desc, [3, 2, 1]);
    assert.deepEqual(r!.asc, [1, 2, 3]);
  });

  it("a lambda must return a Column", () => {
    assert.throws(() => F.transform("a", (() => 1) as never), /must return a Column/);
  });
});

describe("higher-order functions: the vectorized evaluation equals a per-row reference (property)", () => {
  const arrays = fc.array(
    fc.option(fc.array(fc.option(fc.integer({ min: -50, max: 50 }), { nil: null }), { maxLength: 6 }), { nil: null }),
    {
      minLength: 1,
      maxLength: 12,
    },
  );
  const threeValued = (xs: (boolean | null)[], decisive: boolean): boolean | null =>
    xs.includes(decisive) ? decisive : xs.includes(null) ? null : !decisive;

  it("transform, filter, exists, forall and aggregate over random batches", async () => {
    await fc.assert(
      fc.asyncProperty(arrays, fc.integer({ min: -5, max: 5 }), async (rows, k) => {
        const d = session.createDataFrame(
          rows.map((a, i) => [i, a]),
          "id int, a array<int>",
        );
        const got = await d
          .selectExpr(
            "id",
            `transform(a, (x, i) -> x + i * ${k}) AS t`,
            `filter(a, x -> x > ${k}) AS f`,
            `exists(a, x -> x > ${k}) AS e`,
            `forall(a, x -> x > ${k}) AS fa`,
            "aggregate(a, 0L, (acc, x) -> acc + coalesce(x, 1)) AS s",
          )
          .orderBy("id")
          .collect();
        const gt = (x: number | null) => (x === null ? null : x > k);
        const want = rows.map((a, id) => ({
          id,
          t: a === null ? null : a.map((x, i) => (x === null ? null : x + i * k)),
          f: a === null ? null : a.filter((x) => gt(x) === true),
          e: a === null ? null : threeValued(a.map(gt), true),
          fa: a === null ? null : threeValued(a.map(gt), false),
          s: a === null ? null : a.reduce<number>((acc, x) => acc + (x ?? 1), 0),
        }));
        assert.deepEqual(got, want);
      }),
      { numRuns: 40 },
    );
  });
});
