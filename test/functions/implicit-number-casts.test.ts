/**
 * Implicit casts into a number parameter, held to PySpark 4.3's answers: a number or a STRING is
 * cast, a DATE, TIMESTAMP, BOOLEAN or ARRAY is refused with UNEXPECTED_INPUT_TYPE (arus cast them:
 * factorial(true) was 1, bin of a TIMESTAMP its seconds' bits, make_timestamp's seconds from an
 * array 1) — factorial, bin, chr, space, the shifts, pow, make_dt_interval, make_timestamp and
 * the string functions' number parameters; into a BINARY parameter (hmac, decode) only a
 * STRING; and no ARRAY, MAP or STRUCT into a STRING parameter (arus cast them to their text).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  ["factorial(DATE'2024-03-15')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["factorial(true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["factorial('5')", { json: '{"r":120}', type: "bigint" }],
  ["factorial(5.7)", { json: '{"r":120}', type: "bigint" }],
  ["bin(TIMESTAMP'2024-03-15 10:20:30')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["bin(true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["bin('3')", { json: '{"r":"11"}', type: "string" }],
  ["chr(true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["chr('65')", { json: '{"r":"A"}', type: "string" }],
  ["char(DATE'2024-03-15')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["space(array(1, 2, 3))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["space(true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["space('2')", { json: '{"r":"  "}', type: "string" }],
  ["shiftleft(DATE'2024-03-15', 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["shiftleft(1, true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["shiftleft('1', '2')", { json: '{"r":4}', type: "int" }],
  ["pow(DATE'2024-03-15', 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["power(2, array(1))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["pow('2', '3')", { json: '{"r":8.0}', type: "double" }],
  ["make_dt_interval(true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["make_dt_interval(1, DATE'2024-03-15')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["make_dt_interval('1', '2')", { json: '{"r":"INTERVAL \'1 02:00:00\' DAY TO SECOND"}', type: "interval day to second" }],
  ["make_timestamp(2024, 1, 1, 1, 1, array(1))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["make_timestamp(2024, 1, 1, 1, 1, true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["make_timestamp('2024', '1', '1', '1', '1', '1.5')", { json: '{"r":"2024-01-01T01:01:01.500Z"}', type: "timestamp" }],
  ["substring_index('a.b.c', '.', true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  // BINARY parameters take a BINARY, a STRING (its bytes) or NULL only
  ["hmac(1, 2)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["hmac('a', 2)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["hex(hmac('a', 'b'))", { json: '{"r":"08DE329931E295683776AA9A43529BD0B275286DF3160300C49BA4E841833013"}', type: "string" }],
  ["decode(1, 'utf-8')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["decode(true, 'utf-8')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["decode(X'4142', 'utf-8')", { json: '{"r":"AB"}', type: "string" }],
  ["decode('AB', 'utf-8')", { json: '{"r":"AB"}', type: "string" }],
  // an ARRAY, MAP or STRUCT is never cast to a STRING implicitly (explicitly it is: string(...))
  ["btrim(array(1, 2, 3))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["levenshtein(map('a', 1), 'a')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["find_in_set(array(1, 2, 3), 'a')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["regexp_instr(array(1, 2, 3), '1')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["str_to_map(array(1, 2, 3))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["quote(array(1, 2, 3))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["concat_ws(map('a', 1), 'a')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["string(array(1))", { json: '{"r":"[1]"}', type: "string" }],
  ["concat_ws(',', array(1, 2))", { json: '{"r":"1,2"}', type: "string" }],
];

describe("implicit casts into number parameters (PySpark 4.3's answers)", () => {
  it("casts numbers and strings, refuses times, booleans and arrays", async () => {
    for (const [expr, expected] of PYSPARK) assert.deepEqual(await exprOutcome(session, expr), expected, expr);
  });
});
