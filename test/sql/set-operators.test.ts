// SQL INTERSECT / EXCEPT / MINUS [ALL | DISTINCT] with Spark's precedence (INTERSECT binds
// tighter), NULLs equal to each other; every expected result checked against PySpark 4.3.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { utcSession } from "../engine/helpers.js";

const s = utcSession();
s.sql("SELECT * FROM VALUES (1), (1), (2), (null), (3) AS t(a)").createOrReplaceTempView("set_t");
s.sql("SELECT * FROM VALUES (1), (null), (4) AS u(b)").createOrReplaceTempView("set_u");

async function sortedRows(q: string): Promise<unknown[][]> {
  return (await s.sql(q).toArray()).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
}

describe("SQL set operators", () => {
  it("INTERSECT, EXCEPT and MINUS, distinct and ALL", async () => {
    assert.deepEqual(await sortedRows("SELECT a FROM set_t INTERSECT SELECT b FROM set_u"), [[1], [null]]);
    assert.deepEqual(await sortedRows("SELECT a FROM set_t EXCEPT SELECT b FROM set_u"), [[2], [3]]);
    assert.deepEqual(await sortedRows("SELECT a FROM set_t MINUS SELECT b FROM set_u"), [[2], [3]]);
    assert.deepEqual(await sortedRows("SELECT a FROM set_t INTERSECT ALL SELECT b FROM set_u"), [[1], [null]]);
    assert.deepEqual(await sortedRows("SELECT a FROM set_t EXCEPT ALL SELECT b FROM set_u"), [[1], [2], [3]]);
    assert.deepEqual(s.sql("SELECT a FROM set_t INTERSECT DISTINCT SELECT b FROM set_u ORDER BY 1").columns, ["a"]);
  });
  it("INTERSECT binds tighter than UNION and EXCEPT", async () => {
    assert.deepEqual(await sortedRows("SELECT a FROM set_t UNION ALL SELECT b FROM set_u INTERSECT SELECT 1"), [
      [1],
      [1],
      [1],
      [2],
      [3],
      [null],
    ]);
    assert.deepEqual(await sortedRows("SELECT a FROM set_t EXCEPT SELECT b FROM set_u UNION SELECT 7"), [[2], [3], [7]]);
  });
  it("different widths are Spark's NUM_COLUMNS_MISMATCH", () => {
    assert.throws(
      () => s.sql("SELECT a, a FROM set_t INTERSECT SELECT b FROM set_u"),
      /\[NUM_COLUMNS_MISMATCH\] INTERSECT can only be performed on inputs with the same number of columns, but the first input has 2 columns and the second input has 1 columns\./,
    );
  });
});
