/**
 * `spark.sql(text)` statements besides a query: Spark's CREATE [OR REPLACE] TEMP[ORARY] VIEW
 * name [(columns)] AS query, DROP VIEW [IF EXISTS] name, SET / RESET (set-statement.ts) and
 * SHOW TABLES / VIEWS / COLUMNS and DESCRIBE (show-statement.ts). A query is parsed by
 * query.ts; everything else Spark's SQL knows (tables, DDL, USE, ...) stays a syntax error.
 */
import type { LogicalPlan } from "../plan/logical.js";
import { Cursor, type SqlParameters } from "./cursor.js";
import { readQuery } from "./query.js";
import { type ConfStatement, readConfStatement } from "./set-statement.js";
import { readShowStatement, type ShowStatement } from "./show-statement.js";

export type Statement =
  | { readonly kind: "query"; readonly plan: LogicalPlan }
  | {
      readonly kind: "createTempView";
      readonly name: string;
      readonly replace: boolean;
      /** `(a, b)` after the name: the view's column names, in order. */
      readonly columns: readonly string[] | null;
      readonly plan: LogicalPlan;
    }
  | { readonly kind: "dropView"; readonly name: string; readonly ifExists: boolean }
  | ConfStatement
  | ShowStatement;

/** A statement; null when `text` is empty. */
export function readStatement(text: string, params?: SqlParameters): Statement | null {
  // SET's key and value are raw text (`SET a.b=c d`), read before any tokenizing
  const conf = readConfStatement(text);
  if (conf) return conf;
  const cur = new Cursor(text, params);
  if (cur.atEnd()) return null;
  let st: Statement;
  if (cur.isKeyword("CREATE") && isTempView(cur)) st = createTempView(cur);
  else if (cur.acceptKeyword("DROP", "VIEW")) {
    const ifExists = cur.acceptKeyword("IF", "EXISTS");
    st = { kind: "dropView", name: cur.identifier(), ifExists };
  } else st = readShowStatement(cur) ?? { kind: "query", plan: readQuery(cur) };
  cur.expectEnd();
  return st;
}

/** CREATE [OR REPLACE] TEMP|TEMPORARY VIEW ahead (a GLOBAL view, or a table, is not). */
function isTempView(cur: Cursor): boolean {
  let k = 1;
  if (cur.isKeyword("OR", k) && cur.isKeyword("REPLACE", k + 1)) k += 2;
  return (cur.isKeyword("TEMP", k) || cur.isKeyword("TEMPORARY", k)) && cur.isKeyword("VIEW", k + 1);
}

function createTempView(cur: Cursor): Statement {
  cur.expectKeyword("CREATE");
  const replace = cur.acceptKeyword("OR", "REPLACE");
  if (!cur.acceptKeyword("TEMPORARY")) cur.expectKeyword("TEMP");
  cur.expectKeyword("VIEW");
  const start = cur.peek(0);
  const ifNotExists = cur.acceptKeyword("IF", "NOT", "EXISTS");
  const name = cur.identifier();
  if (ifNotExists && replace)
    throw cur.fail(
      `[CREATE_VIEW_WITH_IF_NOT_EXISTS_AND_REPLACE] CREATE VIEW ${name} with both IF NOT EXISTS and REPLACE is not allowed. SQLSTATE: 42601`,
      start,
    );
  if (ifNotExists) throw cur.fail("It is not allowed to define a TEMPORARY view with IF NOT EXISTS.", start);
  let columns: string[] | null = null;
  if (cur.acceptOp("(")) {
    columns = [cur.identifier()];
    while (cur.acceptOp(",")) columns.push(cur.identifier());
    cur.expectOp(")");
  }
  cur.expectKeyword("AS");
  return { kind: "createTempView", name, replace, columns, plan: readQuery(cur) };
}
