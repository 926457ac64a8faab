/**
 * Generators (explode, posexplode, inline and their _outer forms): rows, column names, types and
 * nullability as PySpark 4.3 gives them (each expectation below was checked there), the error
 * classes, the SQL forms, what the optimizer does around a Generate, and a streaming query.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DataFrame, functions as F } from "../../src/index.js";
import { addData, checkAnswer, checkLastBatch, testStream } from "../../src/testing/index.js";
import { utcSession } from "./helpers.js";

const session = utcSession();
const df = session.createDataFrame(
  [
    { id: 1, arr: [1, 2], m: new Map([["a", 1]]) },
    { id: 2, arr: [], m: new Map() },
    { id: 3, arr: null, m: null },
  ],
  "id INT, arr ARRAY<INT>, m MAP<STRING, INT>",
);
const structs = session.createDataFrame(
  [
    {
      id: 1,
      s: [
        { a: 1, b: "x" },
        { a: 2, b: null },
      ],
    },
    { id: 2, s: [] },
    { id: 3, s: null },
    { id: 4, s: [null] },
  ],
  "id INT, s ARRAY<STRUCT<a: INT, b: STRING>>",
);

/** `name:type:nullable` of every output column. */
const schemaOf = (d: DataFrame) => d.schema.fields.map((f) => `${f.name}:${f.type.kind}:${f.nullable}`);

describe("generators in select", () => {
  it("explode keeps the other columns beside it, in select order; NULL and empty arrays give no row", async () => {
    const d = df.select("id", F.explode("arr"));
    assert.deepEqual(schemaOf(d), ["id:int:true", "col:int:true"]);
    assert.deepEqual(await d.collect(), [
      { id: 1, col: 1 },
      { id: 1, col: 2 },
    ]);
    assert.deepEqual(await df.select(F.explode("arr").alias("word"), F.col("id").multiply(2)).collect(), [
      { word: 1, "(id * 2)": 2 },
      { word: 2, "(id * 2)": 2 },
    ]);
  });

  it("explode_outer keeps a NULL or empty array as one row of NULLs", async () => {
    assert.deepEqual(await df.select("id", F.explode_outer("arr")).collect(), [
      { id: 1, col: 1 },
      { id: 1, col: 2 },
      { id: 2, col: null },
      { id: 3, col: null },
    ]);
  });

  it("a map gives key (not null) and value; .alias takes both names; one name is UDTF_ALIAS_NUMBER_MISMATCH", async () => {
    const d = df.select("id", F.explode("m").alias("k", "v"));
    assert.deepEqual(schemaOf(d), ["id:int:true", "k:string:false", "v:int:true"]);
    assert.deepEqual(await d.collect(), [{ id: 1, k: "a", v: 1 }]);
    assert.throws(() => df.select(F.explode("m").alias("k")), /UDTF_ALIAS_NUMBER_MISMATCH/);
  });

  it("posexplode and posexplode_outer: pos not null, nullable in the _outer form", async () => {
    const d = df.select("id", F.posexplode("arr"));
    assert.deepEqual(schemaOf(d), ["id:int:true", "pos:int:false", "col:int:true"]);
    assert.deepEqual(await d.collect(), [
      { id: 1, pos: 0, col: 1 },
      { id: 1, pos: 1, col: 2 },
    ]);
    const o = df.select("id", F.posexplode_outer("m"));
    assert.deepEqual(schemaOf(o), ["id:int:true", "pos:int:true", "key:string:true", "value:int:true"]);
    assert.deepEqual(await o.collect(), [
      { id: 1, pos: 0, key: "a", value: 1 },
      { id: 2, pos: null, key: null, value: null },
      { id: 3, pos: null, key: null, value: null },
    ]);
  });

  it("inline gives the struct's fields; a NULL element is a row of NULLs; inline_outer keeps NULL and empty arrays", async () => {
    assert.deepEqual(await structs.select("id", F.inline("s")).collect(), [
      { id: 1, a: 1, b: "x" },
      { id: 1, a: 2, b: null },
      { id: 4, a: null, b: null },
    ]);
    assert.deepEqual(
      (await structs.select("id", F.inline_outer("s").alias("p", "q")).collect()).map((r) => [r.id, r.p, r.q]),
      [
        [1, 1, "x"],
        [1, 2, null],
        [2, null, null],
        [3, null, null],
        [4, null, null],
      ],
    );
  });

  it("withColumn replaces a column in place; two generators in one select nest, the first outermost", async () => {
    assert.deepEqual(await df.withColumn("arr", F.explode("arr")).select("id", "arr").collect(), [
      { id: 1, arr: 1 },
      { id: 1, arr: 2 },
    ]);
    // The second generator's `arr` is the input's, not the first one's output named `arr`.
    const two = df.select(F.explode("arr").alias("arr"), F.explode("arr").alias("y")).withColumnRenamed("arr", "x");
    assert.deepEqual(await two.collect(), [
      { x: 1, y: 1 },
      { x: 1, y: 2 },
      { x: 2, y: 1 },
      { x: 2, y: 2 },
    ]);
  });

  it("a generator over an aggregate (groupBy().agg) runs on the aggregated rows; two are MULTI_GENERATOR", async () => {
    const d = df
      .groupBy("id")
      .agg(F.explode(F.collect_list("id")).alias("x"))
      .orderBy("id");
    assert.deepEqual(schemaOf(d), ["id:int:true", "x:int:false"]);
    assert.deepEqual(await d.collect(), [
      { id: 1, x: 1 },
      { id: 2, x: 2 },
      { id: 3, x: 3 },
    ]);
    assert.throws(
      () => df.groupBy("id").agg(F.explode(F.collect_list("id")), F.explode(F.collect_list("id"))),
      /UNSUPPORTED_GENERATOR\.MULTI_GENERATOR/,
    );
  });
});

