/**
 * Expression parser: recursive descent, one function per precedence level, lowest first.
 *
 * Levels follow Spark's grammar (SqlBaseParser.g4): OR < AND < NOT < predicate (IS NULL, IN,
 * BETWEEN, LIKE) and comparison < `|` < `^` < `&` < `+ - ||` < `* / % DIV` < unary < postfix
 * (`.field`, `[i]`, `::type`) < primary. Operators become calls named after the operator.
 */

import { arityError } from "../common/errors.js";
import { lookupFunction } from "../functions/index.js";
import {
  alias,
  type Call,
  call,
  callByName,
  caseWhen,
  cast,
  columnRef,
  type Expr,
  filteredAggregate,
  lambdaFunction,
  literal,
  multiAlias,
  type SortOrder,
  star,
  tryCast,
  unresolvedLambdaVar,
} from "../plan/expressions.js";
import { checkOrderedSetArity, requiresWithinGroup, withinGroupCall, withinGroupMissing } from "../plan/within-group.js";
import { BooleanType, IntegerType, NullType, StringType } from "../types/datatypes.js";
import type { Cursor } from "./cursor.js";
import { parseDataType, readDataType } from "./datatype.js";
import { binaryLiteral, isTypedLiteralStart, niladicCall, numberLiteral, stringLiteral, typedLiteral } from "./literals.js";
import { readQuantifiedLike } from "./quantified-like.js";
import { withJsonSchemaLiteral } from "./schema-literals.js";
import { readStringSyntax } from "./string-syntax.js";
import { readSubquery, subqueryReader } from "./subquery-syntax.js";
import { type ExpressionReaders, readSortItem, readWindowSpec } from "./window-spec.js";

/** Keywords that can never be a bare column reference. */
export const NON_EXPR_KEYWORDS: ReadonlySet<string> = new Set([
  "SELECT",
  "FROM",
  "WHERE",
  "GROUP",
  "HAVING",
  "ORDER",
  "LIMIT",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "JOIN",
  "ON",
  "USING",
  "AS",
  "AND",
  "OR",
  "IS",
  "IN",
  "BETWEEN",
  "LIKE",
  "RLIKE",
  "REGEXP",
  "ILIKE",
  "WHEN",
  "THEN",
  "ELSE",
  "END",
  "NOT",
]);

/** Keywords that cannot be an alias written without AS (`SELECT a x`, `FROM t x`). */
export const ALIAS_RESERVED: ReadonlySet<string> = new Set([
  ...NON_EXPR_KEYWORDS,
  "ASC",
  "DESC",
  "NULLS",
  "INNER",
  "LEFT",
  "RIGHT",
  "FULL",
  "CROSS",
  "NATURAL",
  "SEMI",
  "ANTI",
  "OUTER",
  "LATERAL",
  "WINDOW",
  "ESCAPE",
  "OVER",
  "FILTER",
  "SORT",
  "CLUSTER",
  "DISTRIBUTE",
  "OFFSET",
  "MINUS",
  "QUALIFY",
  "DIV",
  "TABLESAMPLE",
  "PIVOT",
  "UNPIVOT",
  "FOR",
]);

const COMPARISON: Readonly<Record<string, string>> = {
  "=": "=",
  "==": "=",
  "<=>": "<=>",
  "!=": "!=",
  "<>": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};

export function readExpression(cur: Cursor): Expr {
  return readOr(cur);
}

/** An expression with an optional alias: `expr AS name` or (if allowed) `expr name`. */
export function readNamedExpression(cur: Cursor): Expr {
  const e = readExpression(cur);
  if (cur.acceptKeyword("AS")) {
    // `posexplode(a) AS (p, v)`: names for a generator's columns.
    if (cur.acceptOp("(")) {
      const names = [cur.identifier()];
      while (cur.acceptOp(",")) names.push(cur.identifier());
      cur.expectOp(")");
      return multiAlias(e, names);
    }
    return alias(e, cur.identifier());
  }
  if (cur.isIdentifier(ALIAS_RESERVED)) return alias(e, cur.next().value);
  return e;
}

