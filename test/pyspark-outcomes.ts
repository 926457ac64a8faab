/**
 * What a SQL expression or query gives, in the form the tests hold PySpark's answers in (taken
 * by running the same text through PySpark 4.3): an expression as to_json of a one-field struct
 * and its typeof, a query as its columns and its rows as to_json(struct(*)), sorted; an error as
 * its error class.
 */
import type { Session } from "../src/index.js";

export type ExprOutcome = { json: string; type: string } | { error: string };
export type QueryOutcome = { columns: string[]; rows: string[] } | { error: string };

function errorClass(e: unknown): { error: string } {
  const message = (e as Error).message;
  return { error: /^\[([A-Z_.]+)\]/.exec(message)?.[1] ?? message };
}

export async function exprOutcome(session: Session, expr: string): Promise<ExprOutcome> {
  try {
    const [json, type] = (await session.sql(`SELECT to_json(named_struct('r', ${expr})), typeof(${expr})`).toArray())[0]!;
    return { json: json as string, type: type as string };
  } catch (e) {
    return errorClass(e);
  }
}

export async function queryOutcome(session: Session, sql: string): Promise<QueryOutcome> {
  try {
    const df = session.sql(sql);
    const rows = (await df.selectExpr("to_json(struct(*))").toArray()).map((r) => r[0] as string).sort();
    return { columns: df.columns, rows };
  } catch (e) {
    return errorClass(e);
  }
}