describe("generator errors (Spark's classes)", () => {
  it("nested in an expression, outside a select, on a non-collection, a multi-name alias without a generator", () => {
    assert.throws(() => df.select(F.explode("arr").plus(1)), /UNSUPPORTED_GENERATOR\.NESTED_IN_EXPRESSIONS.*"\(explode\(arr\) \+ 1\)"/);
    assert.throws(() => df.select(F.upper(F.explode("arr"))), /NESTED_IN_EXPRESSIONS/);
    assert.throws(() => df.filter(F.explode("arr").gt(1)), /UNSUPPORTED_GENERATOR\.OUTSIDE_SELECT/);
    assert.throws(() => df.orderBy(F.explode("arr")), /UNSUPPORTED_GENERATOR\.OUTSIDE_SELECT/);
    assert.throws(
      () => df.select(F.explode("id")),
      /DATATYPE_MISMATCH\.UNEXPECTED_INPUT_TYPE.*requires the \("ARRAY" or "MAP"\) type, however "id" has the type "INT"/,
    );
    assert.throws(() => df.select(F.col("id").alias("a", "b")), /MULTI_ALIAS_WITHOUT_GENERATOR/);
  });
});

describe("generators in SQL", () => {
  df.createOrReplaceTempView("gen_t");
  const sql = (q: string) => session.sql(q).collect();

  it("SELECT explode(arr) AS x, posexplode(arr) AS (p, v), explode(map) AS (k, v)", async () => {
    assert.deepEqual(await sql("SELECT id, explode(arr) AS x FROM gen_t"), [
      { id: 1, x: 1 },
      { id: 1, x: 2 },
    ]);
    assert.deepEqual(await sql("SELECT posexplode(arr) AS (p, v) FROM gen_t"), [
      { p: 0, v: 1 },
      { p: 1, v: 2 },
    ]);
    assert.deepEqual(await sql("SELECT explode(m) AS (k, v) FROM gen_t"), [{ k: "a", v: 1 }]);
    assert.throws(() => session.sql("SELECT explode(arr) AS (x, y) FROM gen_t"), /UDTF_ALIAS_NUMBER_MISMATCH/);
    assert.throws(() => session.sql("SELECT * FROM gen_t WHERE explode(arr) > 1"), /OUTSIDE_SELECT/);
  });

  it("LATERAL VIEW [OUTER], qualified columns, default names, AS optional, several views, WHERE on the generated column", async () => {
    assert.deepEqual(await sql("SELECT id, tbl.c FROM gen_t LATERAL VIEW explode(arr) tbl AS c"), [
      { id: 1, c: 1 },
      { id: 1, c: 2 },
    ]);
    assert.deepEqual(await sql("SELECT id, tbl.col FROM gen_t LATERAL VIEW OUTER explode(arr) tbl"), [
      { id: 1, col: 1 },
      { id: 1, col: 2 },
      { id: 2, col: null },
      { id: 3, col: null },
    ]);
    assert.deepEqual(
      await sql("SELECT x.id, c, k, v FROM gen_t x LATERAL VIEW explode(x.arr) a c LATERAL VIEW explode(m) b AS k, v WHERE c > 1"),
      [{ id: 1, c: 2, k: "a", v: 1 }],
    );
    assert.throws(() => session.sql("SELECT * FROM gen_t LATERAL VIEW explode(m) tbl AS k"), /UDTF_ALIAS_NUMBER_MISMATCH/);
    assert.throws(() => session.sql("SELECT * FROM gen_t LATERAL VIEW upper('a') tbl"), /UNSUPPORTED_GENERATOR\.NOT_GENERATOR/);
  });
});