function readOr(cur: Cursor): Expr {
  let left = readAnd(cur);
  while (cur.acceptKeyword("OR")) left = call("or", [left, readAnd(cur)]);
  return left;
}

function readAnd(cur: Cursor): Expr {
  let left = readNot(cur);
  while (cur.acceptKeyword("AND")) left = call("and", [left, readNot(cur)]);
  return left;
}

function readNot(cur: Cursor): Expr {
  if (cur.acceptKeyword("NOT") || cur.acceptOp("!")) return call("not", [readNot(cur)]);
  // EXISTS (SELECT ...) is a subquery; exists(arr, x -> ...) the higher-order function
  if (cur.isKeyword("EXISTS") && cur.isOp("(", 1) && (cur.isKeyword("SELECT", 2) || cur.isKeyword("WITH", 2))) {
    cur.next();
    return Object.freeze({ ...call("exists_subquery", []), subquery: readSubquery(cur) });
  }
  return readPredicate(cur);
}

const negate = (e: Expr, not: boolean): Expr => (not ? call("not", [e]) : e);

/** A comparison chain followed by at most one predicate, as in Spark's `valueExpression predicate?`. */
function readPredicate(cur: Cursor): Expr {
  const value = readComparison(cur);
  if (cur.acceptKeyword("IS")) {
    const not = cur.acceptKeyword("NOT");
    if (cur.acceptKeyword("NULL")) return call(not ? "isnotnull" : "isnull", [value]);
    if (cur.acceptKeyword("TRUE")) return negate(call("<=>", [value, literal(true, BooleanType)]), not);
    if (cur.acceptKeyword("FALSE")) return negate(call("<=>", [value, literal(false, BooleanType)]), not);
    if (cur.acceptKeyword("UNKNOWN")) return call(not ? "isnotnull" : "isnull", [value]);
    if (cur.acceptKeyword("DISTINCT", "FROM")) return negate(call("<=>", [value, readComparison(cur)]), !not);
    throw cur.error();
  }
  let not = false;
  if (cur.isKeyword("NOT") && ["IN", "BETWEEN", "LIKE", "RLIKE", "REGEXP", "ILIKE"].some((k) => cur.isKeyword(k, 1))) {
    cur.next();
    not = true;
  }
  if (cur.acceptKeyword("IN")) {
    if (cur.isOp("(") && (cur.isKeyword("SELECT", 1) || cur.isKeyword("WITH", 1))) {
      return negate(Object.freeze({ ...call("in_subquery", [value]), subquery: readSubquery(cur) }), not);
    }
    cur.expectOp("(");
    const list = [readExpression(cur)];
    while (cur.acceptOp(",")) list.push(readExpression(cur));
    cur.expectOp(")");
    return negate(call("in", [value, ...list]), not);
  }
  if (cur.acceptKeyword("BETWEEN")) {
    const lower = readComparison(cur);
    cur.expectKeyword("AND");
    const upper = readComparison(cur);
    const range = Object.freeze({ ...call("and", [call(">=", [value, lower]), call("<=", [value, upper])]), between: true });
    return negate(range, not);
  }
  const likeKw = ["LIKE", "RLIKE", "REGEXP", "ILIKE"].find((k) => cur.isKeyword(k));
  if (likeKw) {
    cur.next();
    if (cur.isKeyword("ANY") || cur.isKeyword("ALL") || cur.isKeyword("SOME")) {
      if (likeKw !== "LIKE" && likeKw !== "ILIKE") throw cur.fail(`[PARSE_SYNTAX_ERROR] ${likeKw} takes no ANY, SOME or ALL.`);
      return readQuantifiedLike(cur, value, likeKw === "ILIKE", not);
    }
    const pattern = readComparison(cur);
    const name = likeKw === "REGEXP" ? "rlike" : likeKw.toLowerCase();
    if (likeKw !== "RLIKE" && likeKw !== "REGEXP" && cur.acceptKeyword("ESCAPE")) {
      const t = cur.peek();
      if (t.kind !== "string") throw cur.error(t);
      if (t.value.length !== 1) {
        throw cur.fail(`[INVALID_ESC] Found an invalid escape string: '${t.value}'. The escape string must contain only one character.`, t);
      }
      cur.next();
      return negate(call(name, [value, pattern, literal(t.value, StringType)]), not);
    }
    return negate(call(name, [value, pattern]), not);
  }
  if (not) throw cur.error();
  return value;
}

