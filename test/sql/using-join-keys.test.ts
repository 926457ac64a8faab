/**
 * SQL's USING and NATURAL joins keep each side's key reachable by its qualified name (`t2.k`)
 * and in `t2.*`, while `*` and an unqualified `k` see the one merged key (Spark's hidden
 * `__qualified_access_only` columns). Before, `t2.k` did not resolve and `t2.*` silently left
 * the key out. Every expected answer is PySpark 4.3.0's on the same tables.
 */
import { describe, it } from "node:test";
import { assertAsPySpark, type Expected, session } from "./pyspark-tables.js";

const PYSPARK: [string, Expected][] = [
  [
    "SELECT t1.*, t2.w FROM t1 JOIN t2 USING (k)",
    {
      cols: ["k", "v", "w"],
      types: ["int", "int", "int"],
      rows: [
        [1, 10, 10],
        [1, 10, 15],
        [1, 20, 10],
        [1, 20, 15],
        [2, 5, 1],
        [2, 5, 5],
        [2, 5, 9],
        [4, null, null],
      ],
    },
  ],
  [
    "SELECT t2.* FROM t1 JOIN t2 USING (k)",
    {
      cols: ["k", "w"],
      types: ["int", "int"],
      rows: [
        [1, 10],
        [1, 10],
        [1, 15],
        [1, 15],
        [2, 1],
        [2, 5],
        [2, 9],
        [4, null],
      ],
    },
  ],
  [
    "SELECT t1.k, t2.k FROM t1 JOIN t2 USING (k)",
    {
      cols: ["k", "k"],
      types: ["int", "int"],
      rows: [
        [1, 1],
        [1, 1],
        [1, 1],
        [1, 1],
        [2, 2],
        [2, 2],
        [2, 2],
        [4, 4],
      ],
    },
  ],
  [
    "SELECT k, t2.k AS k2 FROM t1 LEFT JOIN t2 USING (k)",
    {
      cols: ["k", "k2"],
      types: ["int", "int"],
      rows: [
        [1, 1],
        [1, 1],
        [1, 1],
        [1, 1],
        [2, 2],
        [2, 2],
        [2, 2],
        [3, null],
        [4, 4],
        [null, null],
      ],
    },
  ],
  [
    "SELECT t1.k, t2.k FROM t1 FULL JOIN t2 USING (k)",
    {
      cols: ["k", "k"],
      types: ["int", "int"],
      rows: [
        [1, 1],
        [1, 1],
        [1, 1],
        [1, 1],
        [2, 2],
        [2, 2],
        [2, 2],
        [3, null],
        [4, 4],
        [null, 5],
        [null, null],
        [null, null],
      ],
    },
  ],
  [
    "SELECT * FROM t1 JOIN t2 USING (k) WHERE t2.k > 1",
    {
      cols: ["k", "v", "w"],
      types: ["int", "int", "int"],
      rows: [
        [2, 5, 1],
        [2, 5, 5],
        [2, 5, 9],
        [4, null, null],
      ],
    },
  ],
  [
    "SELECT x.k FROM t1 x NATURAL JOIN (SELECT k, w FROM t2) y",
    { cols: ["k"], types: ["int"], rows: [[1], [1], [1], [1], [2], [2], [2], [4]] },
  ],
  [
    "SELECT * FROM t1 JOIN t2 USING (k) JOIN t1 t3 USING (k) WHERE t3.v > 9",
    {
      cols: ["k", "v", "w", "v"],
      types: ["int", "int", "int", "int"],
      rows: [
        [1, 10, 10, 10],
        [1, 10, 10, 20],
        [1, 10, 15, 10],
        [1, 10, 15, 20],
        [1, 20, 10, 10],
        [1, 20, 10, 20],
        [1, 20, 15, 10],
        [1, 20, 15, 20],
      ],
    },
  ],
  [
    "SELECT t2.k, count(*) AS n FROM t1 RIGHT JOIN t2 USING (k) GROUP BY t2.k",
    {
      cols: ["k", "n"],
      types: ["int", "bigint"],
      rows: [
        [1, 4],
        [2, 3],
        [4, 1],
        [5, 1],
        [null, 1],
      ],
    },
  ],
  [
    "SELECT * FROM (SELECT t2.* FROM t1 JOIN t2 USING (k)) WHERE k > 1",
    {
      cols: ["k", "w"],
      types: ["int", "int"],
      rows: [
        [2, 1],
        [2, 5],
        [2, 9],
        [4, null],
      ],
    },
  ],
  [
    "SELECT t1.k AS a, t2.k AS b, k FROM t1 NATURAL FULL JOIN (SELECT k, w FROM t2) t2",
    {
      cols: ["a", "b", "k"],
      types: ["int", "int", "int"],
      rows: [
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 1],
        [2, 2, 2],
        [2, 2, 2],
        [2, 2, 2],
        [3, null, 3],
        [4, 4, 4],
        [null, 5, 5],
        [null, null, null],
        [null, null, null],
      ],
    },
  ],
];

describe("USING and NATURAL joins' qualified keys, as PySpark 4.3", () => {
  for (const [query, expected] of PYSPARK) {
    it(query, async () => {
      await assertAsPySpark(() => session.sql(query), expected);
    });
  }
});
