/**
 * Column names Spark gives casts to complex types and aliased struct fields, as PySpark 4.3.0
 * prints them: `CAST(array(k) AS ARRAY<STRING>)` is named `array(k)` (Spark's Cast.sql prints a
 * cast to an ARRAY, MAP or STRUCT as its child), `struct(k AS p, v)` keeps its alias's expression.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { col, struct } from "../../src/api/functions.js";
import { session } from "./pyspark-tables.js";

describe("names of complex casts and aliased struct fields as PySpark", () => {
  it("a cast to ARRAY / MAP / STRUCT is named as its child; to STRING as before", () => {
    const df = session.sql(
      "SELECT CAST(array(k) AS array<string>), CAST(map(k, v) AS map<int, string>), CAST(named_struct('a', k) AS struct<b: bigint>), CAST(k AS STRING), CAST(1 AS STRING) FROM t1 WHERE k = 2",
    );
    assert.deepEqual(df.columns, ["array(k)", "map(k, v)", "named_struct(a, k)", "k", "CAST(1 AS STRING)"]);
    assert.deepEqual(
      df.dtypes.map(([, t]) => t),
      ["array<string>", "map<int,string>", "struct<b:bigint>", "string", "string"],
    );
  });

  it("struct(k AS p, v), struct(k, v AS q), struct(1, 2): names and field names", async () => {
    const df = session.sql("SELECT struct(k AS p, v), struct(k, v AS q), struct(1, 2) FROM t1 WHERE k = 2");
    assert.deepEqual(df.columns, ["struct(k AS p, v)", "struct(k, v AS q)", "struct(1, 2)"]);
    assert.deepEqual(
      df.dtypes.map(([, t]) => t),
      ["struct<p:int,v:int>", "struct<k:int,q:int>", "struct<col1:int,col2:int>"],
    );
    assert.equal(
      await df.showString(),
      "+-----------------+-----------------+------------+\n|struct(k AS p, v)|struct(k, v AS q)|struct(1, 2)|\n+-----------------+-----------------+------------+\n|           {2, 5}|           {2, 5}|      {1, 2}|\n+-----------------+-----------------+------------+\n",
    );
  });

  it("the DataFrame API names them the same way", () => {
    const df = session.sql("SELECT 1 AS a, 2 AS m").select(struct(col("a").alias("p"), "m"));
    assert.deepEqual(df.columns, ["struct(a AS p, m)"]);
  });
});
