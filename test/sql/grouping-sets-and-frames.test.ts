/**
 * Grouping sets, GROUP BY aliases, ORDER BY / HAVING over grouping expressions, RANGE frames over
 * DECIMAL / FLOAT / TINYINT keys, and a few column names and formats, each as PySpark 4.3.0 gives
 * it on the tables of pyspark-tables.ts. The duplicate grouping sets gave doubled sums before
 * (silently); GROUP BY an alias, ORDER BY 1 of `k % 2`, HAVING `k % 2 = 1` and the RANGE frames
 * were refused.
 */
import { describe, it } from "node:test";
import { assertAsPySpark, assertOrderedAsPySpark, session } from "./pyspark-tables.js";

describe("grouping sets, group-by aliases and range frames as PySpark", () => {
  it("the same grouping set twice gives its groups twice (Spark's _gen_grouping_pos), not doubled sums", async () => {
    await assertAsPySpark(() => session.sql("SELECT k, sum(v), grouping_id() FROM t1 GROUP BY GROUPING SETS ((k), (k), ())"), {
      cols: ["k", "sum(v)", "grouping_id()"],
      types: ["int", "bigint", "bigint"],
      rows: [
        [3, 7, 0],
        [4, null, 0],
        [3, 7, 0],
        [2, 5, 0],
        [null, 1, 0],
        [null, 1, 0],
        [1, 30, 0],
        [null, 43, 1],
        [4, null, 0],
        [1, 30, 0],
        [2, 5, 0],
      ],
    });
  });

  it("GROUP BY k, ROLLUP(k): two sets that are both (k)", async () => {
    await assertAsPySpark(() => session.sql("SELECT k, count(*) FROM t1 GROUP BY k, ROLLUP(k)"), {
      cols: ["k", "count(1)"],
      types: ["int", "bigint"],
      rows: [
        [3, 1],
        [4, 1],
        [3, 1],
        [2, 1],
        [null, 1],
        [null, 1],
        [1, 2],
        [4, 1],
        [1, 2],
        [2, 1],
      ],
    });
  });

  it("GROUPING SETS ((k, v), (v, k)) are the same set", async () => {
    await assertAsPySpark(() => session.sql("SELECT k, v, count(*) FROM t1 GROUP BY GROUPING SETS ((k, v), (v, k))"), {
      cols: ["k", "v", "count(1)"],
      types: ["int", "int", "bigint"],
      rows: [
        [4, null, 1],
        [2, 5, 1],
        [1, 20, 1],
        [1, 10, 1],
        [3, 7, 1],
        [1, 10, 1],
        [null, 1, 1],
        [4, null, 1],
        [1, 20, 1],
        [2, 5, 1],
        [null, 1, 1],
        [3, 7, 1],
      ],
    });
  });

  it("GROUP BY a select-list alias", async () => {
    await assertAsPySpark(() => session.sql("SELECT k % 2 AS m, count(*) FROM t1 GROUP BY m"), {
      cols: ["m", "count(1)"],
      types: ["int", "bigint"],
      rows: [
        [null, 1],
        [1, 3],
        [0, 2],
      ],
    });
  });

  it("ROLLUP of a select-list alias", async () => {
    await assertAsPySpark(() => session.sql("SELECT k % 2 AS m, sum(v) FROM t1 GROUP BY ROLLUP(m)"), {
      cols: ["m", "sum(v)"],
      types: ["int", "bigint"],
      rows: [
        [null, 1],
        [1, 37],
        [0, 5],
        [null, 43],
      ],
    });
  });

  it("a name the input has is the input's column, not the alias (Spark: MISSING_AGGREGATION)", async () => {
    await assertAsPySpark(() => session.sql("SELECT k AS v, count(*) FROM t1 GROUP BY v"), { error: "MISSING_AGGREGATION" });
  });

  it("ORDER BY the ordinal of an unnamed grouping expression", async () => {
    await assertOrderedAsPySpark(() => session.sql("SELECT k % 2, count(*) FROM t1 GROUP BY k % 2 ORDER BY 1"), {
      cols: ["(k % 2)", "count(1)"],
      types: ["int", "bigint"],
      rows: [
        [null, 1],
        [0, 2],
        [1, 3],
      ],
    });
  });

  it("ORDER BY the ordinal of a ROLLUP expression", async () => {
    await assertOrderedAsPySpark(() => session.sql("SELECT k % 2, count(*) FROM t1 GROUP BY ROLLUP(k % 2) ORDER BY 1 DESC, 2"), {
      cols: ["(k % 2)", "count(1)"],
      types: ["int", "bigint"],
      rows: [
        [1, 3],
        [0, 2],
        [null, 1],
        [null, 6],
      ],
    });
  });

  it("HAVING a grouping expression the SELECT list does not name", async () => {
    await assertAsPySpark(() => session.sql("SELECT count(*) FROM t1 GROUP BY k % 2 HAVING k % 2 = 1"), {
      cols: ["count(1)"],
      types: ["bigint"],
      rows: [[3]],
    });
  });

  it("HAVING a column that is not grouped is unresolved, as in Spark", async () => {
    await assertAsPySpark(() => session.sql("SELECT count(*) AS c FROM t1 GROUP BY k HAVING v > 1"), {
      error: "UNRESOLVED_COLUMN.WITH_SUGGESTION",
    });
  });

  it("ORDER BY the ordinal of an unnamed item of SELECT DISTINCT", async () => {
    await assertOrderedAsPySpark(() => session.sql("SELECT DISTINCT k % 2 FROM t1 ORDER BY 1"), {
      cols: ["(k % 2)"],
      types: ["int"],
      rows: [[null], [0], [1]],
    });
  });

  it("ORDER BY a name and an ordinal over SELECT DISTINCT", async () => {
    await assertOrderedAsPySpark(
      () => session.sql("SELECT DISTINCT k || 'x', v FROM t1 WHERE k IS NOT NULL AND v IS NOT NULL ORDER BY v DESC, 1"),
      {
        cols: ["concat(k, x)", "v"],
        types: ["string", "int"],
        rows: [
          ["1x", 20],
          ["1x", 10],
          ["3x", 7],
          ["2x", 5],
        ],
      },
    );
  });

  it("ORDER BY an expression over SELECT DISTINCT is refused, as in Spark", async () => {
    await assertAsPySpark(() => session.sql("SELECT DISTINCT k, v % 3 FROM t1 ORDER BY v % 3 DESC, k"), {
      error: "UNRESOLVED_COLUMN.WITH_SUGGESTION",
    });
  });

  it("a RANGE frame over a DECIMAL key with decimal bounds", async () => {
    await assertAsPySpark(
      () =>
        session.sql(
          "SELECT k, v, sum(k) OVER (ORDER BY CAST(v AS DECIMAL(5, 2)) RANGE BETWEEN 2.5 PRECEDING AND 1 FOLLOWING) AS s FROM t1",
        ),
      {
        cols: ["k", "v", "s"],
        types: ["int", "int", "bigint"],
        rows: [
          [4, null, 4],
          [null, 1, null],
          [2, 5, 2],
          [3, 7, 5],
          [1, 10, 1],
          [1, 20, 1],
        ],
      },
    );
  });

  it("a RANGE frame over a FLOAT key, descending", async () => {
    await assertAsPySpark(
      () =>
        session.sql("SELECT k, v, count(*) OVER (ORDER BY CAST(v AS FLOAT) DESC RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) AS c FROM t1"),
      {
        cols: ["k", "v", "c"],
        types: ["int", "int", "bigint"],
        rows: [
          [1, 20, 1],
          [1, 10, 1],
          [3, 7, 2],
          [2, 5, 3],
          [null, 1, 2],
          [4, null, 1],
        ],
      },
    );
  });

  it("a RANGE frame over a TINYINT key", async () => {
    await assertAsPySpark(
      () => session.sql("SELECT k, v, count(*) OVER (ORDER BY CAST(v AS TINYINT) RANGE BETWEEN CURRENT ROW AND 5 FOLLOWING) AS c FROM t1"),
      {
        cols: ["k", "v", "c"],
        types: ["int", "int", "bigint"],
        rows: [
          [4, null, 1],
          [null, 1, 2],
          [2, 5, 3],
          [3, 7, 2],
          [1, 10, 1],
          [1, 20, 1],
        ],
      },
    );
  });

  it("format_number keeps Java's minimum integer digits (.5 for '#,###.0')", async () => {
    await assertAsPySpark(
      () =>
        session.sql(
          "SELECT format_number(0.5, '#,###.0') AS a, format_number(0.0, '#,###.0') AS b, format_number(0.5, '#.##') AS c, format_number(0.4, '#') AS d, format_number(1234.5, '0,000.00') AS e",
        ),
      {
        cols: ["a", "b", "c", "d", "e"],
        types: ["string", "string", "string", "string", "string"],
        rows: [[".5", ".0", "0.5", "0", "1,234.50"]],
      },
    );
  });

  it("column names: replace's and array_sort's default arguments, DOUBLE literals as Java prints them", async () => {
    await assertAsPySpark(() => session.sql("SELECT replace('abc', 'b'), array_sort(array('b', 'a', NULL)), 1e20D, 0.0001D, 2.5D"), {
      cols: [
        "replace(abc, b, )",
        "array_sort(array(b, a, NULL), lambdafunction((IF(((namedlambdavariable() IS NULL) AND (namedlambdavariable() IS NULL)), 0, (IF((namedlambdavariable() IS NULL), 1, (IF((namedlambdavariable() IS NULL), -1, (IF((namedlambdavariable() < namedlambdavariable()), -1, (IF((namedlambdavariable() > namedlambdavariable()), 1, 0)))))))))), namedlambdavariable(), namedlambdavariable()))",
        "1.0E20",
        "1.0E-4",
        "2.5",
      ],
      types: ["string", "array<string>", "double", "double", "double"],
      rows: [["ac", ["a", "b", null], 1e20, 0.0001, 2.5]],
    });
  });

  it("a DECIMAL cast overflow's error class", async () => {
    await assertAsPySpark(() => session.sql("SELECT CAST(12345.678 AS DECIMAL(5,2))"), {
      error: "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
    });
  });
});
