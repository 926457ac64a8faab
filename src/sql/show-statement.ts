/**
 * The catalog statements that only read: SHOW TABLES / SHOW VIEWS [IN|FROM ns] [[LIKE] 'pattern'],
 * SHOW COLUMNS IN|FROM name [IN|FROM ns], DESCRIBE|DESC [TABLE] [EXTENDED|FORMATTED] name [column]
 * and DESCRIBE [QUERY] query. Names stay text here; the catalog resolves them (api/sql-commands.ts).
 */
import type { LogicalPlan } from "../plan/logical.js";
import type { Cursor } from "./cursor.js";
import { readQuery } from "./query.js";

export type ShowStatement =
  | {
      readonly kind: "showTables";
      /** SHOW VIEWS (columns namespace, viewName, isTemporary) rather than SHOW TABLES. */
      readonly views: boolean;
      readonly namespace: readonly string[] | null;
      readonly pattern: string | null;
    }
  | { readonly kind: "showColumns"; readonly table: readonly string[] }
  | { readonly kind: "describe"; readonly table: readonly string[]; readonly extended: boolean; readonly column: readonly string[] | null }
  | { readonly kind: "describeQuery"; readonly plan: LogicalPlan };

/** A SHOW / DESCRIBE statement at the cursor, or null (the cursor unmoved) when there is none. */
export function readShowStatement(cur: Cursor): ShowStatement | null {
  if (cur.isKeyword("SHOW") && (cur.isKeyword("TABLES", 1) || cur.isKeyword("VIEWS", 1))) return showTables(cur);
  if (cur.isKeyword("SHOW") && cur.isKeyword("COLUMNS", 1)) return showColumns(cur);
  if (cur.isKeyword("DESCRIBE") || cur.isKeyword("DESC")) return describe(cur);
  return null;
}

function showTables(cur: Cursor): ShowStatement {
  cur.next();
  const views = cur.next().value.toUpperCase() === "VIEWS";
  const namespace = cur.acceptKeyword("IN") || cur.acceptKeyword("FROM") ? multipartName(cur) : null;
  const like = cur.acceptKeyword("LIKE");
  let pattern: string | null = null;
  if (like || cur.peek().kind === "string") {
    if (cur.peek().kind !== "string") throw cur.error();
    pattern = cur.next().value;
  }
  return { kind: "showTables", views, namespace, pattern };
}

function showColumns(cur: Cursor): ShowStatement {
  cur.next();
  cur.next();
  if (!cur.acceptKeyword("IN")) cur.expectKeyword("FROM");
  const table = multipartName(cur);
  // SHOW COLUMNS IN t IN db is t qualified by db
  if (cur.acceptKeyword("IN") || cur.acceptKeyword("FROM")) return { kind: "showColumns", table: [...multipartName(cur), ...table] };
  return { kind: "showColumns", table };
}

function describe(cur: Cursor): ShowStatement {
  cur.next();
  for (const what of ["FUNCTION", "DATABASE", "SCHEMA", "NAMESPACE", "CATALOG", "PROCEDURE"])
    if (cur.isKeyword(what) && !cur.isOp(";", 1) && cur.peek(1).kind !== "eof")
      throw cur.fail(`DESCRIBE ${what} is not supported by arus (DESCRIBE [TABLE] name and DESCRIBE QUERY are).`);
  if (cur.acceptKeyword("QUERY") || isQueryStart(cur)) return { kind: "describeQuery", plan: readQuery(cur) };
  cur.acceptKeyword("TABLE");
  const extended = cur.acceptKeyword("EXTENDED") || cur.acceptKeyword("FORMATTED");
  const table = multipartName(cur);
  if (cur.isKeyword("AS") && cur.isKeyword("JSON", 1)) throw cur.fail("DESCRIBE ... AS JSON is not supported by arus.");
  const column = cur.atEnd() || cur.isOp(";") ? null : multipartName(cur);
  return { kind: "describe", table, extended, column };
}

/** DESCRIBE SELECT / WITH / VALUES / FROM / TABLE t... is DESCRIBE QUERY (as Spark's grammar). */
function isQueryStart(cur: Cursor): boolean {
  return ["SELECT", "WITH", "VALUES", "FROM", "MAP", "REDUCE"].some((k) => cur.isKeyword(k)) || cur.isOp("(");
}

/** `a`, `a.b`, `` `a b`.c ``: the parts of a dotted name. */
function multipartName(cur: Cursor): string[] {
  const parts = [cur.identifier()];
  while (cur.acceptOp(".")) parts.push(cur.identifier());
  return parts;
}
