/**
 * ORDER BY over a HAVING: an aggregate (or an ordinal naming one) in the ORDER BY is the
 * aggregate's own, found below the HAVING's filter. Before, `count(*)` there was run as a
 * scalar call ("count is not a scalar function") and `sum(v)` did not resolve. Expected rows,
 * in order, are PySpark 4.3.0's; the last two Spark refuses (UNRESOLVED_COLUMN: an aggregate
 * neither selected nor in the HAVING), arus orders by it (worked out by hand below).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { session } from "./pyspark-tables.js";

const rowsOf = async (query: string) =>
  (await session.sql(query).toArray()).map((r) => r.map((x) => (typeof x === "bigint" ? Number(x) : x)));

describe("ORDER BY an aggregate above a HAVING", () => {
  it("as PySpark 4.3", async () => {
    assert.deepEqual(await rowsOf("SELECT k, sum(v) FROM t1 GROUP BY k HAVING sum(v) > 1 ORDER BY sum(v)"), [
      [2, 5],
      [3, 7],
      [1, 30],
    ]);
    assert.deepEqual(await rowsOf("SELECT k % 2 AS p, count(*) FROM t1 GROUP BY k % 2 HAVING count(*) > 1 ORDER BY count(*) DESC, p"), [
      [1, 3],
      [0, 2],
    ]);
    assert.deepEqual(await rowsOf("SELECT k, sum(v) s FROM t1 GROUP BY k HAVING s > 1 ORDER BY s DESC"), [
      [1, 30],
      [3, 7],
      [2, 5],
    ]);
    for (const q of [
      "SELECT k, count(*) FROM t1 GROUP BY k HAVING count(*) >= 1 ORDER BY 2 DESC, k NULLS LAST",
      "SELECT k, count(*) FROM t1 GROUP BY k HAVING count(*) >= 1 ORDER BY count(*) DESC, k NULLS LAST",
    ]) {
      assert.deepEqual(
        await rowsOf(q),
        [
          [1, 2],
          [2, 1],
          [3, 1],
          [4, 1],
          [null, 1],
        ],
        q,
      );
    }
  });

  it("an aggregate neither selected nor in the HAVING (Spark refuses it; arus orders by it)", async () => {
    // max(v) per k: 1 -> 20, 3 -> 7, 2 -> 5, NULL -> 1, 4 -> NULL (last)
    assert.deepEqual(await rowsOf("SELECT k FROM t1 GROUP BY k HAVING count(*) >= 1 ORDER BY max(v) DESC NULLS LAST, k"), [
      [1],
      [3],
      [2],
      [null],
      [4],
    ]);
    // min(v) > 1 keeps k = 1, 2, 3; by sum(v): 5, 7, 30
    assert.deepEqual(await rowsOf("SELECT k, count(*) AS c FROM t1 GROUP BY k HAVING min(v) > 1 ORDER BY sum(v), k"), [
      [2, 1],
      [3, 1],
      [1, 2],
    ]);
  });
});
