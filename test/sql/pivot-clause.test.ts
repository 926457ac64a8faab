/**
 * SQL's PIVOT and UNPIVOT clauses, held to PySpark 4.3.0's answers on the same tables: the
 * implicit grouping (every column neither aggregated nor pivoted), a value's column named by its
 * alias or the value (`_` and the aggregate's name with several), several pivot columns, NULL
 * values; UNPIVOT's INCLUDE / EXCLUDE NULLS, several value columns, the least common type of
 * the values, and an alias on either clause.
 */
import { describe, it } from "node:test";
import { assertAsPySpark, type Expected, session } from "./pyspark-tables.js";

const PYSPARK: [string, Expected][] = [
  [
    "SELECT * FROM (SELECT k, v FROM t1) PIVOT (sum(v) FOR k IN (1 AS one, 2 AS two, 3))",
    { cols: ["one", "two", "3"], types: ["bigint", "bigint", "bigint"], rows: [[30, 5, 7]] },
  ],
  [
    "SELECT * FROM t2 PIVOT (sum(w) AS s, count(w) c FOR k IN (1, 2))",
    { cols: ["1_s", "1_c", "2_s", "2_c"], types: ["bigint", "bigint", "bigint", "bigint"], rows: [[25, 2, 15, 3]] },
  ],
  [
    "SELECT * FROM t2 PIVOT (sum(w), max(w) FOR k IN (1, 2))",
    { cols: ["1_sum(w)", "1_max(w)", "2_sum(w)", "2_max(w)"], types: ["bigint", "int", "bigint", "int"], rows: [[25, 15, 15, 9]] },
  ],
  [
    "SELECT * FROM (SELECT k, v, v % 2 AS p FROM t1) PIVOT (count(*) FOR p IN (0 AS even, 1 AS odd))",
    {
      cols: ["k", "v", "even", "odd"],
      types: ["int", "int", "bigint", "bigint"],
      rows: [
        [1, 10, 1, null],
        [1, 20, 1, null],
        [2, 5, null, 1],
        [3, 7, null, 1],
        [4, null, null, null],
        [null, 1, null, 1],
      ],
    },
  ],
  [
    "SELECT * FROM (SELECT k, v, v % 2 AS p FROM t1) PIVOT (sum(v) FOR (k, p) IN ((1, 0) AS a, (2, 1) AS b))",
    { cols: ["a", "b"], types: ["bigint", "bigint"], rows: [[30, 5]] },
  ],
  [
    "SELECT * FROM (SELECT 'x' AS s, k, v FROM t1) PIVOT (max(v) FOR s IN ('x', 'y' AS yy))",
    {
      cols: ["k", "x", "yy"],
      types: ["int", "int", "int"],
      rows: [
        [1, 20, null],
        [2, 5, null],
        [3, 7, null],
        [4, null, null],
        [null, 1, null],
      ],
    },
  ],
  [
    "SELECT * FROM (SELECT k, v FROM t1) PIVOT (sum(v) FOR k IN (NULL, 4))",
    { cols: ["null", "4"], types: ["bigint", "bigint"], rows: [[1, null]] },
  ],
  ["SELECT p.one FROM (SELECT k, v FROM t1) PIVOT (sum(v) FOR k IN (1 AS one)) AS p", { cols: ["one"], types: ["bigint"], rows: [[30]] }],
  [
    "SELECT * FROM t1 UNPIVOT (val FOR col IN (k, v))",
    {
      cols: ["col", "val"],
      types: ["string", "int"],
      rows: [
        ["k", 1],
        ["k", 1],
        ["k", 2],
        ["k", 3],
        ["k", 4],
        ["v", 10],
        ["v", 1],
        ["v", 20],
        ["v", 5],
        ["v", 7],
      ],
    },
  ],
  [
    "SELECT * FROM t1 UNPIVOT INCLUDE NULLS (val FOR col IN (k AS kk, v))",
    {
      cols: ["col", "val"],
      types: ["string", "int"],
      rows: [
        ["kk", 1],
        ["kk", 1],
        ["kk", 2],
        ["kk", 3],
        ["kk", 4],
        ["kk", null],
        ["v", 10],
        ["v", 1],
        ["v", 20],
        ["v", 5],
        ["v", 7],
        ["v", null],
      ],
    },
  ],
  [
    "SELECT * FROM (SELECT k, v, v + 1 AS v1, 'a' AS s FROM t1) UNPIVOT ((x, y) FOR c IN ((k, v) AS first, (v1, k)))",
    {
      cols: ["s", "c", "x", "y"],
      types: ["string", "string", "int", "int"],
      rows: [
        ["a", "first", 1, 10],
        ["a", "first", 1, 20],
        ["a", "first", 2, 5],
        ["a", "first", 3, 7],
        ["a", "first", 4, null],
        ["a", "first", null, 1],
        ["a", "v1_k", 11, 1],
        ["a", "v1_k", 2, null],
        ["a", "v1_k", 21, 1],
        ["a", "v1_k", 6, 2],
        ["a", "v1_k", 8, 3],
        ["a", "v1_k", null, 4],
      ],
    },
  ],
  [
    "SELECT * FROM (SELECT k, v, CAST(v AS BIGINT) AS b FROM t1) UNPIVOT (val FOR col IN (v, b))",
    {
      cols: ["k", "col", "val"],
      types: ["int", "string", "bigint"],
      rows: [
        [1, "b", 10],
        [1, "b", 20],
        [1, "v", 10],
        [1, "v", 20],
        [2, "b", 5],
        [2, "v", 5],
        [3, "b", 7],
        [3, "v", 7],
        [null, "b", 1],
        [null, "v", 1],
      ],
    },
  ],
  ["SELECT * FROM (SELECT k, v, 'a' AS s FROM t1) UNPIVOT (val FOR col IN (v, s))", { error: "UNPIVOT_VALUE_DATA_TYPE_MISMATCH" }],
  [
    "SELECT u.col, u.val FROM t1 UNPIVOT (val FOR col IN (v)) u WHERE u.val > 5",
    {
      cols: ["col", "val"],
      types: ["string", "int"],
      rows: [
        ["v", 10],
        ["v", 20],
        ["v", 7],
      ],
    },
  ],
  [
    "SELECT * FROM t1 UNPIVOT EXCLUDE NULLS (val FOR col IN (v)) ORDER BY val",
    {
      cols: ["k", "col", "val"],
      types: ["int", "string", "int"],
      rows: [
        [1, "v", 10],
        [1, "v", 20],
        [2, "v", 5],
        [3, "v", 7],
        [null, "v", 1],
      ],
    },
  ],
  [
    "SELECT * FROM t2 x PIVOT (count(*) FOR k IN (1, 2, 5))",
    {
      cols: ["w", "1", "2", "5"],
      types: ["int", "bigint", "bigint", "bigint"],
      rows: [
        [1, null, 1, null],
        [10, 1, null, null],
        [15, 1, null, null],
        [2, null, null, 1],
        [3, null, null, null],
        [5, null, 1, null],
        [9, null, 1, null],
        [null, null, null, null],
      ],
    },
  ],
  ["SELECT * FROM t2 PIVOT (w FOR k IN (1))", { error: "_LEGACY_ERROR_TEMP_1006" }],
  ["SELECT * FROM t2 PIVOT (sum(w) FOR k IN (1 AS a, 2 AS a))", { cols: ["a", "a"], types: ["bigint", "bigint"], rows: [[25, 15]] }],
  [
    "SELECT * FROM t1 UNPIVOT (val FOR col IN (v AS kk)) JOIN t2 ON t1.k = t2.k",
    {
      cols: ["k", "col", "val", "k", "w"],
      types: ["int", "string", "int", "int", "int"],
      rows: [
        [1, "kk", 10, 1, 10],
        [1, "kk", 10, 1, 15],
        [1, "kk", 20, 1, 10],
        [1, "kk", 20, 1, 15],
        [2, "kk", 5, 2, 1],
        [2, "kk", 5, 2, 5],
        [2, "kk", 5, 2, 9],
      ],
    },
  ],
  ["SELECT * FROM (SELECT k, v, v AS v2 FROM t1) UNPIVOT ((a, b) FOR c IN ((v, v2), k))", { error: "PARSE_SYNTAX_ERROR" }],
  ["SELECT * FROM t2 PIVOT (avg(w) FOR k IN ('1', 2.0))", { cols: ["1", "2.0"], types: ["double", "double"], rows: [[12.5, 5.0]] }],
  // found by review: non-numeric aggregates pivot in one phase (count 0, list []), values cast to the
  // pivot column's type, a typed value named by its text, UNPIVOT names as the query writes them
  [
    "SELECT * FROM (SELECT k, v FROM t1) PIVOT (count(v) AS c, max(CAST(v AS STRING)) AS m FOR k IN (1, 2, 3, 7))",
    {
      cols: ["1_c", "1_m", "2_c", "2_m", "3_c", "3_m", "7_c", "7_m"],
      types: ["bigint", "string", "bigint", "string", "bigint", "string", "bigint", "string"],
      rows: [[2, "20", 1, "5", 1, "7", 0, null]],
    },
  ],
  [
    "SELECT * FROM (SELECT k, v FROM t1) PIVOT (collect_list(v) FOR k IN (1, 7))",
    { cols: ["1", "7"], types: ["array<int>", "array<int>"], rows: [[[10, 20], []]] },
  ],
  [
    "SELECT * FROM (SELECT k, v FROM t1) PIVOT (sum(v) FOR k IN (1.5, 2))",
    { cols: ["1.5", "2"], types: ["bigint", "bigint"], rows: [[30, 5]] },
  ],
  [
    "SELECT * FROM (SELECT CAST(k AS STRING) s, v FROM t1) PIVOT (sum(v) FOR s IN (1.0, 2))",
    { cols: ["1.0", "2"], types: ["bigint", "bigint"], rows: [[null, 5]] },
  ],
  [
    "SELECT * FROM (SELECT CAST(k AS STRING) s, v FROM t1) PIVOT (sum(v) FOR s IN (true))",
    { cols: ["true"], types: ["bigint"], rows: [[null]] },
  ],
  [
    "SELECT * FROM (SELECT date_add(DATE'2024-01-01', k) AS d, v FROM t1) PIVOT (sum(v) FOR d IN (DATE'2024-01-02', DATE'2024-01-03' AS two))",
    { cols: ["2024-01-02", "two"], types: ["bigint", "bigint"], rows: [[30, 5]] },
  ],
  [
    "SELECT * FROM t1 UNPIVOT (val FOR col IN (K, V))",
    {
      cols: ["col", "val"],
      types: ["string", "int"],
      rows: [
        ["K", 1],
        ["K", 1],
        ["K", 2],
        ["K", 3],
        ["K", 4],
        ["V", 10],
        ["V", 1],
        ["V", 20],
        ["V", 5],
        ["V", 7],
      ],
    },
  ],
  [
    "SELECT * FROM (SELECT k, v, count(*) OVER () AS n FROM t1) PIVOT (count(*) AS c, avg(v) AS a FOR k IN (1, 9))",
    {
      cols: ["n", "1_c", "1_a", "9_c", "9_a"],
      types: ["bigint", "bigint", "double", "bigint", "double"],
      rows: [[6, 2, 15.0, null, null]],
    },
  ],
  // after joins (over all of them; a USING join's hidden keys are not grouped by) and VALUES; a name clash
  [
    "SELECT * FROM t1 JOIN t2 ON t1.k = t2.k PIVOT (sum(w) FOR v IN (10, 20))",
    {
      cols: ["k", "k", "10", "20"],
      types: ["int", "int", "bigint", "bigint"],
      rows: [
        [1, 1, 25, 25],
        [2, 2, null, null],
        [4, 4, null, null],
      ],
    },
  ],
  [
    "SELECT * FROM t1 JOIN t2 USING (k) UNPIVOT (val FOR col IN (v, w))",
    {
      cols: ["k", "col", "val"],
      types: ["int", "string", "int"],
      rows: [
        [1, "v", 10],
        [1, "v", 10],
        [1, "v", 20],
        [1, "v", 20],
        [1, "w", 10],
        [1, "w", 10],
        [1, "w", 15],
        [1, "w", 15],
        [2, "v", 5],
        [2, "v", 5],
        [2, "v", 5],
        [2, "w", 1],
        [2, "w", 5],
        [2, "w", 9],
      ],
    },
  ],
  ["SELECT * FROM t1 UNPIVOT (k FOR col IN (v))", { error: "AMBIGUOUS_REFERENCE" }],
  [
    "SELECT * FROM VALUES (1, 2), (3, 4) AS t(x, y) UNPIVOT (val FOR col IN (x, y))",
    {
      cols: ["col", "val"],
      types: ["string", "int"],
      rows: [
        ["x", 1],
        ["x", 3],
        ["y", 2],
        ["y", 4],
      ],
    },
  ],
  [
    "SELECT * FROM t1 LEFT JOIN t2 USING (k) PIVOT (count(w) AS c FOR v IN (10 AS ten))",
    {
      cols: ["k", "ten"],
      types: ["int", "bigint"],
      rows: [
        [1, 2],
        [2, null],
        [3, null],
        [4, null],
        [null, null],
      ],
    },
  ],
];

describe("PIVOT and UNPIVOT clauses, as PySpark 4.3", () => {
  for (const [query, expected] of PYSPARK) {
    it(query, async () => {
      await assertAsPySpark(() => session.sql(query), expected);
    });
  }
});
