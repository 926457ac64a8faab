/**
 * Result types and values of number functions as Spark 4.3 gives them (PySpark, local[1], UTC):
 * floor / ceil of any whole number are BIGINT; timestamp_seconds keeps a DECIMAL's fraction
 * exactly (it was truncated to whole seconds), timestamp_millis / _micros take whole numbers only.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { failureOf, typeAndText } from "./sql-probe.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const typed = (e: string) => typeAndText(session, e);
const failure = async (e: string) => (await failureOf(session, `SELECT ${e}`)).message;

describe("floor and ceil", () => {
  const CASES: readonly (readonly [string, string, string | null])[] = [
    ["floor(1)", "bigint", "1"],
    ["ceil(0)", "bigint", "0"],
    ["floor(CAST(1 AS TINYINT))", "bigint", "1"],
    ["floor(CAST(1 AS SMALLINT))", "bigint", "1"],
    ["ceil(2147483647L)", "bigint", "2147483647"],
    ["floor(1.5D)", "bigint", "1"],
    ["floor(-2.5)", "decimal(2,0)", "-3"],
    ["floor(NULL, 1)", "decimal(22,1)", null],
  ];
  for (const [e, type, value] of CASES) it(e, async () => assert.deepEqual(await typed(e), [type, value]));
});

describe("timestamp_seconds / _millis / _micros", () => {
  const CASES: readonly (readonly [string, string | null])[] = [
    ["timestamp_seconds(-2.5)", "1969-12-31 23:59:57.5"],
    ["timestamp_seconds(1.5)", "1970-01-01 00:00:01.5"],
    ["timestamp_seconds(CAST(-2.5 AS DECIMAL(20,10)))", "1969-12-31 23:59:57.5"],
    ["timestamp_seconds(1.5D)", "1970-01-01 00:00:01.5"],
    ["timestamp_seconds(CAST(1.5 AS FLOAT))", "1970-01-01 00:00:01.5"],
    ["timestamp_seconds(1)", "1970-01-01 00:00:01"],
    ["timestamp_seconds(NULL)", null],
    ["timestamp_millis(1)", "1970-01-01 00:00:00.001"],
  ];
  for (const [e, value] of CASES) it(e, async () => assert.deepEqual(await typed(e), ["timestamp", value]));

  it("refuse what Spark refuses", async () => {
    assert.equal(await failure("timestamp_seconds(1.0000005)"), "Rounding necessary");
    assert.equal(
      await failure("timestamp_seconds('1')"),
      '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "timestamp_seconds(1)" due to data type mismatch: The first parameter requires the "NUMERIC" type, however "1" has the type "STRING".',
    );
    assert.equal(
      await failure("timestamp_millis(-2.5)"),
      '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "timestamp_millis(-2.5)" due to data type mismatch: The first parameter requires the "INTEGRAL" type, however "-2.5" has the type "DECIMAL(2,1)".',
    );
    assert.match(await failure("timestamp_micros(true)"), /requires the "INTEGRAL" type, however "true" has the type "BOOLEAN"\.$/);
  });
});