function readComparison(cur: Cursor): Expr {
  let left = readBitOr(cur);
  for (;;) {
    const t = cur.peek();
    const op = t.kind === "op" ? COMPARISON[t.value] : undefined;
    if (!op) return left;
    cur.next();
    left = call(op, [left, readBitOr(cur)]);
  }
}

/** Left-associative binary level over `next`, for operator tokens in `ops`. */
function binaryLevel(cur: Cursor, ops: readonly string[], next: (c: Cursor) => Expr): Expr {
  let left = next(cur);
  for (;;) {
    const t = cur.peek();
    if (t.kind !== "op" || !ops.includes(t.value)) return left;
    cur.next();
    left = call(t.value === "||" ? "concat" : t.value, [left, next(cur)]);
  }
}

function readBitOr(cur: Cursor): Expr {
  return binaryLevel(cur, ["|"], readBitXor);
}
/** The readers window specifications (window-spec.ts) read their expressions with. */
export const EXPRESSION_READERS: ExpressionReaders = { expression: readExpression, bitOr: readBitOr };

function readBitXor(cur: Cursor): Expr {
  return binaryLevel(cur, ["^"], readBitAnd);
}
function readBitAnd(cur: Cursor): Expr {
  return binaryLevel(cur, ["&"], readAdditive);
}
/** Spark puts `||` on the same level as binary `+` and `-`. */
function readAdditive(cur: Cursor): Expr {
  return binaryLevel(cur, ["+", "-", "||"], readMultiplicative);
}

function readMultiplicative(cur: Cursor): Expr {
  let left = readUnary(cur);
  for (;;) {
    const t = cur.peek();
    let name: string;
    if (t.kind === "op" && (t.value === "*" || t.value === "/" || t.value === "%")) name = t.value;
    else if (cur.isKeyword("DIV")) name = "div";
    else return left;
    cur.next();
    left = call(name, [left, readUnary(cur)]);
  }
}

function readUnary(cur: Cursor): Expr {
  if (cur.isOp("-") || cur.isOp("+")) {
    const minus = cur.next().value === "-";
    // `-5` is one literal (so -2147483648 is still an INT), then any postfix applies to it.
    if (cur.peek().kind === "number") return readPostfix(cur, numberLiteral(cur, cur.next(), minus));
    const operand = readUnary(cur);
    if (!minus) return call("positive", [operand]);
    if (operand.kind === "literal" && operand.type.kind === "interval" && typeof operand.value === "number") {
      return literal(-operand.value, operand.type);
    }
    return call("negative", [operand]);
  }
  if (cur.acceptOp("~")) return call("~", [readUnary(cur)]);
  return readPostfix(cur, readPrimary(cur));
}

function readPostfix(cur: Cursor, base: Expr): Expr {
  let e = base;
  for (;;) {
    if (cur.acceptOp(".")) {
      e = call("getfield", [e, literal(cur.identifier(), StringType)]);
    } else if (cur.acceptOp("[")) {
      const idx = readExpression(cur);
      cur.expectOp("]");
      e = call("getitem", [e, idx]);
    } else if (cur.acceptOp("::")) {
      e = cast(e, readDataType(cur));
    } else return e;
  }
}

