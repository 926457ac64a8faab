/**
 * FLOAT as Spark 4.3 (ANSI coercion) has it, held to PySpark 4.3's answers (to_json of a
 * one-field struct, and typeof; errors by class): a FLOAT with an integer type widens to DOUBLE
 * in arithmetic, greatest / coalesce / array / CASE (arus kept FLOAT), a FLOAT NaN stays NaN
 * through greatest, element_at, array_max and nullif (arus made it NULL), and ceil / floor of a
 * NaN are 0 (arus raised ARITHMETIC_OVERFLOW).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  ["abs(CAST('NaN' AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["negative(CAST('NaN' AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["round(CAST('NaN' AS FLOAT), 1)", { json: '{"r":"NaN"}', type: "float" }],
  ["bround(CAST('NaN' AS FLOAT), 1)", { json: '{"r":"NaN"}', type: "float" }],
  ["greatest(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["least(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT))", { json: '{"r":1.0}', type: "float" }],
  ["nanvl(CAST('NaN' AS FLOAT), CAST('NaN' AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["CAST('NaN' AS FLOAT) + CAST(1 AS FLOAT)", { json: '{"r":"NaN"}', type: "float" }],
  ["CAST(0 AS FLOAT) / CAST(0 AS FLOAT)", { error: "DIVIDE_BY_ZERO" }],
  ["try_divide(CAST(0 AS FLOAT), CAST(0 AS FLOAT))", { json: "{}", type: "double" }],
  ["CAST('NaN' AS FLOAT) * 2", { json: '{"r":"NaN"}', type: "double" }],
  ["element_at(array(CAST('NaN' AS FLOAT)), 1)", { json: '{"r":"NaN"}', type: "float" }],
  ["array_max(array(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT)))", { json: '{"r":"NaN"}', type: "float" }],
  ["array_min(array(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT)))", { json: '{"r":1.0}', type: "float" }],
  ["coalesce(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["if(true, CAST('NaN' AS FLOAT), CAST(1 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["CAST(CAST('NaN' AS DOUBLE) AS FLOAT)", { json: '{"r":"NaN"}', type: "float" }],
  ["CAST('Infinity' AS FLOAT) - CAST('Infinity' AS FLOAT)", { json: '{"r":"NaN"}', type: "float" }],
  ["signum(CAST('NaN' AS FLOAT))", { json: '{"r":"NaN"}', type: "double" }],
  ["pmod(CAST('NaN' AS FLOAT), CAST(2 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["CAST(5 AS FLOAT) % CAST(0 AS FLOAT)", { error: "REMAINDER_BY_ZERO" }],
  ["mod(CAST('NaN' AS FLOAT), CAST(2 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["aggregate(array(CAST(1 AS FLOAT)), CAST('NaN' AS FLOAT), (a, x) -> a + x)", { json: '{"r":"NaN"}', type: "float" }],
  ["transform(array(CAST('NaN' AS FLOAT)), x -> x * 2)", { json: '{"r":["NaN"]}', type: "array<double>" }],
  ["ifnull(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["nullif(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["try_add(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["try_multiply(CAST('NaN' AS FLOAT), CAST(1 AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["ceil(CAST('NaN' AS FLOAT))", { json: '{"r":0}', type: "bigint" }],
  ["positive(CAST('NaN' AS FLOAT))", { json: '{"r":"NaN"}', type: "float" }],
  ["CAST(1 AS FLOAT) * 2", { json: '{"r":2.0}', type: "double" }],
  ["CAST(1 AS FLOAT) + CAST(1 AS INT)", { json: '{"r":2.0}', type: "double" }],
  ["CAST(1 AS FLOAT) + CAST(1 AS SMALLINT)", { json: '{"r":2.0}', type: "double" }],
  ["CAST(1 AS FLOAT) + CAST(1 AS TINYINT)", { json: '{"r":2.0}', type: "double" }],
  ["CAST(1 AS FLOAT) + CAST(1 AS BIGINT)", { json: '{"r":2.0}', type: "double" }],
  ["CAST(1 AS FLOAT) + 1.5", { json: '{"r":2.5}', type: "double" }],
  ["CAST(1 AS FLOAT) + CAST(1 AS DECIMAL(3,1))", { json: '{"r":2.0}', type: "double" }],
  ["CAST(1 AS FLOAT) - 1", { json: '{"r":0.0}', type: "double" }],
  ["CAST(1 AS FLOAT) / 2", { json: '{"r":0.5}', type: "double" }],
  ["CAST(7 AS FLOAT) % 2", { json: '{"r":1.0}', type: "double" }],
  ["CAST(1 AS FLOAT) = 1", { json: '{"r":true}', type: "boolean" }],
  ["greatest(CAST(1 AS FLOAT), 2)", { json: '{"r":2.0}', type: "double" }],
  ["coalesce(CAST(1 AS FLOAT), 2)", { json: '{"r":1.0}', type: "double" }],
  ["array(CAST(1 AS FLOAT), 2)", { json: '{"r":[1.0,2.0]}', type: "array<double>" }],
  ["CASE WHEN true THEN CAST(1 AS FLOAT) ELSE 2 END", { json: '{"r":1.0}', type: "double" }],
  ["CAST(1 AS FLOAT) IN (1, 2)", { json: '{"r":true}', type: "boolean" }],
  ["pmod(CAST(7 AS FLOAT), 2)", { json: '{"r":1.0}', type: "double" }],
  ["CAST(1 AS FLOAT) + CAST(1 AS FLOAT)", { json: '{"r":2.0}', type: "float" }],
  ["CAST(1 AS INT) + CAST(1 AS DOUBLE)", { json: '{"r":2.0}', type: "double" }],
  ["CAST(1 AS FLOAT) < 2", { json: '{"r":true}', type: "boolean" }],
  ["nvl(CAST(1 AS FLOAT), 2)", { json: '{"r":1.0}', type: "double" }],
  ["ceil(CAST('NaN' AS DOUBLE))", { json: '{"r":0}', type: "bigint" }],
  ["floor(CAST('NaN' AS DOUBLE))", { json: '{"r":0}', type: "bigint" }],
  ["ceil(CAST('Infinity' AS DOUBLE))", { error: "ARITHMETIC_OVERFLOW" }],
  ["round(CAST('NaN' AS DOUBLE))", { json: '{"r":"NaN"}', type: "double" }],
  ["CAST(CAST('NaN' AS DOUBLE) AS BIGINT)", { error: "CAST_OVERFLOW" }],
  ["ceil(1e30)", { error: "ARITHMETIC_OVERFLOW" }],
  ["ceil(CAST(1e30 AS DOUBLE))", { error: "ARITHMETIC_OVERFLOW" }],
];

describe("FLOAT widening and NaN (PySpark 4.3's answers)", () => {
  it("every expression gives PySpark's value and type, or its error class", async () => {
    for (const [expr, expected] of PYSPARK) assert.deepEqual(await exprOutcome(session, expr), expected, expr);
  });

  it("with spark.sql.ansi.enabled=false the legacy rule keeps FLOAT with an integer (the conformance case numeric/small-types-legacy-wrap holds it to Spark)", async () => {
    const legacy = Session.builder().config("spark.sql.ansi.enabled", "false").getOrCreate();
    try {
      assert.deepEqual(await exprOutcome(legacy, "CAST(1 AS FLOAT) * 2"), { json: '{"r":2.0}', type: "float" });
    } finally {
      legacy.conf.set("spark.sql.ansi.enabled", "true");
    }
    assert.deepEqual(await exprOutcome(session, "CAST(1 AS FLOAT) * 2"), { json: '{"r":2.0}', type: "double" });
  });
});
