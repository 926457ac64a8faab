/**
 * unionByName and colRegex as PySpark 4.3.0: with allowMissingColumns the output has every
 * input's columns (was: only the first input's, the others' extra columns dropped silently);
 * without it, an input with more columns is NUM_COLUMNS_MISMATCH (was: its extras dropped) and
 * one lacking a column UNRESOLVED_COLUMN_AMONG_FIELD_NAMES. colRegex did not exist.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const spark = Session.builder().getOrCreate();
const a = spark.createDataFrame([[1, 2]], "k INT, v INT");
const b = spark.createDataFrame([[3, "x"]], "k INT, t STRING");
const c = spark.createDataFrame([[3, 4, "x"]], "v INT, k INT, t STRING");
const d = spark.createDataFrame([[5, 6]], "V INT, K BIGINT");

async function shape(df: ReturnType<typeof a.unionByName>) {
  return { cols: df.columns, types: df.dtypes.map(([, t]) => t), rows: await df.toArray() };
}
const refused = (run: () => unknown, errorClass: string, message: string) =>
  assert.throws(run, (e: Error & { errorClass?: string }) => e.errorClass === errorClass && e.message.startsWith(message));

describe("unionByName as PySpark", () => {
  it("allowMissingColumns: the first input's columns, then the others' new ones, NULL where missing", async () => {
    assert.deepEqual(await shape(a.unionByName(b, true)), {
      cols: ["k", "v", "t"],
      types: ["int", "int", "string"],
      rows: [
        [1, 2, null],
        [3, null, "x"],
      ],
    });
    assert.deepEqual(await shape(b.unionByName(a, true)), {
      cols: ["k", "t", "v"],
      types: ["int", "string", "int"],
      rows: [
        [3, "x", null],
        [1, null, 2],
      ],
    });
    assert.deepEqual(await shape(a.unionByName(c, true)), {
      cols: ["k", "v", "t"],
      types: ["int", "int", "string"],
      rows: [
        [1, 2, null],
        [4, 3, "x"],
      ],
    });
    assert.deepEqual((await shape(a.unionByName(b, true).unionByName(c, true))).rows, [
      [1, 2, null],
      [3, null, "x"],
      [4, 3, "x"],
    ]);
  });

  it("without it: a missing column, or more columns, is refused as Spark refuses it", () => {
    refused(
      () => a.unionByName(b),
      "UNRESOLVED_COLUMN_AMONG_FIELD_NAMES",
      '[UNRESOLVED_COLUMN_AMONG_FIELD_NAMES] Cannot resolve column name "v" among (k, t).',
    );
    refused(
      () => c.unionByName(a),
      "UNRESOLVED_COLUMN_AMONG_FIELD_NAMES",
      '[UNRESOLVED_COLUMN_AMONG_FIELD_NAMES] Cannot resolve column name "t" among (k, v).',
    );
    refused(
      () => a.unionByName(c),
      "NUM_COLUMNS_MISMATCH",
      "[NUM_COLUMNS_MISMATCH] UNION can only be performed on inputs with the same number of columns, but the first input has 2 columns and the second input has 3 columns.",
    );
  });

  it("a column name twice in an input: COLUMN_ALREADY_EXISTS (was: the first picked twice)", () => {
    refused(
      () => spark.sql("SELECT 1 a, 2 a").unionByName(spark.sql("SELECT 3 a, 4 a")),
      "COLUMN_ALREADY_EXISTS",
      "[COLUMN_ALREADY_EXISTS] The column `a` already exists.",
    );
    refused(
      () => spark.sql("SELECT 1 a, 2 b").unionByName(spark.sql("SELECT 3 A, 4 a"), true),
      "COLUMN_ALREADY_EXISTS",
      "[COLUMN_ALREADY_EXISTS] The column `a` already exists.",
    );
  });

  it("names match case-insensitively; the types widen", async () => {
    assert.deepEqual(await shape(a.unionByName(d)), {
      cols: ["k", "v"],
      types: ["bigint", "int"],
      rows: [
        [1, 2],
        [6, 5],
      ],
    });
  });
});

describe("colRegex as PySpark", () => {
  const df = spark.createDataFrame([[1, 2, "a"]], "k INT, v INT, s STRING");
  it("a backquoted Java regex selects the columns it matches whole, case-insensitively", () => {
    assert.deepEqual(df.select(df.colRegex("`(k|s)`")).columns, ["k", "s"]);
    assert.deepEqual(df.select(df.colRegex("`K.*`")).columns, ["k"]);
    assert.deepEqual(df.select(df.colRegex("`zz`")).columns, []);
    assert.deepEqual(df.select(df.colRegex("`.*`"), "k").columns, ["k", "v", "s", "k"]);
  });
  it("qualified (t.`regex`) and plain names", () => {
    const t = df.alias("t");
    assert.deepEqual(t.select(t.colRegex("t.`[kv]`")).columns, ["k", "v"]);
    assert.deepEqual(df.select(df.colRegex("v")).columns, ["v"]);
  });
});
