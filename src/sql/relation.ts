/**
 * FROM-clause relations: table names, CTE references, subqueries, `range(...)`, inline tables
 * (`VALUES ...`), generators as tables, column aliases (`t(a, b)`), LATERAL VIEWs, PIVOT /
 * UNPIVOT clauses (pivot-syntax.ts), and left-deep chains of JOINs with ON / USING.
 */
import { inlineTable } from "../analyzer/inline-table.js";
import { arityError } from "../common/errors.js";
import { generatorOf } from "../functions/index.js";
import { attribute, call, type Expr } from "../plan/expressions.js";
import { type JoinType, type LogicalPlan, Plans } from "../plan/logical.js";
import { LongType } from "../types/datatypes.js";
import type { Cursor } from "./cursor.js";
import { ALIAS_RESERVED, NON_EXPR_KEYWORDS, readExpression } from "./expression.js";
import { readPivotClauses } from "./pivot-syntax.js";
import { readTableSample } from "./table-sample.js";

/** Common table expressions in scope, keyed by lower-case name. */
export type CteScope = ReadonlyMap<string, LogicalPlan>;
/** The query parser, passed in so relations can hold subqueries without an import cycle. */
export type QueryReader = (cur: Cursor, ctes: CteScope) => LogicalPlan;

/** A primary relation followed by any number of joins. */
export function readRelation(cur: Cursor, ctes: CteScope, readQuery: QueryReader): LogicalPlan {
  let plan = readPrimaryRelation(cur, ctes, readQuery);
  for (;;) {
    const natural = cur.acceptKeyword("NATURAL");
    const joinType = natural ? readNaturalJoinType(cur) : readJoinType(cur);
    // Spark's fromClause ends with its PIVOT / UNPIVOT: after the joins, over all of them
    if (joinType === null) return plan.kind === "join" ? readPivotClauses(cur, plan, readOptionalAlias) : plan;
    const right = readPrimaryRelation(cur, ctes, readQuery);
    if (natural) {
      plan = Plans.join(plan, right, joinType, null, null, true, true);
    } else if (cur.acceptKeyword("ON")) {
      plan = Plans.join(plan, right, joinType, readExpression(cur));
    } else if (cur.acceptKeyword("USING")) {
      cur.expectOp("(");
      const cols = [cur.identifier()];
      while (cur.acceptOp(",")) cols.push(cur.identifier());
      cur.expectOp(")");
      plan = Plans.join(plan, right, joinType, null, cols, false, true);
    } else {
      plan = Plans.join(plan, right, joinType, null);
    }
  }
}

function readPrimaryRelation(cur: Cursor, ctes: CteScope, readQuery: QueryReader): LogicalPlan {
  let plan: LogicalPlan;
  if (cur.isKeyword("VALUES")) {
    // the alias's column names name the inline table's columns
    const rows = readValuesRows(cur);
    const alias = readOptionalAlias(cur);
    const names = alias !== null && cur.isOp("(") ? readColumnNames(cur) : null;
    const table = inlineTable(rows, names);
    return readPivotClauses(cur, alias === null ? table : Plans.subqueryAlias(alias, table), readOptionalAlias);
  }
  if (cur.isOp("(")) {
    plan = readParenthesizedRelation(cur, ctes, readQuery);
  } else if (cur.isKeyword("LATERAL")) {
    throw cur.fail("[UNSUPPORTED_FEATURE] LATERAL subqueries are not supported.");
  } else {
    const nameTok = cur.peek();
    const parts = [cur.identifier(NON_EXPR_KEYWORDS)];
    while (cur.isOp(".") && cur.isIdentifier(undefined, 1)) {
      cur.next();
      parts.push(cur.next().value);
    }
    if (cur.isOp("(")) {
      if (parts.length === 1 && parts[0]!.toLowerCase() === "range") plan = readRange(cur);
      else if (parts.length === 1 && generatorOf(parts[0]!)) plan = readGeneratorRelation(cur, parts[0]!);
      else throw cur.fail(`[UNSUPPORTED_FEATURE] Table-valued function ${parts.join(".")}(...) is not supported.`, nameTok);
    } else {
      const cte = parts.length === 1 ? ctes.get(parts[0]!.toLowerCase()) : undefined;
      plan = cte ? Plans.subqueryAlias(parts[0]!, cte) : Plans.unresolvedRelation(tableName(parts));
    }
  }
  plan = readTableSample(cur, plan);
  const alias = readOptionalAlias(cur);
  if (alias !== null) plan = Plans.subqueryAlias(alias, plan, cur.isOp("(") ? readColumnNames(cur) : undefined);
  return readPivotClauses(cur, plan, readOptionalAlias);
}