describe("json_tuple", () => {
  it("one row per input row, fields c0, c1 as text; NULL for null, missing, invalid or a non-object", async () => {
    const js = session.createDataFrame(
      [
        { id: 1, j: '{"a": 1.50, "b": "x", "c": {"d": [1, 2.0]}}' },
        { id: 2, j: "[1]" },
        { id: 3, j: null },
        { id: 4, j: '{"a":1,"a":2}' },
      ],
      "id INT, j STRING",
    );
    const d = js.select("id", F.json_tuple("j", "a", "b", "c"));
    assert.deepEqual(schemaOf(d), ["id:int:true", "c0:string:true", "c1:string:true", "c2:string:true"]);
    assert.deepEqual(await d.collect(), [
      { id: 1, c0: "1.5", c1: "x", c2: '{"d":[1,2.0]}' },
      { id: 2, c0: null, c1: null, c2: null },
      { id: 3, c0: null, c1: null, c2: null },
      { id: 4, c0: "2", c1: null, c2: null },
    ]);
    assert.deepEqual(await session.sql(`SELECT json_tuple('{"x": 1E400}', 'x') AS (x)`).collect(), [{ x: '"Infinity"' }]);
    assert.throws(() => session.sql(`SELECT json_tuple('{"a":1}')`), /WRONG_NUM_ARGS.*requires > 1 parameters/);
    assert.throws(() => session.sql(`SELECT json_tuple('{"a":1}', 1)`), /DATATYPE_MISMATCH\.NON_STRING_TYPE/);
  });
});

describe("stack and generators in FROM", () => {
  it("stack(n, ...) lays the values out row by row, NULL for missing ones; Spark's type errors", async () => {
    assert.deepEqual(await session.sql("SELECT stack(2, 1, 'a', 2) AS (n, s)").collect(), [
      { n: 1, s: "a" },
      { n: 2, s: null },
    ]);
    const wide = session.createDataFrame([{ id: 1, q1: 10, q2: 20 }], "id INT, q1 INT, q2 INT");
    const long = wide.select("id", F.stack(2, F.lit("q1"), "q1", F.lit("q2"), "q2").alias("quarter", "amount"));
    assert.deepEqual(schemaOf(long), ["id:int:true", "quarter:string:true", "amount:int:true"]);
    assert.deepEqual(await long.collect(), [
      { id: 1, quarter: "q1", amount: 10 },
      { id: 1, quarter: "q2", amount: 20 },
    ]);
    assert.throws(() => session.sql("SELECT stack(2, 1, 'a')"), /STACK_COLUMN_DIFF_TYPES.*column \(0\).*"INT" \(1\) <> "STRING" \(2\)/);
    assert.throws(() => session.sql("SELECT stack(0, 1)"), /DATATYPE_MISMATCH\.VALUE_OUT_OF_RANGE/);
    assert.throws(() => session.sql("SELECT stack(id, 1) FROM range(2)"), /UNEXPECTED_INPUT_TYPE.*"INT" type/);
  });

  it("a generator as a table in FROM runs over one row, its columns qualified by the alias", async () => {
    assert.deepEqual(await session.sql("SELECT t.col FROM explode(array(1, 2)) t").collect(), [{ col: 1 }, { col: 2 }]);
    assert.deepEqual(await session.sql("SELECT * FROM posexplode(array('a'))").collect(), [{ pos: 0, col: "a" }]);
    assert.deepEqual(await session.sql("SELECT * FROM explode_outer(array())").collect(), [{ col: null }]);
    assert.deepEqual(await session.sql(`SELECT * FROM json_tuple('{"a":1}', 'a')`).collect(), [{ c0: "1" }]);
  });
});

