/**
 * The two small tables the SQL differential tests (self-joins, correlated subqueries, PIVOT /
 * UNPIVOT) were run on in PySpark 4.3.0 — `t1 (k INT, v INT)` and `t2 (k INT, w INT)`, NULLs
 * in both — and the check that a query gives PySpark's columns, types and rows (in any order)
 * or its error class.
 */
import assert from "node:assert/strict";
import { type DataFrame, Session } from "../../src/index.js";

export type Expected = { cols: string[]; types: string[]; rows: unknown[][] } | { error: string };

export const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
session
  .createDataFrame(
    [
      [1, 10],
      [1, 20],
      [2, 5],
      [3, 7],
      [null, 1],
      [4, null],
    ],
    "k INT, v INT",
  )
  .createOrReplaceTempView("t1");
session
  .createDataFrame(
    [
      [1, 15],
      [1, 10],
      [2, 1],
      [2, 9],
      [2, 5],
      [null, 3],
      [4, null],
      [5, 2],
    ],
    "k INT, w INT",
  )
  .createOrReplaceTempView("t2");

/** Rows as sorted JSON texts (BIGINTs as numbers), to compare without an order. */
export const canonical = (rows: unknown[][]): string[] =>
  rows.map((r) => JSON.stringify(r.map((x) => (typeof x === "bigint" ? Number(x) : x)))).sort();

export async function assertAsPySpark(query: () => DataFrame, expected: Expected): Promise<void> {
  if ("error" in expected) {
    await assert.rejects(
      async () => query().toArray(),
      (e: Error & { errorClass?: string }) => e.errorClass === expected.error,
    );
    return;
  }
  const df = query();
  assert.deepEqual(df.columns, expected.cols);
  assert.deepEqual(
    df.dtypes.map(([, t]) => t),
    expected.types,
  );
  assert.deepEqual(canonical(await df.toArray()), canonical(expected.rows));
}

/** As assertAsPySpark, with the rows in PySpark's order (a query with ORDER BY). */
export async function assertOrderedAsPySpark(query: () => DataFrame, expected: Expected): Promise<void> {
  await assertAsPySpark(query, expected);
  if ("error" in expected) return;
  const rows = (await query().toArray()).map((r) => JSON.stringify(r.map((x) => (typeof x === "bigint" ? Number(x) : x))));
  assert.deepEqual(
    rows,
    expected.rows.map((r) => JSON.stringify(r)),
  );
}
