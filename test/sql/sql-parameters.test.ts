/**
 * Parameterized queries, PySpark's `spark.sql(text, args)`: `:name` markers bound from an object
 * (or Map), `?` markers from an array, each value a literal (never SQL text) or a Column. Every
 * expected column, type, row and error class is PySpark 4.3.0's for the same call.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { array, lit } from "../../src/api/functions.js";
import { Session } from "../../src/index.js";

const spark = Session.builder().getOrCreate();

async function result(df: ReturnType<typeof spark.sql>) {
  return { cols: df.columns, types: df.dtypes.map(([, t]) => t), rows: await df.toArray() };
}

const fails = (run: () => unknown, errorClass: string, text: RegExp) =>
  assert.throws(run, (e: Error & { errorClass?: string }) => e.errorClass === errorClass && text.test(e.message));

describe("session.sql(text, args) as PySpark", () => {
  it("named markers: a value is a literal, named as Spark names it", async () => {
    assert.deepEqual(await result(spark.sql("SELECT :x, :y, :x + 1", { x: 5, y: "ab'c" })), {
      cols: ["5", "ab'c", "(5 + 1)"],
      types: ["int", "string", "int"],
      rows: [[5, "ab'c", 6]],
    });
    assert.deepEqual(await result(spark.sql("SELECT :a", new Map([["a", 3000000000]]))), {
      cols: ["3000000000"],
      types: ["bigint"],
      rows: [[3000000000]],
    });
    assert.deepEqual(await result(spark.sql("SELECT :a", { a: null })), { cols: ["NULL"], types: ["void"], rows: [[null]] });
  });

  it("positional markers, in order", async () => {
    assert.deepEqual(await result(spark.sql("SELECT ?, ?", [1, "a"])), { cols: ["1", "a"], types: ["int", "string"], rows: [[1, "a"]] });
    assert.deepEqual(await result(spark.sql("SELECT ? + 1", [2.5])), { cols: ["(2.5 + 1)"], types: ["double"], rows: [[3.5]] });
  });

  it("a Column value stands for itself (array(1, 2), lit(7))", async () => {
    assert.deepEqual(await result(spark.sql("SELECT :a, :b", { a: array(lit(1), lit(2)), b: lit(7) })), {
      cols: ["array(1, 2)", "7"],
      types: ["array<int>", "int"],
      rows: [[[1, 2], 7]],
    });
  });

  it("in WHERE and LIMIT; quoted ':x' and `:x` and a::cast are not markers", async () => {
    assert.deepEqual((await result(spark.sql("SELECT * FROM range(10) WHERE id > :lo AND id < :hi", { lo: 3, hi: 6 }))).rows, [[4], [5]]);
    assert.deepEqual((await result(spark.sql("SELECT id FROM range(5) LIMIT :n", { n: 2 }))).rows, [[0], [1]]);
    assert.deepEqual(await result(spark.sql("SELECT ':x', `:x` FROM (SELECT 1 AS `:x`)", { x: 1 })), {
      cols: [":x", ":x"],
      types: ["string", "int"],
      rows: [[":x", 1]],
    });
    assert.deepEqual((await result(spark.sql("SELECT CAST('1' AS INT)::string, :x", { x: 1 }))).cols, [
      "CAST(CAST(1 AS INT) AS STRING)",
      "1",
    ]);
  });

  it("a marker the parser reads twice (backtracking) binds one value; a struct type's a:BIGINT is no marker", async () => {
    assert.deepEqual((await result(spark.sql("SELECT substr(?, 2), ?", ["hello", "x"]))).rows, [["ello", "x"]]);
    assert.deepEqual((await result(spark.sql("SELECT trim(?)", [" a "]))).rows, [["a"]]);
    assert.deepEqual((await result(spark.sql("SELECT * FROM ((SELECT ? AS a) x JOIN (SELECT 1 AS b) y ON true)", [5]))).rows, [[5, 1]]);
    assert.deepEqual((await result(spark.sql("SELECT CAST(named_struct('a', ?) AS STRUCT<a:BIGINT>).a", [1]))).rows, [[1]]);
  });

  it("an unbound marker: UNBOUND_SQL_PARAMETER, a positional one named by its offset", () => {
    fails(() => spark.sql("SELECT :x"), "UNBOUND_SQL_PARAMETER", /unbound parameter: x\./);
    fails(() => spark.sql("SELECT :x", { y: 1 }), "UNBOUND_SQL_PARAMETER", /unbound parameter: x\./);
    fails(() => spark.sql("SELECT ?"), "UNBOUND_SQL_PARAMETER", /unbound parameter: _7\./);
    fails(() => spark.sql("SELECT ?, ?", [1]), "UNBOUND_SQL_PARAMETER", /unbound parameter: _10\./);
  });

  it("named and positional markers together: INVALID_QUERY_MIXED_QUERY_PARAMETERS", () => {
    fails(() => spark.sql("SELECT :x, ?", { x: 1 }), "INVALID_QUERY_MIXED_QUERY_PARAMETERS", /either use positional, or named/);
  });
});