function readPrimary(cur: Cursor): Expr {
  const t = cur.peek();
  switch (t.kind) {
    case "number":
      cur.next();
      return numberLiteral(cur, t, false);
    case "string":
      return stringLiteral(cur);
    case "binary":
      cur.next();
      return binaryLiteral(t);
    case "qident":
      return readNameOrCall(cur);
    case "op": {
      if (t.value === "*") {
        cur.next();
        return star();
      }
      if (t.value === "(") return readParenthesized(cur);
      const parameter = cur.acceptParameter();
      if (parameter) return parameter;
      throw cur.error();
    }
    case "ident":
      return readKeywordOrName(cur);
    default:
      throw cur.error();
  }
}

/** `(expr)`, or `(a, b)` which Spark reads as an anonymous struct. */
function readParenthesized(cur: Cursor): Expr {
  cur.expectOp("(");
  if (cur.isKeyword("SELECT") || cur.isKeyword("WITH")) {
    // a scalar subquery: scalar_subquery() holding the query (analyzer/subqueries.ts plans it)
    const plan = subqueryReader(cur);
    cur.expectOp(")");
    return Object.freeze({ ...call("scalar_subquery", []), subquery: plan });
  }
  const first = readExpression(cur);
  if (!cur.isOp(",")) {
    cur.expectOp(")");
    return first;
  }
  const items = [first];
  while (cur.acceptOp(",")) items.push(readExpression(cur));
  cur.expectOp(")");
  return call("struct", items);
}

function readKeywordOrName(cur: Cursor): Expr {
  const t = cur.peek();
  const kw = t.value.toUpperCase();
  if (kw === "CASE") return readCase(cur);
  if ((kw === "CAST" || kw === "TRY_CAST") && cur.isOp("(", 1)) return readCast(cur, kw === "TRY_CAST");
  if (isTypedLiteralStart(cur)) return typedLiteral(cur);
  const niladic = niladicCall(cur);
  if (niladic) return niladic;
  if (!cur.isOp(".", 1)) {
    if (kw === "TRUE" || kw === "FALSE") {
      cur.next();
      return literal(kw === "TRUE", BooleanType);
    }
    if (kw === "NULL") {
      cur.next();
      return literal(null, NullType);
    }
  }
  // like(s, p), ilike(s, p), rlike(s, p) and regexp(s, p) are also functions in Spark.
  const matcherCall = ["LIKE", "ILIKE", "RLIKE", "REGEXP"].includes(kw) && cur.isOp("(", 1);
  if (NON_EXPR_KEYWORDS.has(kw) && !matcherCall) throw cur.error();
  return readNameOrCall(cur);
}

/** `a`, `t.a.b`, `t.*`, or a call `f(...)` / `db.f(...)`. */
function readNameOrCall(cur: Cursor): Expr {
  const parts = [cur.next().value];
  while (cur.isOp(".")) {
    if (cur.isOp("*", 1)) {
      cur.next();
      cur.next();
      return star(parts.join("."));
    }
    if (!cur.isIdentifier(undefined, 1)) break;
    cur.next();
    parts.push(cur.next().value);
  }
  if (cur.isOp("(")) return readCall(cur, parts.join("."));
  return columnRef(parts);
}

/** A function only arus's own rewrites call (`ScalarFunction.internal`): Spark's SQL has no such name. */
function internalOnly(name: string): boolean {
  const d = lookupFunction(name);
  return d?.kind === "scalar" && d.internal === true;
}

/** A call of an internal function written in SQL text: the analyzer refuses it (UNRESOLVED_ROUTINE). */
function textCall(name: string, args: readonly Expr[], distinct: boolean): Call {
  return Object.freeze({ ...call(name, args, distinct), fromText: true });
}

