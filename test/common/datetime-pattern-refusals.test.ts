/**
 * The error Spark 4.3 raises for each refused datetime pattern, held to PySpark 4.3's classes:
 * its own letter checks first (week-based letters, unsupported letters, narrow forms), then
 * java.time's; DATETIME_PATTERN_RECOGNITION whenever Spark 2's SimpleDateFormat would have taken
 * the pattern (arus said INVALID_DATETIME_PATTERN for most). Patterns Spark accepts are checked
 * by value too.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'u')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'uu')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'uuuu')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'w')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'W')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'Y')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'e')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'c')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'w u')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'u w')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["to_timestamp('2024', 'u')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["to_timestamp('2024', 'uuuu')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["to_timestamp('10', 'w')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["to_timestamp('1709633472', 'ssssssssss')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["to_timestamp('17', 'sss')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'sss')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'ddd')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'DDDD')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'HHH')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["to_timestamp('005', 'ddd')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'aa')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  [
    "date_format(TIMESTAMP'2024-03-05 07:08:09', 'SSSSSSSSSS')",
    { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" },
  ],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'zzzzz')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'A')", { error: "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'MMMMM')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyyyyy')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'VV')", { json: '{"r":"UTC"}', type: "string" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'V')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'OO')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'XXXXXX')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'j')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy{')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy#')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy''abc')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy]')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'QQQQQ')", { error: "INVALID_DATETIME_PATTERN.LENGTH" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'XXXX')", { json: '{"r":"Z"}', type: "string" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'GGGGG')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'EEEEE')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'n')", { error: "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'N')", { error: "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'B')", { error: "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'p')", { error: "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'LLLLL')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'ZZZZZZ')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'xxxxxx')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'vv')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'qqqqq')", { error: "INVALID_DATETIME_PATTERN.LENGTH" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'hhh')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy-MM-dd j')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["to_timestamp('2024', 'yyyy j')", { error: "INVALID_DATETIME_PATTERN.WITH_SUGGESTION" }],
  ["to_date('2024', 'yyyy{')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy e')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'A e')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'e A')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'sss e')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'e sss')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" }],
  ["to_timestamp('Fri 2026', 'EEE yyyy')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["to_timestamp('2026 1', 'yyyy Q')", { error: "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER" }],
  ["to_timestamp('2026 1', 'yyyy q')", { error: "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER" }],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy QQQQQ')", { error: "INVALID_DATETIME_PATTERN.LENGTH" }],
  [
    "date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyyyyyyyyy')",
    { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" },
  ],
  [
    "date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy''abc'' e')",
    { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" },
  ],
  ["date_format(TIMESTAMP'2024-03-05 07:08:09', 'yyyy{ e')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN" }],
  ["to_date('2024', 'yyyy A')", { error: "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER" }],
  // F: JDK 17's aligned day of week in the month (Spark runs on it), one letter only; refused when parsing
  ["date_format(TIMESTAMP'2024-03-15 10:20:30', 'F')", { json: '{"r":"1"}', type: "string" }],
  ["date_format(TIMESTAMP'2024-03-07 10:20:30', 'F')", { json: '{"r":"7"}', type: "string" }],
  ["date_format(TIMESTAMP'2024-03-08 10:20:30', 'F')", { json: '{"r":"1"}', type: "string" }],
  ["date_format(TIMESTAMP'2024-03-29 10:20:30', 'F')", { json: '{"r":"1"}', type: "string" }],
  ["date_format(TIMESTAMP'2024-03-15 10:20:30', 'FF')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
  ["to_timestamp('3 2024-03', 'F yyyy-MM')", { error: "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION" }],
];

describe("datetime pattern refusals (PySpark 4.3's error classes)", () => {
  it("each pattern gives PySpark's value or error class", async () => {
    for (const [expr, expected] of PYSPARK) assert.deepEqual(await exprOutcome(session, expr), expected, expr);
  });
});
