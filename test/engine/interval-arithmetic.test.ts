/**
 * Day-time interval arithmetic and fields, held to PySpark 4.3's answers (to_json of a one-field
 * struct, and typeof; errors by class): interval * n, n * interval and interval / n (rounded half
 * up), date - date (an INTERVAL DAY), the fields of a sum of intervals, EXTRACT / date_part of an
 * interval's fields (they were NULL), and to_json of an interval (it failed).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  ["extract(HOUR FROM INTERVAL '1 02:03:04.5' DAY TO SECOND)", { json: '{"r":2}', type: "tinyint" }],
  ["extract(DAY FROM INTERVAL '1 02:03:04.5' DAY TO SECOND)", { json: '{"r":1}', type: "int" }],
  ["extract(MINUTE FROM INTERVAL '1 02:03:04.5' DAY TO SECOND)", { json: '{"r":3}', type: "tinyint" }],
  ["extract(SECOND FROM INTERVAL '1 02:03:04.5' DAY TO SECOND)", { json: '{"r":4.500000}', type: "decimal(8,6)" }],
  ["extract(HOUR FROM INTERVAL '-1 02:03:04.5' DAY TO SECOND)", { json: '{"r":-2}', type: "tinyint" }],
  ["extract(SECOND FROM -INTERVAL '1 02:03:04.5' DAY TO SECOND)", { json: '{"r":-4.500000}', type: "decimal(8,6)" }],
  ["extract(HOUR FROM INTERVAL '3' DAY)", { error: "INVALID_EXTRACT_FIELD" }],
  ["extract(DAY FROM INTERVAL '30' HOUR)", { error: "INVALID_EXTRACT_FIELD" }],
  ["extract(HOUR FROM INTERVAL '30' HOUR)", { json: '{"r":6}', type: "tinyint" }],
  ["extract(YEAR FROM INTERVAL '3' DAY)", { error: "INVALID_EXTRACT_FIELD" }],
  ["date_part('hour', INTERVAL '1 02:03:04' DAY TO SECOND)", { json: '{"r":2}', type: "tinyint" }],
  ["extract(H FROM INTERVAL '5' HOUR)", { json: '{"r":5}', type: "tinyint" }],
  ["extract(DAYS FROM INTERVAL '5' DAY)", { json: '{"r":5}', type: "int" }],
  ["extract(WEEK FROM INTERVAL '5' DAY)", { error: "INVALID_EXTRACT_FIELD" }],
  ["DATE'2024-03-01' - DATE'2024-02-01'", { json: '{"r":"INTERVAL \'29\' DAY"}', type: "interval day" }],
  ["DATE'2024-02-01' - DATE'2024-03-01'", { json: '{"r":"INTERVAL \'-29\' DAY"}', type: "interval day" }],
  ["CAST(NULL AS DATE) - DATE'2024-02-01'", { json: "{}", type: "interval day" }],
  ["INTERVAL 1 DAY * 2.5", { json: '{"r":"INTERVAL \'2 12:00:00\' DAY TO SECOND"}', type: "interval day to second" }],
  ["INTERVAL 3 HOURS / 2", { json: '{"r":"INTERVAL \'0 01:30:00\' DAY TO SECOND"}', type: "interval day to second" }],
  ["INTERVAL 1 DAY * 2", { json: '{"r":"INTERVAL \'2 00:00:00\' DAY TO SECOND"}', type: "interval day to second" }],
  ["2 * INTERVAL 1 DAY", { json: '{"r":"INTERVAL \'2 00:00:00\' DAY TO SECOND"}', type: "interval day to second" }],
  ["INTERVAL 1 DAY / 0", { error: "INTERVAL_DIVIDED_BY_ZERO" }],
  ["INTERVAL '1' SECOND * 0.0000001", { json: '{"r":"INTERVAL \'0 00:00:00\' DAY TO SECOND"}', type: "interval day to second" }],
  ["INTERVAL 1 DAY * CAST(NULL AS INT)", { json: "{}", type: "interval day to second" }],
  ["INTERVAL 1 DAY * 1.5D", { json: '{"r":"INTERVAL \'1 12:00:00\' DAY TO SECOND"}', type: "interval day to second" }],
  ["INTERVAL '0.000001' SECOND * 0.5", { json: '{"r":"INTERVAL \'0 00:00:00.000001\' DAY TO SECOND"}', type: "interval day to second" }],
  ["INTERVAL '0.000003' SECOND / 2", { json: '{"r":"INTERVAL \'0 00:00:00.000002\' DAY TO SECOND"}', type: "interval day to second" }],
  ["INTERVAL '-0.000003' SECOND / 2", { json: '{"r":"INTERVAL \'-0 00:00:00.000002\' DAY TO SECOND"}', type: "interval day to second" }],
  ["TIMESTAMP'2024-03-10 01:30:00' + INTERVAL 1 HOUR", { json: '{"r":"2024-03-10T02:30:00.000Z"}', type: "timestamp" }],
  [
    "TIMESTAMP'2024-01-01 00:00:00' - TIMESTAMP'2023-12-31 12:00:00'",
    { json: '{"r":"INTERVAL \'0 12:00:00\' DAY TO SECOND"}', type: "interval day to second" },
  ],
  ["INTERVAL '1 02:03:04.5' DAY TO SECOND", { json: '{"r":"INTERVAL \'1 02:03:04.5\' DAY TO SECOND"}', type: "interval day to second" }],
  ["INTERVAL 90 MINUTES", { json: '{"r":"INTERVAL \'90\' MINUTE"}', type: "interval minute" }],
  ["-INTERVAL 1 DAY", { json: '{"r":"INTERVAL \'-1\' DAY"}', type: "interval day" }],
  ["INTERVAL 1 DAY + INTERVAL 2 HOURS", { json: '{"r":"INTERVAL \'1 02\' DAY TO HOUR"}', type: "interval day to hour" }],
  ["CAST(INTERVAL 1 DAY AS STRING)", { json: '{"r":"INTERVAL \'1\' DAY"}', type: "string" }],
  ["extract(HOUR FROM INTERVAL '1 02:03:04' DAY TO SECOND)", { json: '{"r":2}', type: "tinyint" }],
];

describe("day-time interval arithmetic", () => {
  it("gives PySpark 4.3's answers", async () => {
    for (const [expr, expected] of PYSPARK) assert.deepEqual(await exprOutcome(session, expr), expected, expr);
  });

  it("fails on overflow as Spark does (its words: long overflow, input is infinite or NaN)", async () => {
    const fails = (sql: string, re: RegExp) => assert.rejects(session.sql(sql).toArray(), re);
    await fails("SELECT INTERVAL 1 DAY * 9223372036854775807L", /\[ARITHMETIC_OVERFLOW\] long overflow/);
    await fails("SELECT INTERVAL 1 DAY * double('inf')", /\[ARITHMETIC_OVERFLOW\] input is infinite or NaN/);
    await fails("SELECT INTERVAL 1 DAY / 1e-300D", /input is infinite or NaN/);
  });
});