function readCall(cur: Cursor, name: string): Expr {
  cur.expectOp("(");
  const special = readStringSyntax(cur, name.toLowerCase(), readComparison);
  if (special) return special;
  let distinct = false;
  if (cur.acceptKeyword("DISTINCT")) distinct = true;
  else cur.acceptKeyword("ALL");
  const args: Expr[] = [];
  if (!cur.isOp(")")) {
    do {
      const lambda = readLambda(cur);
      if (lambda) {
        args.push(lambda);
        continue;
      }
      const arg = readExpression(cur);
      // `struct(1 AS a, x AS b)`: Spark names a struct's fields by its arguments' aliases.
      args.push(name.toLowerCase() === "struct" && cur.acceptKeyword("AS") ? alias(arg, cur.identifier()) : arg);
    } while (cur.acceptOp(","));
  }
  cur.expectOp(")");
  let lower = name.toLowerCase();
  // `f(args) WITHIN GROUP (ORDER BY keys)`, before FILTER as in Spark's grammar (plan/within-group.ts)
  const keys = readWithinGroup(cur);
  if (keys === null && requiresWithinGroup(lower, args.length)) {
    checkOrderedSetArity(lower, args.length);
    throw withinGroupMissing(lower);
  }
  const ordered: Call | null = keys === null ? null : withinGroupCall(lower, args, distinct, keys);
  // `agg(args) FILTER (WHERE cond)`, before IGNORE / RESPECT NULLS as in Spark's grammar: rows
  // where cond does not hold reach the aggregate as NULLs (plan/expressions.ts filteredAggregate);
  // the analyzer checks cond and the function (analyzer/aggregate-filter.ts).
  let filter: Expr | null = null;
  if (cur.isKeyword("FILTER") && cur.isOp("(", 1)) {
    cur.next();
    cur.expectOp("(");
    if (!cur.acceptKeyword("WHERE")) throw cur.fail("[PARSE_SYNTAX_ERROR] Syntax error: FILTER takes (WHERE condition).");
    filter = readExpression(cur);
    cur.expectOp(")");
  }
  // `first(x) IGNORE NULLS` is Spark's spelling of first(x, true) (lag/lead/nth_value likewise).
  if (cur.acceptKeyword("IGNORE", "NULLS")) {
    const ignoreAt = IGNORE_NULLS_ARG[lower];
    if (ignoreAt === undefined) {
      throw cur.fail(
        `[INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX] Invalid SQL syntax: The function \`${lower}\` does not support IGNORE NULLS.`,
      );
    }
    if (ignoreAt === 3) {
      if (args.length < 2) args.push(literal(1, IntegerType));
      if (args.length < 3) args.push(literal(null, NullType));
    }
    args.push(literal(true, BooleanType));
    lower = nullsClauseName(lower);
  } else if (cur.acceptKeyword("RESPECT", "NULLS")) lower = nullsClauseName(lower);
  if (ordered) {
    const fn = filter
      ? Object.freeze({ ...filteredAggregate(lower, ordered.args, distinct, filter), withinGroup: ordered.withinGroup })
      : ordered;
    return cur.acceptKeyword("OVER") ? readWindowSpec(cur, fn, EXPRESSION_READERS) : fn;
  }
  if (filter) {
    const counted = lower === "count" ? args.map((a) => (a.kind === "star" ? literal(1, IntegerType) : a)) : args;
    const fn = filteredAggregate(lower, counted, distinct, filter);
    return cur.acceptKeyword("OVER") ? readWindowSpec(cur, fn, EXPRESSION_READERS) : fn;
  }
  if (CAST_FUNCTIONS.has(lower) && !distinct && !cur.isKeyword("OVER")) {
    // Spark's cast functions: int(x) is CAST(x AS INT), float(x) CAST(x AS FLOAT), ...
    if (args.length !== 1) {
      throw cur.fail(arityError(lower, "1", args.length).message);
    }
    return cast(args[0]!, parseDataType(lower));
  }
  // negative(x) keeps its name (Spark prints the name a UnaryMinus was called by)
  const fn = withJsonSchemaLiteral(
    lower === "negative" && !distinct
      ? callByName(lower, args)
      : internalOnly(lower)
        ? textCall(lower, args, distinct)
        : call(lower, args, distinct),
  );
  if (cur.acceptKeyword("OVER")) return readWindowSpec(cur, fn, EXPRESSION_READERS);
  return fn;
}

