/**
 * CAST of MAP, ARRAY and STRUCT values (values and errors from PySpark 4.3): a MAP cast to
 * another MAP type casts its keys and values (every map once came out NULL); a malformed
 * element is CAST_INVALID_INPUT under ANSI, as at the top level (it once became NULL), and
 * TRY_CAST makes just that element NULL, overflow included.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const value = async (expr: string) => (await session.sql(`SELECT ${expr}`).toArray())[0]![0];
const INVALID = /^.*\[CAST_INVALID_INPUT\] The value 'x' of the type "STRING" cannot be cast to "INT" because it is malformed/;

describe("CAST of nested values", () => {
  it("casts a MAP's keys and values", async () => {
    assert.deepEqual(await value("CAST(map('a', '1') AS MAP<STRING, INT>)"), new Map([["a", 1]]));
    assert.deepEqual(await value("CAST(map(1, 2) AS MAP<STRING, STRING>)"), new Map([["1", "2"]]));
    assert.deepEqual(await value("try_cast(map('a', 'x') AS MAP<STRING, INT>)"), new Map([["a", null]]));
  });

  it("refuses a malformed element under ANSI; TRY_CAST nulls only that element", async () => {
    for (const e of [
      "CAST(array('1', 'x') AS ARRAY<INT>)",
      "CAST(named_struct('a', 'x') AS STRUCT<a: INT>)",
      "CAST(map('a', 'x') AS MAP<STRING, INT>)",
    ]) {
      await assert.rejects(value(e), INVALID, e);
    }
    assert.deepEqual(await value("try_cast(array('1', 'x') AS ARRAY<INT>)"), [1, null]);
    assert.deepEqual(await value("try_cast(named_struct('a', 'x', 'b', '2') AS STRUCT<a: INT, b: INT>)"), { a: null, b: 2 });
    assert.deepEqual(await value("try_cast(array(300, 1) AS ARRAY<TINYINT>)"), [null, 1]);
    await assert.rejects(
      value("CAST(array(300) AS ARRAY<TINYINT>)"),
      /\[CAST_OVERFLOW\] The value 300 of the type "INT" cannot be cast to "TINYINT"/,
    );
    assert.deepEqual(await value("CAST(array('1', NULL) AS ARRAY<INT>)"), [1, null]);
    session.conf.set("spark.sql.ansi.enabled", "false");
    try {
      assert.deepEqual(await value("CAST(array('1', 'x') AS ARRAY<INT>)"), [1, null]);
    } finally {
      session.conf.unset("spark.sql.ansi.enabled");
    }
  });
});