describe("the optimizer around Generate", () => {
  it("does not copy child columns nobody reads onto the generated rows (unrequiredChildIndex)", () => {
    const lines = session.createDataFrame([{ value: "a b" }], "value STRING");
    const plan = lines.select(F.explode(F.split("value", " ")).alias("word")).explainString();
    assert.match(plan, /Generate explode\(split\(value, {2}, -1\)\), \[\], false, \[word#\d+\]/);
  });

  it("infers isnotnull(arr) AND size(arr) > 0 under explode of a column (not under explode_outer), below a filter on the child", () => {
    const plan = df.select("id", F.explode("arr")).filter(F.col("id").gt(0)).explainString(true);
    const optimized = plan.slice(plan.indexOf("== Optimized"), plan.indexOf("== Physical"));
    assert.match(
      optimized,
      // PySpark 4.3 puts the pushed filter first: it pushes before it infers from the Generate.
      /Generate explode\(arr\)[^\n]*\n\s*\+- Filter \(\(\(id IS NOT NULL\) AND \(id > 0\)\) AND \(\(arr IS NOT NULL\) AND \(size\(arr\) > 0\)\)\)\n\s*\+- LocalRelation/,
    );
    const outer = df.select("id", F.explode_outer("arr")).explainString(true);
    assert.doesNotMatch(outer.slice(outer.indexOf("== Optimized")), /size\(arr\)/);
  });
});

describe("generators on a stream", () => {
  it("the quick-start word count, complete mode", async () => {
    const ms = session.memoryStream("value STRING");
    const counts = ms
      .toDF()
      .select(F.explode(F.split(F.col("value"), " ")).alias("word"))
      .groupBy("word")
      .count();
    await testStream(counts, "complete", [
      addData(ms, [{ value: "apache spark" }, { value: "apache hadoop" }]),
      checkAnswer([
        { word: "apache", count: 2 },
        { word: "spark", count: 1 },
        { word: "hadoop", count: 1 },
      ]),
      addData(ms, [{ value: "spark  arus" }, { value: null }]),
      checkAnswer([
        { word: "apache", count: 2 },
        { word: "spark", count: 2 },
        { word: "hadoop", count: 1 },
        { word: "", count: 1 },
        { word: "arus", count: 1 },
      ]),
    ]);
  });

  it("posexplode_outer in append mode, batch by batch", async () => {
    const ms = session.memoryStream("id INT, arr ARRAY<STRING>");
    const d = ms.toDF().select("id", F.posexplode_outer("arr"));
    await testStream(d, "append", [
      addData(ms, [
        { id: 1, arr: ["a", "b"] },
        { id: 2, arr: null },
      ]),
      checkLastBatch([
        { id: 1, pos: 0, col: "a" },
        { id: 1, pos: 1, col: "b" },
        { id: 2, pos: null, col: null },
      ]),
      addData(ms, [{ id: 3, arr: [] }]),
      checkLastBatch([{ id: 3, pos: null, col: null }]),
    ]);
  });
});
