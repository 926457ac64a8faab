/**
 * What Spark 4.3 casts implicitly and what it refuses, for the pattern functions and the time
 * parsers (PySpark, local[1], UTC): LIKE / RLIKE take any atomic value as text; to_timestamp /
 * to_date of a DATE or TIMESTAMP leave the pattern unused, to_date reads a number or a boolean as
 * text; unix_timestamp refuses a number and a non-STRING pattern.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { failureOf, typeAndText } from "./sql-probe.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const value = async (e: string) => (await typeAndText(session, e))[1];
const failure = async (e: string) => (await failureOf(session, `SELECT ${e}`)).message;

describe("implicit inputs", () => {
  it("LIKE and RLIKE take numbers and dates as their text", async () => {
    const cases: [string, string | null][] = [
      ["like(1, 2)", "false"],
      ["12 LIKE '1%'", "true"],
      ["rlike(DATE'2024-03-15', 1)", "true"],
      ["regexp_like(-7, 3)", "false"],
      ["ilike(NULL, 1)", null],
    ];
    for (const [e, v] of cases) assert.equal(await value(e), v, e);
    assert.match(
      await failure("like(array(1, 2, 3), 1)"),
      /^\[DATATYPE_MISMATCH\.UNEXPECTED_INPUT_TYPE\].*requires the "STRING" type, however "array\(1, 2, 3\)" has the type "ARRAY<INT>"\.$/,
    );
  });

  it("to_timestamp / to_date / unix_timestamp of a time leave the pattern unused", async () => {
    const cases: [string, string | null][] = [
      ["to_timestamp(DATE'2024-03-15', 1)", "2024-03-15 00:00:00"],
      ["to_date(TIMESTAMP'2024-03-15 10:20:30', 'yyyy-MM-dd')", "2024-03-15"],
      ["unix_timestamp(TIMESTAMP'2024-03-15 10:20:30', 'yyyy-MM-dd')", "1710498030"],
      ["to_timestamp(NULL, 1)", null],
      ["try_to_date(DATE'2024-03-15', 1)", "2024-03-15"],
    ];
    for (const [e, v] of cases) assert.equal(await value(e), v, e);
  });

  it("to_date reads a number or a boolean as its text, to_timestamp a boolean (try_ forms: NULL)", async () => {
    for (const [e, type] of [
      ["to_date(1)", "DATE"],
      ["to_date(1.5)", "DATE"],
      ["to_date(true)", "DATE"],
      ["to_timestamp(true)", "TIMESTAMP"],
    ]) {
      const text = /\((.*)\)/.exec(e!)![1];
      assert.match(
        await failure(e!),
        new RegExp(`^\\[CAST_INVALID_INPUT\\] The value '${text!.replace(".", "\\.")}' of the type "STRING" cannot be cast to "${type}"`),
        e,
      );
    }
    const cases: [string, string | null][] = [
      ["try_to_date(1)", null],
      ["try_to_timestamp(true)", null],
      ["to_timestamp(1.5)", "1970-01-01 00:00:01.5"],
      ["try_to_timestamp(1)", "1970-01-01 00:00:01"],
    ];
    for (const [e, v] of cases) assert.equal(await value(e), v, e);
  });

  it("unix_timestamp refuses a number, and a pattern that is not a STRING", async () => {
    const inputs = '("STRING" or "DATE" or "TIMESTAMP" or "TIMESTAMP_NTZ" or "(TIMESTAMP_LTZ(P) OR TIMESTAMP_NTZ(P) WITH P IN [7, 9])")';
    assert.equal(
      await failure("unix_timestamp(1)"),
      `[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "unix_timestamp(1, yyyy-MM-dd HH:mm:ss)" due to data type mismatch: The first parameter requires the ${inputs} type, however "1" has the type "INT".`,
    );
    assert.equal(
      await failure("unix_timestamp(DATE'2024-03-15', 1)"),
      `[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "unix_timestamp(DATE '2024-03-15', 1)" due to data type mismatch: The second parameter requires the "STRING" type, however "1" has the type "INT".`,
    );
    assert.match(await failure("to_unix_timestamp(true)"), /however "true" has the type "BOOLEAN"\.$/);
  });
});
