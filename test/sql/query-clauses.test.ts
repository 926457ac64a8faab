/**
 * Query clauses Spark's SQL has and arus refused as syntax errors before: `TABLE t`,
 * `DISTRIBUTE BY` / `SORT BY` / `CLUSTER BY`, `TABLESAMPLE`, CTE column lists, and the names
 * IGNORE / RESPECT NULLS give first_value / last_value. Every expected value is PySpark 4.3.0's.
 */
import { describe, it } from "node:test";
import { assertAsPySpark, assertOrderedAsPySpark, session } from "./pyspark-tables.js";

describe("query clauses as PySpark", () => {
  it("TABLE t is SELECT * FROM t", async () => {
    await assertAsPySpark(() => session.sql("TABLE t1"), {
      cols: ["k", "v"],
      types: ["int", "int"],
      rows: [
        [1, 10],
        [1, 20],
        [2, 5],
        [3, 7],
        [null, 1],
        [4, null],
      ],
    });
  });

  it("DISTRIBUTE BY k SORT BY v DESC: sorted (one partition)", async () => {
    await assertOrderedAsPySpark(() => session.sql("SELECT k, v FROM t1 WHERE k IS NOT NULL DISTRIBUTE BY k SORT BY v DESC"), {
      cols: ["k", "v"],
      types: ["int", "int"],
      rows: [
        [1, 20],
        [1, 10],
        [3, 7],
        [2, 5],
        [4, null],
      ],
    });
  });

  it("CLUSTER BY v: sorted by v", async () => {
    await assertOrderedAsPySpark(() => session.sql("SELECT k, v FROM t1 WHERE v IS NOT NULL CLUSTER BY v"), {
      cols: ["k", "v"],
      types: ["int", "int"],
      rows: [
        [null, 1],
        [2, 5],
        [3, 7],
        [1, 10],
        [1, 20],
      ],
    });
  });

  it("TABLESAMPLE (n ROWS) is a LIMIT", async () => {
    await assertAsPySpark(() => session.sql("SELECT count(*) FROM t1 TABLESAMPLE (3 ROWS)"), {
      cols: ["count(1)"],
      types: ["bigint"],
      rows: [[3]],
    });
  });

  it("TABLESAMPLE (100 PERCENT): every row", async () => {
    await assertAsPySpark(() => session.sql("SELECT count(*) FROM t1 TABLESAMPLE (100 PERCENT)"), {
      cols: ["count(1)"],
      types: ["bigint"],
      rows: [[6]],
    });
  });

  it("TABLESAMPLE (0 PERCENT): none", async () => {
    await assertAsPySpark(() => session.sql("SELECT count(*) FROM t1 TABLESAMPLE (0 PERCENT)"), {
      cols: ["count(1)"],
      types: ["bigint"],
      rows: [[0]],
    });
  });

  it("TABLESAMPLE (BUCKET 4 OUT OF 4) REPEATABLE (7): every row", async () => {
    await assertAsPySpark(() => session.sql("SELECT count(*) FROM t1 TABLESAMPLE (BUCKET 4 OUT OF 4) REPEATABLE (7)"), {
      cols: ["count(1)"],
      types: ["bigint"],
      rows: [[6]],
    });
  });

  it("a fraction above 1: INVALID_TABLESAMPLE_FRACTION", async () => {
    await assertAsPySpark(() => session.sql("SELECT count(*) FROM t1 TABLESAMPLE (150 PERCENT)"), {
      error: "INVALID_TABLESAMPLE_FRACTION",
    });
  });

  it("ORDER BY with SORT BY: COMBINATION_QUERY_RESULT_CLAUSES", async () => {
    await assertAsPySpark(() => session.sql("SELECT k, v FROM t1 ORDER BY k SORT BY v"), {
      error: "UNSUPPORTED_FEATURE.COMBINATION_QUERY_RESULT_CLAUSES",
    });
  });

  it("WITH a(x, y) AS (...): the CTE's columns renamed", async () => {
    await assertAsPySpark(() => session.sql("WITH a(x, y) AS (SELECT k, v FROM t1) SELECT y, x FROM a WHERE x = 2"), {
      cols: ["y", "x"],
      types: ["int", "int"],
      rows: [[5, 2]],
    });
  });

  it("a CTE column list of the wrong length: ASSIGNMENT_ARITY_MISMATCH", async () => {
    await assertAsPySpark(() => session.sql("WITH a(x) AS (SELECT k, v FROM t1) SELECT * FROM a"), { error: "ASSIGNMENT_ARITY_MISMATCH" });
  });

  it("first_value / last_value with IGNORE or RESPECT NULLS are named first / last", async () => {
    await assertAsPySpark(
      () => session.sql("SELECT first_value(v) IGNORE NULLS, last_value(v) RESPECT NULLS, first_value(v, true) FROM t1 WHERE k = 2"),
      { cols: ["first(v)", "last(v)", "first_value(v)"], types: ["int", "int", "int"], rows: [[5, 5, 5]] },
    );
  });
});