/** The keys of `WITHIN GROUP (ORDER BY k [ASC | DESC] [NULLS ...], ...)` after a call, or null when none follows. */
function readWithinGroup(cur: Cursor): SortOrder[] | null {
  if (!(cur.isKeyword("WITHIN") && cur.isKeyword("GROUP", 1) && cur.isOp("(", 2))) return null;
  cur.next();
  cur.next();
  cur.expectOp("(");
  cur.expectKeyword("ORDER");
  cur.expectKeyword("BY");
  const keys: SortOrder[] = [];
  do keys.push(readSortItem(cur, EXPRESSION_READERS));
  while (cur.acceptOp(","));
  cur.expectOp(")");
  return keys;
}

/**
 * A lambda argument, `x -> body` or `(x, y) -> body` (analyzer/lambdas.ts binds its variables);
 * null when the next tokens are not one.
 */
function readLambda(cur: Cursor): Expr | null {
  const names: string[] = [];
  if (cur.isIdentifier() && cur.isOp("->", 1)) names.push(cur.next().value);
  else if (cur.isOp("(")) {
    let k = 1;
    while (cur.isIdentifier(undefined, k) && (cur.isOp(",", k + 1) || cur.isOp(")", k + 1))) {
      if (cur.isOp(")", k + 1)) break;
      k += 2;
    }
    if (!(cur.isIdentifier(undefined, k) && cur.isOp(")", k + 1) && cur.isOp("->", k + 2))) return null;
    cur.next();
    do names.push(cur.identifier());
    while (cur.acceptOp(","));
    cur.expectOp(")");
  } else return null;
  cur.expectOp("->");
  return lambdaFunction(readExpression(cur), names.map(unresolvedLambdaVar));
}

/** Type names Spark also accepts as one-argument cast functions. */
const CAST_FUNCTIONS = new Set([
  "boolean",
  "tinyint",
  "smallint",
  "int",
  "bigint",
  "float",
  "double",
  "decimal",
  "date",
  "timestamp",
  "binary",
  "string",
]);

/** With IGNORE / RESPECT NULLS Spark's parser builds First / Last itself: `first_value(x) IGNORE NULLS` is named `first(x)`. */
const nullsClauseName = (name: string): string => (name === "first_value" ? "first" : name === "last_value" ? "last" : name);

/** Position of the ignoreNulls flag among each function's arguments. */
const IGNORE_NULLS_ARG: Readonly<Record<string, number>> = {
  first: 1,
  last: 1,
  first_value: 1,
  last_value: 1,
  any_value: 1,
  nth_value: 2,
  lag: 3,
  lead: 3,
};

function readCast(cur: Cursor, isTry = false): Expr {
  cur.next();
  cur.expectOp("(");
  const child = readExpression(cur);
  cur.expectKeyword("AS");
  const to = readDataType(cur);
  cur.expectOp(")");
  return isTry ? tryCast(child, to) : cast(child, to);
}

/** Both CASE forms; `CASE x WHEN v THEN r` becomes `CASE WHEN x = v THEN r`. */
function readCase(cur: Cursor): Expr {
  cur.next();
  const subject = cur.isKeyword("WHEN") ? null : readExpression(cur);
  const branches: [Expr, Expr][] = [];
  while (cur.acceptKeyword("WHEN")) {
    const cond = readExpression(cur);
    cur.expectKeyword("THEN");
    const value = readExpression(cur);
    branches.push([subject ? call("=", [subject, cond]) : cond, value]);
  }
  if (branches.length === 0) throw cur.error();
  const otherwise = cur.acceptKeyword("ELSE") ? readExpression(cur) : null;
  cur.expectKeyword("END");
  return caseWhen(branches, otherwise);
}
