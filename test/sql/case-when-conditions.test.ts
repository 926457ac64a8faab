/**
 * The condition of a CASE WHEN, `if` and an aggregate's FILTER, held to PySpark 4.3's answers: a
 * CASE WHEN condition must be a BOOLEAN — a NULL literal (VOID) too is refused, with Spark's
 * UNEXPECTED_INPUT_TYPE naming the branch ("The second parameter"; arus took NULL as false and
 * said FILTER_NOT_BOOLEAN for other types) —, `if` takes a NULL condition, a FILTER clause refuses
 * NULL (INVALID_AGGREGATE_FILTER.NOT_BOOLEAN). Spark's ordinals go first, second, third, 4th.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  ["CASE WHEN NULL THEN 1 END", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["CASE WHEN NULL THEN 1 ELSE 2 END", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["CASE WHEN true THEN 1 WHEN NULL THEN 2 END", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["CASE WHEN 1 THEN 2 END", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["CASE WHEN 'true' THEN 1 ELSE 2 END", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["CASE WHEN cast(NULL as boolean) THEN 1 ELSE 2 END", { json: '{"r":2}', type: "int" }],
  ["CASE 1 WHEN NULL THEN 1 ELSE 2 END", { json: '{"r":2}', type: "int" }],
  ["if(NULL, 1, 2)", { json: '{"r":2}', type: "int" }],
  ["if(1, 2, 3)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
];

/** The messages as PySpark 4.3.0 gives them (up to its SQLSTATE suffix). */
const MESSAGES: [string, string][] = [
  [
    "CASE WHEN true THEN 1 WHEN NULL THEN 2 END",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "CASE WHEN true THEN 1 WHEN NULL THEN 2 END" due to data type mismatch: The second parameter requires the "BOOLEAN" type, however "NULL" has the type "VOID".',
  ],
  [
    "CASE WHEN true THEN 1 WHEN true THEN 2 WHEN true THEN 3 WHEN 1 THEN 4 END",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "CASE WHEN true THEN 1 WHEN true THEN 2 WHEN true THEN 3 WHEN 1 THEN 4 END" due to data type mismatch: The 4th parameter requires the "BOOLEAN" type, however "1" has the type "INT".',
  ],
  [
    "if(1, 2, 3)",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "(IF(1, 2, 3))" due to data type mismatch: The first parameter requires the "BOOLEAN" type, however "1" has the type "INT".',
  ],
  [
    "make_timestamp(2024, 1, 1, 1, 1, array(1))",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "make_timestamp(2024, 1, 1, 1, 1, array(1))" due to data type mismatch: The 6th parameter requires the "DECIMAL(16,6)" type, however "array(1)" has the type "ARRAY<INT>".',
  ],
];

describe("CASE WHEN, if and FILTER conditions (PySpark 4.3's answers)", () => {
  it("accepts BOOLEAN conditions and refuses others, a NULL literal too, as Spark does", async () => {
    for (const [expr, expected] of PYSPARK) assert.deepEqual(await exprOutcome(session, expr), expected, expr);
  });

  it("names the branch as Spark's ordinals do", async () => {
    for (const [expr, message] of MESSAGES) await assert.rejects(async () => session.sql(`SELECT ${expr}`).collect(), { message }, expr);
  });

  it("refuses F.when over a NULL literal, and a FILTER (WHERE NULL)", async () => {
    assert.throws(() => session.range(1).select(F.when(F.lit(null), 1).alias("r")), /UNEXPECTED_INPUT_TYPE/);
    await assert.rejects(
      async () => session.sql("SELECT count(x) FILTER (WHERE NULL) FROM VALUES (1) AS t(x)").collect(),
      /INVALID_AGGREGATE_FILTER.NOT_BOOLEAN/,
    );
  });
});
