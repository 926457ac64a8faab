/**
 * Lateral column aliases (Spark 3.4+, on by default): a SELECT item names an alias defined to
 * its left. Every expected value is PySpark 4.3.0's on the tables of pyspark-tables.ts; arus
 * answered UNRESOLVED_COLUMN before.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertAsPySpark, session } from "./pyspark-tables.js";

describe("lateral column aliases as PySpark", () => {
  it("a later item reads an earlier alias", async () => {
    await assertAsPySpark(() => session.sql("SELECT v * 2 AS d, d + 1 AS e FROM t1"), {
      cols: ["d", "e"],
      types: ["int", "int"],
      rows: [
        [20, 21],
        [40, 41],
        [10, 11],
        [14, 15],
        [2, 3],
        [null, null],
      ],
    });
  });

  it("an aggregate's alias in a later item (GROUP BY)", async () => {
    await assertAsPySpark(() => session.sql("SELECT k, sum(v) AS s, s * 2 AS s2 FROM t1 GROUP BY k"), {
      cols: ["k", "s", "s2"],
      types: ["int", "bigint", "bigint"],
      rows: [
        [null, 1, 2],
        [1, 30, 60],
        [3, 7, 14],
        [4, null, null],
        [2, 5, 10],
      ],
    });
  });

  it("an aggregate's alias with HAVING; the column named lateralAliasReference(c)", async () => {
    await assertAsPySpark(() => session.sql("SELECT k, count(*) AS c, c + 1 FROM t1 GROUP BY k HAVING c > 1"), {
      cols: ["k", "c", "(lateralAliasReference(c) + 1)"],
      types: ["int", "bigint", "bigint"],
      rows: [[1, 2, 3]],
    });
  });

  it("a name the input has is the input's column, not the alias", async () => {
    await assertAsPySpark(() => session.sql("SELECT v AS k, k + 1 FROM t1"), {
      cols: ["k", "(k + 1)"],
      types: ["int", "int"],
      rows: [
        [10, 2],
        [20, 2],
        [5, 3],
        [7, 4],
        [1, null],
        [null, 5],
      ],
    });
  });

  it("an alias to the right is not visible (Spark: UNRESOLVED_COLUMN)", async () => {
    await assertAsPySpark(() => session.sql("SELECT d + 1, v * 2 AS d FROM t1"), { error: "UNRESOLVED_COLUMN.WITH_SUGGESTION" });
  });

  it("two aliases of one name: AMBIGUOUS_LATERAL_COLUMN_ALIAS", async () => {
    await assertAsPySpark(() => session.sql("SELECT v AS d, v * 2 AS d, d FROM t1"), { error: "AMBIGUOUS_LATERAL_COLUMN_ALIAS" });
  });

  it("a lambda's parameter shadows an alias of its name", async () => {
    await assertAsPySpark(() => session.sql("SELECT 1 AS x, transform(array(1, 2), x -> x + 10) AS y, x + 1 FROM t1 WHERE k = 2"), {
      cols: ["x", "y", "(lateralAliasReference(x) + 1)"],
      types: ["int", "array<int>", "int"],
      rows: [[1, [11, 12], 2]],
    });
  });

  it("chained aliases", async () => {
    await assertAsPySpark(() => session.sql("SELECT upper('a') AS u, lower(u) AS l, concat(u, l) FROM t1 WHERE k = 2"), {
      cols: ["u", "l", "concat(lateralAliasReference(u), lateralAliasReference(l))"],
      types: ["string", "string", "string"],
      rows: [["A", "a", "Aa"]],
    });
  });

  it("a grouping column's alias", async () => {
    await assertAsPySpark(() => session.sql("SELECT k AS kk, count(*) AS c, kk * 10 FROM t1 GROUP BY k"), {
      cols: ["kk", "c", "(lateralAliasReference(kk) * 10)"],
      types: ["int", "bigint", "int"],
      rows: [
        [null, 1, null],
        [1, 2, 10],
        [3, 1, 30],
        [4, 1, 40],
        [2, 1, 20],
      ],
    });
  });

  it("a field of a struct alias (s.a)", async () => {
    const df = session.sql("SELECT named_struct('a', k) AS s, s.a FROM t1 WHERE k = 2");
    assert.deepEqual(df.columns, ["s", "a"]);
    assert.deepEqual(
      df.dtypes.map(([, t]) => t),
      ["struct<a:int>", "int"],
    );
    assert.deepEqual(await df.select("a").toArray(), [[2]]);
  });

  it("over ROLLUP", async () => {
    await assertAsPySpark(() => session.sql("SELECT k, avg(v) AS a, a > 7 AS big FROM t1 GROUP BY ROLLUP(k)"), {
      cols: ["k", "a", "big"],
      types: ["int", "double", "boolean"],
      rows: [
        [null, 1.0, false],
        [1, 15.0, true],
        [null, 8.6, true],
        [4, null, null],
        [3, 7.0, false],
        [2, 5.0, false],
      ],
    });
  });

  it("a bare reference is named as written; over GROUP BY window(...) too", async () => {
    assert.deepEqual(session.sql("SELECT v * 2 AS d, d FROM t1").columns, ["d", "d"]);
    const df = session.sql(
      "SELECT window.start AS ws, count(*) AS c, c * 2 AS d FROM VALUES (TIMESTAMP'2024-01-01 00:00:01'), (TIMESTAMP'2024-01-01 00:00:03') t(ts) GROUP BY window(ts, '10 seconds')",
    );
    assert.deepEqual(df.columns, ["ws", "c", "d"]);
    assert.deepEqual(
      (await df.toArray()).map((r) => r.slice(1)),
      [[2, 4]],
    );
  });

  it("an alias over a non-deterministic expression is refused by name (Spark computes it once; arus would twice)", async () => {
    await assert.rejects(
      async () => session.sql("SELECT rand(1) AS r, r * 2 FROM t1").toArray(),
      (e: Error & { errorClass?: string }) => e.errorClass === "UNSUPPORTED_FEATURE" && /lateral column alias `r`/.test(e.message),
    );
  });
  it("a generator's columns are seen by the other items, on either side (Spark's ExtractGenerator; PySpark 4.3.0)", async () => {
    const rows = async (q: string) => ({ columns: session.sql(q).columns, rows: await session.sql(q).toArray() });
    assert.deepEqual(await rows("SELECT explode(array(1,2)) AS e, e + 1"), {
      columns: ["e", "(e + 1)"],
      rows: [
        [1, 2],
        [2, 3],
      ],
    });
    assert.deepEqual(await rows("SELECT e + 1 AS f, explode(array(1,2)) AS e"), {
      columns: ["f", "e"],
      rows: [
        [2, 1],
        [3, 2],
      ],
    });
    assert.deepEqual(await rows("SELECT posexplode(array(5,6)) AS (p, v), p + v AS s"), {
      columns: ["p", "v", "s"],
      rows: [
        [0, 5, 5],
        [1, 6, 7],
      ],
    });
    assert.deepEqual(await rows("SELECT k, explode(array(k, k*10)) AS e, e + 1 AS f FROM VALUES (1), (2) AS t(k)"), {
      columns: ["k", "e", "f"],
      rows: [
        [1, 1, 2],
        [1, 10, 11],
        [2, 2, 3],
        [2, 20, 21],
      ],
    });
  });
});