/** `VALUES (1, 'a'), (2, 'b')` or `VALUES 1, 2`: the rows' expressions. */
export function readValuesRows(cur: Cursor): Expr[][] {
  cur.expectKeyword("VALUES");
  const rows: Expr[][] = [];
  do {
    if (cur.acceptOp("(")) {
      const row = [readExpression(cur)];
      while (cur.acceptOp(",")) row.push(readExpression(cur));
      cur.expectOp(")");
      rows.push(row);
    } else rows.push([readExpression(cur)]);
  } while (cur.acceptOp(","));
  return rows;
}

/** `(a, b)` after a relation's alias (or a CTE's name). */
export function readColumnNames(cur: Cursor): string[] {
  cur.expectOp("(");
  const names = [cur.identifier()];
  while (cur.acceptOp(",")) names.push(cur.identifier());
  cur.expectOp(")");
  return names;
}

/** `(SELECT ...)` or a parenthesized join `(a JOIN b ON ...)`. */
function readParenthesizedRelation(cur: Cursor, ctes: CteScope, readQuery: QueryReader): LogicalPlan {
  cur.expectOp("(");
  let k = 0;
  while (cur.isOp("(", k)) k++;
  const looksLikeQuery = cur.isKeyword("SELECT", k) || cur.isKeyword("WITH", k) || cur.isKeyword("VALUES", k);
  let plan: LogicalPlan;
  if (looksLikeQuery && k === 0) plan = readQuery(cur, ctes);
  else if (looksLikeQuery) {
    // `((SELECT ...) x JOIN ...)` is a relation, `((SELECT ...) UNION ...)` a query: try the query first.
    const save = cur.index;
    try {
      plan = readQuery(cur, ctes);
      if (!cur.isOp(")")) throw cur.error();
    } catch {
      cur.reset(save);
      plan = readRelation(cur, ctes, readQuery);
    }
  } else plan = readRelation(cur, ctes, readQuery);
  cur.expectOp(")");
  return plan;
}

/** A generator in FROM (`FROM explode(array(1, 2))`): its rows over one empty row, as Spark's table-valued generators. */
function readGeneratorRelation(cur: Cursor, name: string): LogicalPlan {
  cur.expectOp("(");
  const args: Expr[] = [];
  if (!cur.isOp(")")) {
    do args.push(readExpression(cur));
    while (cur.acceptOp(","));
  }
  cur.expectOp(")");
  const oneRow = Plans.localRelation([], [{ columns: [], numRows: 1 }]);
  return Plans.generate(call(name, args), false, [], null, null, oneRow);
}

/** `range(end)`, `range(start, end[, step[, numPartitions]])`: Spark's built-in table function, column `id` BIGINT. */
function readRange(cur: Cursor): LogicalPlan {
  const open = cur.expectOp("(");
  const args: number[] = [];
  if (!cur.isOp(")")) {
    do {
      const at = cur.peek();
      const e = readExpression(cur);
      if (e.kind !== "literal" || typeof e.value !== "number" || !Number.isInteger(e.value)) {
        throw cur.fail("[UNSUPPORTED_FEATURE] range() arguments must be integer literals.", at);
      }
      args.push(e.value);
    } while (cur.acceptOp(","));
  }
  cur.expectOp(")");
  if (args.length < 1 || args.length > 4) throw cur.fail(arityError("range", "[1, 2, 3, 4]", args.length).message, open);
  const [start, end, step] = args.length === 1 ? [0, args[0]!, 1] : [args[0]!, args[1]!, args[2] ?? 1];
  if (step === 0)
    throw cur.fail(
      "[FAILED_FUNCTION_CALL] Failed preparing of the function `range` for call. Please, double check function's arguments.",
      open,
    );
  // the fourth, numPartitions, as Spark checks it (a batch here has no partitions to split into)
  if (args.length === 4 && !(args[3]! > 0)) throw cur.fail("Positive number of partitions required", open);
  return Plans.range(start, end, step, [attribute("id", LongType, false)]);
}

