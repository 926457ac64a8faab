/**
 * Spark 4's SQL clauses added in session 28, held to PySpark 4.3's columns and rows (each row as
 * to_json(struct(*)), sorted; errors by class): `x [NOT] LIKE | ILIKE ANY | SOME | ALL (...)`
 * (named likeany(x) ... as Spark names them), GROUP BY ALL, ORDER BY ALL and QUALIFY.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { type QueryOutcome, queryOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().getOrCreate();

const PYSPARK: [string, QueryOutcome][] = [
  [
    "SELECT a LIKE ANY ('1%', '%3'), a NOT LIKE ANY ('1%', '%3'), a LIKE ALL ('%2', '1%'), a NOT LIKE ALL ('1%', 'x%'), a ILIKE ANY ('A%'), a LIKE SOME ('1%') FROM VALUES ('12'), ('x3'), (NULL) AS t(a)",
    {
      columns: ["likeany(a)", "notlikeany(a)", "likeall(a)", "notlikeall(a)", "likeany(lower(a))", "likeany(a)"],
      rows: [
        '{"likeany(a)":true,"notlikeany(a)":true,"likeall(a)":false,"notlikeall(a)":false,"likeany(lower(a))":false,"likeany(a)":false}',
        '{"likeany(a)":true,"notlikeany(a)":true,"likeall(a)":true,"notlikeall(a)":false,"likeany(lower(a))":false,"likeany(a)":true}',
        "{}",
      ],
    },
  ],
  [
    "SELECT 'a' LIKE ANY ('a', NULL), 'a' LIKE ANY ('b', NULL), 'a' LIKE ALL ('a', NULL), 'a' NOT LIKE ALL ('b', NULL)",
    {
      columns: [
        "(a LIKE a OR a LIKE NULL)",
        "(a LIKE b OR a LIKE NULL)",
        "(a LIKE a AND a LIKE NULL)",
        "((NOT a LIKE b) AND (NOT a LIKE NULL))",
      ],
      rows: ['{"(a LIKE a OR a LIKE NULL)":true}'],
    },
  ],
  ["SELECT a FROM VALUES ('Ab'), ('cd') AS t(a) WHERE a ILIKE ANY ('a%', '%D')", { columns: ["a"], rows: ['{"a":"Ab"}', '{"a":"cd"}'] }],
  [
    "SELECT k, sum(v) FROM VALUES ('a', 1), ('b', 2), ('a', 3) AS t(k, v) GROUP BY ALL ORDER BY ALL",
    { columns: ["k", "sum(v)"], rows: ['{"k":"a","sum(v)":4}', '{"k":"b","sum(v)":2}'] },
  ],
  [
    "SELECT k, upper(k) AS u, sum(v) + 1 AS s, count(*) FROM VALUES ('a', 1), ('a', 5) AS t(k, v) GROUP BY ALL",
    { columns: ["k", "u", "s", "count(1)"], rows: ['{"k":"a","u":"A","s":7,"count(1)":2}'] },
  ],
  ["SELECT sum(v) FROM VALUES ('a', 1), ('b', 2) AS t(k, v) GROUP BY ALL", { columns: ["sum(v)"], rows: ['{"sum(v)":3}'] }],
  [
    "SELECT k, v FROM VALUES ('a', 2), ('a', 1), ('b', NULL) AS t(k, v) ORDER BY ALL DESC NULLS FIRST",
    { columns: ["k", "v"], rows: ['{"k":"a","v":1}', '{"k":"a","v":2}', '{"k":"b"}'] },
  ],
  [
    "SELECT v, row_number() OVER (ORDER BY v) AS r FROM VALUES (2), (1) AS t(v) QUALIFY r = 1",
    { columns: ["v", "r"], rows: ['{"v":1,"r":1}'] },
  ],
  [
    "SELECT v FROM VALUES (2), (1), (3) AS t(v) QUALIFY row_number() OVER (ORDER BY v DESC) <= 2",
    { columns: ["v"], rows: ['{"v":2}', '{"v":3}'] },
  ],
  [
    "SELECT k, v FROM VALUES ('a', 2), ('a', 1), ('b', 5) AS t(k, v) WHERE v > 0 QUALIFY max(v) OVER (PARTITION BY k) = v",
    { columns: ["k", "v"], rows: ['{"k":"a","v":2}', '{"k":"b","v":5}'] },
  ],
  [
    "SELECT k, sum(v) AS s FROM VALUES ('a', 2), ('a', 1), ('b', 5) AS t(k, v) GROUP BY k QUALIFY rank() OVER (ORDER BY s DESC) = 1",
    { columns: ["k", "s"], rows: ['{"k":"b","s":5}'] },
  ],
  [
    "SELECT v FROM VALUES (2), (1), (3) AS t(v) QUALIFY row_number() OVER w = 1 WINDOW w AS (ORDER BY v)",
    { columns: ["v"], rows: ['{"v":1}'] },
  ],
  [
    "SELECT v, o FROM VALUES (2, 9), (1, 8), (3, 7) AS t(v, o) QUALIFY row_number() OVER (ORDER BY o) = 1",
    { columns: ["v", "o"], rows: ['{"v":3,"o":7}'] },
  ],
  ["SELECT v FROM VALUES (1) AS t(v) QUALIFY v = 1", { error: "QUALIFY_REQUIRES_WINDOW_FUNCTION" }],
  ["SELECT 'a' LIKE ANY ()", { error: "INVALID_SQL_SYNTAX.EMPTY_QUANTIFIED_PATTERN" }],
];

describe("LIKE ANY / ALL, GROUP BY ALL, ORDER BY ALL, QUALIFY", () => {
  it("give PySpark 4.3's columns and rows", async () => {
    for (const [sql, expected] of PYSPARK) assert.deepEqual(await queryOutcome(session, sql), expected, sql);
  });

  it("ORDER BY ALL orders the rows (PySpark 4.3: b/NULL, a/2, a/1)", async () => {
    const rows = await session
      .sql("SELECT k, v FROM VALUES ('a', 2), ('a', 1), ('b', NULL) AS t(k, v) ORDER BY ALL DESC NULLS FIRST")
      .toArray();
    assert.deepEqual(rows, [
      ["b", null],
      ["a", 2],
      ["a", 1],
    ]);
  });
});
