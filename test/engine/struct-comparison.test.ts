/**
 * Comparing STRUCT values (=, <, <=>, IN) and the common type of structs and maps, held to PySpark
 * 4.3's answers: a struct comparison failed to run (its kernel read a struct vector's empty
 * `values`), and structs or maps of different field types had no common type (a NULL field
 * beside an INT one, an INT beside a BIGINT).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const session = Session.builder().getOrCreate();
const row = async (sql: string) => (await session.sql(sql).toArray())[0];

describe("struct comparison", () => {
  it("=, <, <=> and IN compare field by field, by position (PySpark 4.3's answers)", async () => {
    assert.deepEqual(
      await row(
        "SELECT named_struct('a', 1) = named_struct('a', 1), named_struct('a', 1, 'b', 'x') = named_struct('a', 1, 'b', 'y'), struct(1, 2) < struct(1, 3), struct(1, NULL) < struct(1, 2)",
      ),
      [true, false, true, true],
    );
    assert.deepEqual(await row("SELECT named_struct('a', 1) <=> named_struct('a', 1), named_struct('a', NULL) <=> named_struct('a', 1)"), [
      true,
      false,
    ]);
    assert.deepEqual(
      await row(
        "SELECT named_struct('a', 1) IN (named_struct('a', 2), named_struct('a', 1)), CAST(NULL AS STRUCT<a: INT>) = named_struct('a', 1)",
      ),
      [true, null],
    );
    // names do not matter, positions do
    assert.deepEqual(
      await row(
        "SELECT named_struct('a', 1) = named_struct('b', 1), named_struct('a', 1, 'b', 2) = named_struct('b', 1, 'a', 2), named_struct('a', 1, 'b', 2) = named_struct('b', 2, 'a', 1)",
      ),
      [true, true, false],
    );
    assert.deepEqual(
      await session.sql("SELECT s = s, s > named_struct('a', 0L) FROM (SELECT named_struct('a', id) AS s FROM range(3))").toArray(),
      [
        [true, false],
        [true, true],
        [true, true],
      ],
    );
    assert.throws(
      () => session.sql("SELECT named_struct('a', 1) < named_struct('a', 2, 'b', 1)"),
      /\[DATATYPE_MISMATCH\.BINARY_OP_DIFF_TYPES\]/,
    );
  });

  it("structs and maps widen field by field to a common type", async () => {
    assert.deepEqual(await row("SELECT typeof(array(named_struct('a', 1), named_struct('A', 2L)))"), ["array<struct<a:bigint>>"]);
    assert.deepEqual(await row("SELECT typeof(CASE WHEN true THEN named_struct('x', 1) ELSE named_struct('x', NULL) END)"), [
      "struct<x:int>",
    ]);
    assert.deepEqual(await row("SELECT typeof(if(true, map('a', 1), map('b', 2L)))"), ["map<string,bigint>"]);
    assert.deepEqual(await row("SELECT coalesce(named_struct('a', 1), named_struct('a', 2L))"), [{ a: 1 }]);
  });
});
