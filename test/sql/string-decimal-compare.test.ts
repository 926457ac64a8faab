/**
 * A STRING compared with a DECIMAL, held to PySpark 4.3's answers: both sides are compared as
 * DOUBLE (so two 18-digit values that differ in the last digit compare equal, in Spark as in
 * arus), a string that is no number fails under ANSI, and blanks around the number are allowed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  ["'12345678901234567.1' = CAST('12345678901234567.2' AS DECIMAL(20,1))", { json: '{"r":true}', type: "boolean" }],
  ["'12345678901234567.2' = CAST('12345678901234567.2' AS DECIMAL(20,1))", { json: '{"r":true}', type: "boolean" }],
  ["'0.15' = CAST(0.1 AS DECIMAL(2,1))", { json: '{"r":false}', type: "boolean" }],
  ["'0.10' = CAST(0.1 AS DECIMAL(2,1))", { json: '{"r":true}', type: "boolean" }],
  ["'1e1' = CAST(10 AS DECIMAL(3,0))", { json: '{"r":true}', type: "boolean" }],
  ["'abc' = CAST(10 AS DECIMAL(3,0))", { error: "CAST_INVALID_INPUT" }],
  ["'123456' > CAST(10 AS DECIMAL(3,0))", { json: '{"r":true}', type: "boolean" }],
  ["CAST(10 AS DECIMAL(3,0)) < '9999.5'", { json: '{"r":true}', type: "boolean" }],
  ["'0.123456789012345678901' = CAST(0.1 AS DECIMAL(2,1))", { json: '{"r":false}', type: "boolean" }],
  ["' 1 ' = CAST(1 AS DECIMAL(3,0))", { json: '{"r":true}', type: "boolean" }],
];

describe("a STRING compared with a DECIMAL, as PySpark 4.3", () => {
  for (const [expr, expected] of PYSPARK) {
    it(expr, async () => {
      assert.deepEqual(await exprOutcome(session, expr), expected);
    });
  }
});
