/**
 * Probes for the Spark-fidelity tests of SQL functions: a query's one row, an expression's type
 * and value as text (how the expected values were read from PySpark), or the error a query fails
 * with.
 */
import assert from "node:assert/strict";
import type { Session } from "../../src/index.js";

/** The first row's values in column order, and the column names. */
export async function firstRow(session: Session, query: string): Promise<{ columns: string[]; values: unknown[] }> {
  const df = session.sql(query);
  const [row] = await df.collect();
  return { columns: df.columns, values: df.columns.map((c) => row![c]) };
}

/** `typeof(e)` and `CAST(e AS STRING)`. */
export async function typeAndText(session: Session, e: string): Promise<[unknown, unknown]> {
  const [r] = await session.sql(`SELECT typeof(${e}) AS t, CAST(${e} AS STRING) AS v`).collect();
  return [r!.t, r!.v];
}

/** The error `query` fails with (the test fails if it does not). */
export async function failureOf(session: Session, query: string): Promise<Error> {
  try {
    await session.sql(query).collect();
  } catch (e) {
    return e as Error;
  }
  assert.fail(`${query} did not fail`);
}
