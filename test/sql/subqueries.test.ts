/**
 * Subqueries (analyzer/subqueries.ts): `x [NOT] IN (SELECT ...)` and `[NOT] EXISTS (SELECT ...)`
 * in WHERE, uncorrelated or (EXISTS) correlated through its WHERE, as semi and anti joins — NOT
 * IN with SQL's NULL rules — and uncorrelated scalar subqueries in a SELECT list, WHERE or HAVING
 * (one row joined; none is NULL, more is SCALAR_SUBQUERY_TOO_MANY_ROWS). Columns and rows are PySpark 4.3's (each row as
 * to_json(struct(*)), sorted; errors by class); then a stream filtered by a static table, and the
 * forms arus refuses.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { type QueryOutcome, queryOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().getOrCreate();
const KV = "VALUES ('a', 1), ('b', 5), ('b', 2), ('c', 4) AS t(k, v)";
const W = "VALUES (3), (6) AS u(w)";
const KW = "VALUES ('a', 0), ('b', 3), ('b', 9), ('d', 1) AS u(k, w)";

const PYSPARK: [string, QueryOutcome][] = [
  [
    "SELECT v, (SELECT max(w) FROM VALUES (1), (5) AS s(w)) AS m FROM VALUES (3), (10) AS t(v)",
    { columns: ["v", "m"], rows: ['{"v":10,"m":5}', '{"v":3,"m":5}'] },
  ],
  [
    "SELECT v FROM VALUES (3), (10), (4) AS t(v) WHERE v > (SELECT avg(w) FROM VALUES (1), (5) AS s(w))",
    { columns: ["v"], rows: ['{"v":10}', '{"v":4}'] },
  ],
  ["SELECT v, (SELECT w FROM VALUES (1) AS s(w) WHERE w > 5) AS m FROM VALUES (3) AS t(v)", { columns: ["v", "m"], rows: ['{"v":3}'] }],
  ["SELECT v, (SELECT w FROM VALUES (1), (2) AS s(w)) AS m FROM VALUES (3) AS t(v)", { error: "SCALAR_SUBQUERY_TOO_MANY_ROWS" }],
  ["SELECT (SELECT 42) AS x", { columns: ["x"], rows: ['{"x":42}'] }],
  ["SELECT v + (SELECT count(*) FROM VALUES (1), (2) AS s(w)) AS x FROM VALUES (1) AS t(v)", { columns: ["x"], rows: ['{"x":3}'] }],
  [
    "SELECT v, (SELECT w, w FROM VALUES (1) AS s(w)) AS m FROM VALUES (3) AS t(v)",
    { error: "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN" },
  ],
  [
    "SELECT v FROM VALUES (1), (2), (NULL) AS t(v) WHERE v IN (SELECT w FROM VALUES (1), (NULL) AS s(w))",
    { columns: ["v"], rows: ['{"v":1}'] },
  ],
  ["SELECT v FROM VALUES (1), (2), (NULL) AS t(v) WHERE v NOT IN (SELECT w FROM VALUES (1), (NULL) AS s(w))", { columns: ["v"], rows: [] }],
  [
    "SELECT v FROM VALUES (1), (2), (3), (NULL) AS t(v) WHERE v NOT IN (SELECT w FROM VALUES (1) AS s(w))",
    { columns: ["v"], rows: ['{"v":2}', '{"v":3}'] },
  ],
  [
    "SELECT v FROM VALUES (1), (NULL) AS t(v) WHERE v NOT IN (SELECT w FROM VALUES (1) AS s(w) WHERE w > 5)",
    { columns: ["v"], rows: ['{"v":1}', "{}"] },
  ],
  [
    "SELECT v FROM VALUES (1), (2), (3) AS t(v) WHERE v IN (SELECT w FROM VALUES (1L), (3L) AS s(w)) AND v > 1",
    { columns: ["v"], rows: ['{"v":3}'] },
  ],
  [
    "SELECT v FROM VALUES (1), (2) AS t(v) WHERE EXISTS (SELECT 1 FROM VALUES (5) AS s(w) WHERE w > 4)",
    { columns: ["v"], rows: ['{"v":1}', '{"v":2}'] },
  ],
  ["SELECT v FROM VALUES (1), (2) AS t(v) WHERE NOT EXISTS (SELECT 1 FROM VALUES (5) AS s(w) WHERE w > 4)", { columns: ["v"], rows: [] }],
  [
    "SELECT v FROM VALUES (1), (2) AS t(v) WHERE EXISTS (SELECT 1 FROM VALUES (2) AS s(w) WHERE s.w = t.v)",
    { columns: ["v"], rows: ['{"v":2}'] },
  ],
  ["WITH s AS (SELECT 2 AS w) SELECT v FROM VALUES (1), (2) AS t(v) WHERE v IN (SELECT w FROM s)", { columns: ["v"], rows: ['{"v":2}'] }],
  [
    "SELECT v FROM VALUES (1), (2) AS t(v) WHERE v IN (SELECT w, w FROM VALUES (1) AS s(w))",
    { error: "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH" },
  ],
  [
    "SELECT v FROM VALUES (1), (2), (3) AS t(v) WHERE NOT EXISTS (SELECT 1 FROM VALUES (2), (3) AS s(w) WHERE s.w = t.v AND s.w > 2)",
    { columns: ["v"], rows: ['{"v":1}', '{"v":2}'] },
  ],
  [
    "SELECT k, v FROM VALUES ('a', 1), ('b', 2) AS t(k, v) WHERE EXISTS (SELECT * FROM VALUES ('a', 1), ('b', 5) AS s(k, w) WHERE s.k = t.k AND s.w <= t.v)",
    { columns: ["k", "v"], rows: ['{"k":"a","v":1}'] },
  ],
  // uncorrelated scalar subqueries in HAVING (one row joined to the groups)
  [
    `SELECT k, sum(v) AS s FROM ${KV} GROUP BY k HAVING sum(v) > (SELECT 2)`,
    { columns: ["k", "s"], rows: ['{"k":"b","s":7}', '{"k":"c","s":4}'] },
  ],
  [
    `SELECT k, sum(v) AS s FROM ${KV} GROUP BY k HAVING s >= (SELECT min(w) FROM ${W})`,
    { columns: ["k", "s"], rows: ['{"k":"b","s":7}', '{"k":"c","s":4}'] },
  ],
  [
    `SELECT k FROM ${KV} GROUP BY k HAVING max(v) < (SELECT max(w) FROM ${W}) AND count(*) > (SELECT 1)`,
    { columns: ["k"], rows: ['{"k":"b"}'] },
  ],
  [`SELECT k, sum(v) AS s FROM ${KV} GROUP BY k HAVING sum(v) > (SELECT w FROM ${W} WHERE w > 100)`, { columns: ["k", "s"], rows: [] }],
  // a global aggregate of no rows keeps its row: the subquery is joined above it
  [
    "SELECT sum(v) AS s FROM VALUES (1), (5) AS t(v) WHERE v > 100 HAVING coalesce(sum(v), 0) < (SELECT 5)",
    { columns: ["s"], rows: ["{}"] },
  ],
  [`SELECT k, sum(v) AS s FROM ${KV} GROUP BY k HAVING sum(v) > (SELECT w FROM ${W})`, { error: "SCALAR_SUBQUERY_TOO_MANY_ROWS" }],
  [
    `SELECT k, sum(v) AS s FROM ${KV} GROUP BY ROLLUP(k) HAVING sum(v) > (SELECT 5)`,
    { columns: ["k", "s"], rows: ['{"k":"b","s":7}', '{"s":12}'] },
  ],
  // correlated through a grouping column: decorrelated as in a WHERE, joined above the aggregate
  [
    `SELECT k, sum(v) AS s FROM ${KV} GROUP BY k HAVING sum(v) > (SELECT max(w) FROM ${KW} WHERE u.k = t.k)`,
    { columns: ["k", "s"], rows: ['{"k":"a","s":1}'] },
  ],
  [
    `SELECT k, sum(v) AS s FROM ${KV} GROUP BY k HAVING sum(v) >= (SELECT count(*) FROM ${KW} WHERE u.k = t.k)`,
    { columns: ["k", "s"], rows: ['{"k":"a","s":1}', '{"k":"b","s":7}', '{"k":"c","s":4}'] },
  ],
  [
    `SELECT k, sum(v) AS s FROM ${KV} GROUP BY k HAVING (SELECT count(*) FROM ${KW} WHERE u.k = t.k) = 0`,
    { columns: ["k", "s"], rows: ['{"k":"c","s":4}'] },
  ],
  [
    `SELECT k, sum(v) AS s FROM ${KV} GROUP BY k HAVING max(v) < (SELECT sum(w) FROM ${KW} WHERE u.k = t.k) AND sum(v) > (SELECT 1)`,
    { columns: ["k", "s"], rows: ['{"k":"b","s":7}'] },
  ],
  [
    `SELECT k, count(*) AS c FROM ${KV} GROUP BY k HAVING count(*) < (SELECT max(w) FROM ${KW} WHERE u.k <> t.k)`,
    { columns: ["k", "c"], rows: ['{"k":"a","c":1}', '{"k":"c","c":1}'] },
  ],
];

describe("subqueries in WHERE", () => {
  it("give PySpark 4.3's columns and rows", async () => {
    for (const [sql, expected] of PYSPARK) assert.deepEqual(await queryOutcome(session, sql), expected, sql);
  });

  it("filter a stream by a static table: IN, and a correlated NOT EXISTS", async () => {
    const events = session.memoryStream("id INT, v STRING");
    events.toDF().createOrReplaceTempView("sub_events");
    session.createDataFrame([{ id: 1 }, { id: 3 }], "id INT").createOrReplaceTempView("sub_allowed");
    events.addData([
      { id: 1, v: "a" },
      { id: 2, v: "b" },
      { id: 3, v: null },
      { id: 3, v: "c" },
    ]);
    const kept = await session
      .sql("SELECT id, v FROM sub_events WHERE id IN (SELECT id FROM sub_allowed) AND v IS NOT NULL")
      .writeStream.format("memory")
      .queryName("sub_kept")
      .outputMode("append")
      .start();
    const others = await session
      .sql("SELECT id FROM sub_events WHERE NOT EXISTS (SELECT 1 FROM sub_allowed a WHERE a.id = sub_events.id)")
      .writeStream.format("memory")
      .queryName("sub_others")
      .outputMode("append")
      .start();
    await kept.processAllAvailable();
    await others.processAllAvailable();
    await kept.stop();
    await others.stop();
    assert.deepEqual(await session.sql("SELECT * FROM sub_kept ORDER BY id").toArray(), [
      [1, "a"],
      [3, "c"],
    ]);
    assert.deepEqual(await session.sql("SELECT * FROM sub_others").toArray(), [[2]]);
  });

  it("a scalar subquery on a stream: a threshold from a static table", async () => {
    const events = session.memoryStream("id INT");
    events.toDF().createOrReplaceTempView("sub_ids");
    session.createDataFrame([{ t: 2 }], "t INT").createOrReplaceTempView("sub_threshold");
    events.addData([{ id: 1 }, { id: 3 }, { id: 5 }]);
    const q = await session
      .sql("SELECT id, (SELECT max(t) FROM sub_threshold) AS m FROM sub_ids WHERE id > (SELECT max(t) FROM sub_threshold)")
      .writeStream.format("memory")
      .queryName("sub_scalar")
      .outputMode("append")
      .start();
    await q.processAllAvailable();
    await q.stop();
    assert.deepEqual(await session.sql("SELECT * FROM sub_scalar ORDER BY id").toArray(), [
      [3, 2],
      [5, 2],
    ]);
  });

  it("refuses a subquery outside a WHERE conjunct", () => {
    assert.throws(
      () => session.sql("SELECT v FROM VALUES (1), (2) AS t(v) ORDER BY v IN (SELECT 2)"),
      /\[UNSUPPORTED_FEATURE\] IN and EXISTS subqueries are supported in a WHERE condition/,
    );
    assert.throws(
      () => session.sql("SELECT k, sum(v) FROM VALUES ('a', 1), ('b', 5) AS t(k, v) GROUP BY k HAVING sum(v) > 2 OR k IN (SELECT 'a')"),
      /not inside a larger HAVING expression/,
    );
    assert.throws(
      () => session.sql("SELECT k, sum(v) FROM VALUES ('a', 1), ('b', 5) AS t(k, v) GROUP BY k ORDER BY sum(v) > (SELECT 2)"),
      /\[UNSUPPORTED_FEATURE\] Scalar subqueries are supported in a SELECT list, in a WHERE condition and in a HAVING condition/,
    );
  });
});
