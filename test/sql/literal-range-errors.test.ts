/**
 * Numeric literals out of their type's range fail as PySpark 4.3.0 fails them, by error class:
 * a DOUBLE or FLOAT beyond its range was Infinity (silently), a DECIMAL beyond 38 digits named
 * the wrong class, and every parse error said PARSE_SYNTAX_ERROR whatever its message's class.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const spark = Session.builder().getOrCreate();

const refused = (sql: string, errorClass: string, message: string) =>
  assert.throws(
    () => spark.sql(sql),
    (e: Error & { errorClass?: string }) => e.errorClass === errorClass && e.message.startsWith(message),
  );

describe("numeric literals out of range as PySpark", () => {
  it("a DOUBLE or FLOAT literal beyond its range: INVALID_NUMERIC_LITERAL_RANGE (was Infinity)", () => {
    refused(
      "SELECT 1.0E400",
      "INVALID_NUMERIC_LITERAL_RANGE",
      "[INVALID_NUMERIC_LITERAL_RANGE] Numeric literal 1.0E400 is outside the valid range for double with minimum value of -1.7976931348623157E+308 and maximum value of 1.7976931348623157E+308. Please adjust the value accordingly.",
    );
    refused("SELECT -1e309D", "INVALID_NUMERIC_LITERAL_RANGE", "[INVALID_NUMERIC_LITERAL_RANGE] Numeric literal -1e309 is outside");
    refused(
      "SELECT 3.5e38F",
      "INVALID_NUMERIC_LITERAL_RANGE",
      "[INVALID_NUMERIC_LITERAL_RANGE] Numeric literal 3.5e38 is outside the valid range for float with minimum value of -3.4028234663852886E+38 and maximum value of 3.4028234663852886E+38.",
    );
  });

  it("a DECIMAL of more than 38 digits: DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION with Spark's precision", () => {
    refused(
      "SELECT 99999999999999999999999999999999999999999",
      "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
      "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision 41 exceeds max precision 38.",
    );
    refused(
      "SELECT 1e400BD",
      "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
      "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision 401 exceeds max precision 38.",
    );
    refused(
      "SELECT 0.000000000000000000000000000000000000000001",
      "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
      "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision 42 exceeds max precision 38.",
    );
  });

  it("a TINYINT literal out of range keeps its class (the parse error names it)", () => {
    refused(
      "SELECT 128Y",
      "INVALID_NUMERIC_LITERAL_RANGE",
      "[INVALID_NUMERIC_LITERAL_RANGE] Numeric literal 128 is outside the valid range for tinyint",
    );
  });

  it("in range: the largest DOUBLE and a 38-digit DECIMAL are values", async () => {
    assert.deepEqual(await spark.sql("SELECT 1.7976931348623157E308").toArray(), [[1.7976931348623157e308]]);
    assert.deepEqual(spark.sql("SELECT 0.12345678901234567890123456789012345678").dtypes, [
      ["0.12345678901234567890123456789012345678", "decimal(38,38)"],
    ]);
  });
});