/**
 * Hive's `LATERAL VIEW [OUTER] generator(args) tbl [AS] c1, c2` after the FROM relations, any
 * number of them: each is a Generate over what came before, its columns qualified by `tbl`.
 */
export function readLateralViews(cur: Cursor, plan: LogicalPlan): LogicalPlan {
  let out = plan;
  while (cur.acceptKeyword("LATERAL", "VIEW")) {
    const outer = cur.acceptKeyword("OUTER");
    const at = cur.peek();
    const gen = readExpression(cur);
    if (gen.kind !== "call") throw cur.fail("[PARSE_SYNTAX_ERROR] LATERAL VIEW needs a generator call, such as explode(arr).", at);
    const table = cur.identifier(ALIAS_RESERVED);
    const names: string[] = [];
    if (cur.acceptKeyword("AS") || cur.isIdentifier(ALIAS_RESERVED)) {
      names.push(cur.identifier());
      while (cur.acceptOp(",")) names.push(cur.identifier());
    }
    out = Plans.generate(gen, outer, names, table, null, out);
  }
  return out;
}

/** Multi-part names are joined with dots; parts that need it are backticked. */
function tableName(parts: readonly string[]): string {
  if (parts.length === 1) return parts[0]!;
  return parts.map((p) => (/^[\p{L}_][\p{L}\d_]*$/u.test(p) ? p : `\`${p.replaceAll("`", "``")}\``)).join(".");
}

/** Join keywords up to and including JOIN → JoinType; null when no join starts here. */
function readJoinType(cur: Cursor): JoinType | null {
  for (const [words, type] of JOIN_FORMS) if (cur.acceptKeyword(...words)) return type;
  return null;
}

/** After NATURAL: an inner or outer join (Spark's grammar has no NATURAL SEMI, ANTI or CROSS JOIN). */
function readNaturalJoinType(cur: Cursor): JoinType {
  const type = readJoinType(cur);
  if (type === null || type === "cross" || type === "left_semi" || type === "left_anti")
    throw cur.fail("Syntax error: NATURAL takes [INNER | LEFT | RIGHT | FULL] [OUTER] JOIN.");
  return type;
}
const JOIN_FORMS: readonly (readonly [string[], JoinType])[] = [
  [["JOIN"], "inner"],
  [["INNER", "JOIN"], "inner"],
  [["CROSS", "JOIN"], "cross"],
  [["LEFT", "OUTER", "JOIN"], "left_outer"],
  [["LEFT", "SEMI", "JOIN"], "left_semi"],
  [["LEFT", "ANTI", "JOIN"], "left_anti"],
  [["LEFT", "JOIN"], "left_outer"],
  [["SEMI", "JOIN"], "left_semi"],
  [["ANTI", "JOIN"], "left_anti"],
  [["RIGHT", "OUTER", "JOIN"], "right_outer"],
  [["RIGHT", "JOIN"], "right_outer"],
  [["FULL", "OUTER", "JOIN"], "full_outer"],
  [["FULL", "JOIN"], "full_outer"],
];

/** `AS name` or a bare name that is not a clause keyword. */
function readOptionalAlias(cur: Cursor): string | null {
  if (cur.acceptKeyword("AS")) return cur.identifier();
  if (cur.isIdentifier(ALIAS_RESERVED)) return cur.next().value;
  return null;
}
