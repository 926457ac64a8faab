/**
 * Expression nodes: frozen plain data with a `kind` discriminant. They evaluate nothing.
 *
 * Unresolved forms (`column`, `star`, `call` before analysis) come from the DataFrame API and
 * the SQL parser; the analyzer replaces column references with `attribute` nodes (which carry
 * an exprId, a type and metadata) and checks every call against the function registry.
 * Operators such as `a + b` or `a = b` are calls too (names `+`, `=`, `and`, ...), so one
 * registry decides their types and kernels.
 */

import type { DataType } from "../types/datatypes.js";
import type { LogicalPlan } from "./logical.js";

let nextExprId = 1;
/** Unique id for attributes and aliases (Spark's ExprId). */
export function newExprId(): number {
  return nextExprId++;
}
/** Every id below this one may be in use (to hand to another thread, see `reserveExprIds`). */
export function exprIdsInUse(): number {
  return nextExprId;
}
/**
 * Ids below `n` are taken: a worker thread rebuilding plan pieces made on the main thread calls
 * this first, so the attributes it creates do not reuse their ids (its counter starts at 1).
 */
export function reserveExprIds(n: number): void {
  if (n > nextExprId) nextExprId = n;
}

/** A reference such as `a`, `t.a` or `window.start`, not yet bound to an input attribute. */
export interface ColumnRef {
  readonly kind: "column";
  readonly nameParts: readonly string[];
}
/** A resolved reference to an attribute of the child plan's output. */
export interface Attribute {
  readonly kind: "attribute";
  readonly name: string;
  readonly type: DataType;
  readonly nullable: boolean;
  readonly exprId: number;
  /** Relation alias(es) this attribute can be qualified with (`t` in `t.a`). */
  readonly qualifier: readonly string[];
  /** Column metadata, e.g. `spark.watermarkDelayMs`. */
  readonly metadata: Readonly<Record<string, unknown>>;
}
export interface Literal {
  readonly kind: "literal";
  /** Internal value (timestamps in micros, dates in days); null for NULL. */
  readonly value: unknown;
  readonly type: DataType;
}
export interface Alias {
  readonly kind: "alias";
  readonly child: Expr;
  readonly name: string;
  readonly exprId: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** The relation alias(es) its attribute keeps (a self-join's re-aliased side, analyzer/dedup-relations.ts). */
  readonly qualifier?: readonly string[];
}
/**
 * `explode(m).alias("k", "v")`, SQL's `posexplode(a) AS (p, v)`: names for the several columns
 * of a generator (Spark's MultiAlias). The analyzer consumes it when it extracts the generator
 * (analyzer/generators.ts); on anything but a generator it is an error.
 */
export interface MultiAlias {
  readonly kind: "multiAlias";
  readonly child: Expr;
  readonly names: readonly string[];
}
/** Function or operator call: `upper(x)`, `+`, `count(DISTINCT x)`. */
export interface Call {
  readonly kind: "call";
  /** Lower-case function name, or an operator symbol. */
  readonly name: string;
  readonly args: readonly Expr[];
  readonly distinct: boolean;
  /**
   * An infix operator Spark prints without parentheses (`ts + INTERVAL '3' DAY`, its TimeAdd,
   * unlike Add's `(a + b)`); set by the analyzer (analyzer/date-arithmetic.ts). On `getfield`:
   * a column path written as a name (`s.a`), named by its last part when it stands alone as an
   * output column (analyzer/resolve-names.ts, analyzer.ts `named`).
   */
  readonly bare?: boolean;
  /**
   * An operator called by its function name (`negative(x)` rather than `-x`), which Spark prints
   * as the name it was called by (its FUNC_ALIAS tag).
   */
  readonly byName?: boolean;
  /** SQL's `x BETWEEN l AND u`: parsed, as Spark replaces it, to `(x >= l) AND (x <= u)`, named `between(x, l, u)`. */
  readonly between?: boolean;
  /**
   * SQL's `x [NOT] LIKE ANY | ALL (p, ...)` of literal patterns: parsed to the ORs / ANDs of
   * `[NOT] x LIKE p` it means, named as Spark names its LikeAny / NotLikeAll...: `likeany(x)`
   * (this is that name's function part; `value` the x it shows).
   */
  readonly quantifiedLike?: { readonly name: string; readonly value: Expr };
  /**
   * `in_subquery(x)` / `exists_subquery()`: SQL's `x IN (SELECT ...)` / `EXISTS (SELECT ...)`, the
   * query unresolved; the analyzer makes a WHERE conjunct of one a semi or anti join
   * (analyzer/subqueries.ts).
   */
  readonly subquery?: LogicalPlan;
  /** The outer query's columns a correlated subquery names, as its SQL text shows them (`exists(k)`). */
  readonly outerNames?: readonly string[];
  /** Printed in place of `name`: a user-defined function's own name (`name` is its registry key). */
  readonly label?: string;
  /**
   * Written in SQL text (sql/expression.ts) naming a function only arus's own rewrites may call
   * (`ScalarFunction.internal`): the analyzer answers UNRESOLVED_ROUTINE, as Spark does.
   */
  readonly fromText?: boolean;
  /**
   * `agg(...) FILTER (WHERE c)`: the value arguments are `CASE WHEN c THEN arg END` (CaseWhen
   * `filterMask`), so the aggregate sees NULL where c does not hold; printed as Spark prints it.
   */
  readonly aggFilter?: boolean;
  /**
   * `f(args) WITHIN GROUP (ORDER BY keys)`: the last argument is a string literal with the keys'
   * directions, the `withinGroup` arguments before it are the keys (plan/within-group.ts).
   */
  readonly withinGroup?: number;
}
export interface Cast {
  readonly kind: "cast";
  readonly child: Expr;
  readonly to: DataType;
  /** Inserted by type coercion (not written by the user): invisible in generated names. */
  readonly implicit?: boolean;
  /** TRY_CAST: invalid input gives NULL even in ANSI mode. */
  readonly tryCast?: boolean;
  /** Written as a typed literal (`DATE '2020-01-02'`), which Spark prints as one. */
  readonly typedLiteral?: boolean;
}
export interface CaseWhen {
  readonly kind: "caseWhen";
  readonly branches: readonly (readonly [Expr, Expr])[];
  readonly otherwise: Expr | null;
  /** Written as SQL's `if(c, a, b)`: Spark names it `(IF(c, a, b))`. */
  readonly fromIf?: boolean;
  /** An aggregate argument masked by its FILTER clause (Call `aggFilter`): printed as the argument alone. */
  readonly filterMask?: boolean;
}
/** `*` or `t.*`; `df.col("*")` is Spark's ResolvedStar: that DataFrame's columns (`attributes`). */
export interface Star {
  readonly kind: "star";
  readonly qualifier: string | null;
  /** `df.colRegex("`(a|b)`")`: only the columns whose names this Java regex matches whole. */
  readonly regex?: string;
  readonly attributes?: readonly Attribute[];
}
export interface SortOrder {
  readonly kind: "sortOrder";
  readonly child: Expr;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
  /** `ORDER BY n`: the select-list position it was written as (over a DISTINCT it names that output column). */
  readonly ordinal?: number;
}
/**
 * A window frame (Spark's SpecifiedWindowFrame): `lower`/`upper` are row counts (ROWS) or
 * order-key distances (RANGE), negative = PRECEDING, 0 = CURRENT ROW, positive = FOLLOWING;
 * null is UNBOUNDED (PRECEDING for `lower`, FOLLOWING for `upper`).
 */
export interface WindowFrame {
  readonly type: "rows" | "range";
  readonly lower: number | null;
  readonly upper: number | null;
  /**
   * The bounds came as plain numbers (`rowsBetween(-1, 1)`, lag/lead), which Spark prints as
   * `-1 FOLLOWING`; SQL's `1 PRECEDING` prints as written.
   */
  readonly numericBounds?: boolean;
  /** RANGE value bounds written as INTERVALs (`INTERVAL 7 DAYS PRECEDING`): `lower`/`upper` are microseconds. */
  readonly intervalBounds?: boolean;
  /** The unit the INTERVAL bounds were written in (how Spark prints them: `INTERVAL '7' DAY`). */
  readonly intervalUnit?: "DAY" | "HOUR" | "MINUTE" | "SECOND";
}
/**
 * `fn OVER (PARTITION BY ... ORDER BY ... frame)`. The partition and order expressions are
 * children (so name resolution binds them like any other); `frame` null means Spark's default
 * (RANGE UNBOUNDED PRECEDING .. CURRENT ROW with an ORDER BY, the whole partition without).
 */
export interface WindowExpr {
  readonly kind: "windowExpr";
  readonly fn: Expr;
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly SortOrder[];
  readonly frame: WindowFrame | null;
}
/** Scalar subquery placeholder is not supported; `in` lists are calls named `in`. */
/**
 * A lambda's parameter (`x` in `x -> x + 1`), Spark's NamedLambdaVariable. Not an attribute:
 * it is bound by its higher-order function (execution/higher-order.ts), never by the child
 * plan, so column pruning and attribute checks do not see it. A lambda is the call
 * `lambdafunction(body, var...)` (Spark's LambdaFunction); before analysis its variables have
 * no type (`resolved` false) and the body names them as columns.
 */
export interface LambdaVariable {
  readonly kind: "lambdaVar";
  readonly name: string;
  readonly type: DataType;
  readonly nullable: boolean;
  readonly exprId: number;
  readonly resolved: boolean;
}
export type Expr =
  | ColumnRef
  | Attribute
  | Literal
  | Alias
  | MultiAlias
  | Call
  | Cast
  | CaseWhen
  | Star
  | SortOrder
  | WindowExpr
  | LambdaVariable;
export type NamedExpr = Attribute | Alias;

const f = Object.freeze;

export function columnRef(nameParts: readonly string[]): ColumnRef {
  return f({ kind: "column", nameParts: f([...nameParts]) });
}
/** Parse `a.b.c` (with backticks allowed) into a column reference. */
export function columnFromName(name: string): ColumnRef {
  return columnRef(splitName(name));
}
export function splitName(name: string): string[] {
  if (!name.includes("`")) return name === "" ? [""] : name.split(".");
  const parts: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]!;
    if (ch === "`") {
      if (quoted && name[i + 1] === "`") {
        cur += "`";
        i++;
      } else quoted = !quoted;
    } else if (ch === "." && !quoted) {
      parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  parts.push(cur);
  return parts;
}
export function attribute(
  name: string,
  type: DataType,
  nullable = true,
  opts: { exprId?: number; qualifier?: readonly string[]; metadata?: Record<string, unknown> } = {},
): Attribute {
  return f({
    kind: "attribute",
    name,
    type,
    nullable,
    exprId: opts.exprId ?? newExprId(),
    qualifier: f([...(opts.qualifier ?? [])]),
    metadata: f({ ...(opts.metadata ?? {}) }),
  });
}
export function literal(value: unknown, type: DataType): Literal {
  return f({ kind: "literal", value, type });
}
export function alias(child: Expr, name: string, metadata?: Record<string, unknown>): Alias {
  return f(
    metadata
      ? { kind: "alias", child, name, exprId: newExprId(), metadata: f({ ...metadata }) }
      : { kind: "alias", child, name, exprId: newExprId() },
  );
}
/** Metadata of a USING join's side key: reachable by qualified name only (Spark's `__qualified_access_only`). */
export const QUALIFIED_ACCESS_ONLY = "__qualified_access_only";
export const isQualifiedAccessOnly = (a: Attribute): boolean => a.metadata[QUALIFIED_ACCESS_ONLY] === true;
/** `a` as a hidden column: the same attribute, reachable by its qualified name only (a USING join's side key). */
export function withAccessMark(a: Attribute): Attribute {
  return f({ ...a, metadata: f({ ...a.metadata, [QUALIFIED_ACCESS_ONLY]: true }) });
}
/** `a` as an ordinary column again (selected by name, it is no longer hidden). */
export function withoutAccessMark(a: Attribute): Attribute {
  if (!isQualifiedAccessOnly(a)) return a;
  const { [QUALIFIED_ACCESS_ONLY]: _hidden, ...metadata } = a.metadata;
  return f({ ...a, metadata: f(metadata) });
}
const dataFrameColumns = new WeakSet<Attribute>();
/**
 * `a` as a DataFrame's own column (`df.col("k")`, Spark's column reference tagged with its
 * Dataset): the analyzer checks where such a column lands (analyzer/hidden-columns.ts). Kept by
 * identity, so a copy (an analyzed output column) is an ordinary attribute again.
 */
export function dataFrameColumn(a: Attribute): Attribute {
  const c = f({ ...a });
  dataFrameColumns.add(c);
  return c;
}
export const isDataFrameColumn = (a: Attribute): boolean => dataFrameColumns.has(a);
/** `a` under a new exprId, keeping its name, qualifier and metadata (Spark's `Alias(a, a.name)(qualifier = a.qualifier)`). */
export function reAlias(a: Attribute): Alias {
  return f({ kind: "alias", child: a, name: a.name, exprId: newExprId(), qualifier: a.qualifier });
}
export function multiAlias(child: Expr, names: readonly string[]): MultiAlias {
  return f({ kind: "multiAlias", child, names: f([...names]) });
}
/** A lambda parameter before analysis: only its name. */
export function unresolvedLambdaVar(name: string): LambdaVariable {
  return f({ kind: "lambdaVar", name, type: { kind: "null" } as DataType, nullable: true, exprId: 0, resolved: false });
}
export function lambdaVar(name: string, type: DataType, nullable: boolean): LambdaVariable {
  return f({ kind: "lambdaVar", name, type, nullable, exprId: newExprId(), resolved: true });
}
/** `(params) -> body` as Spark's `lambdafunction(body, params...)`. */
export function lambdaFunction(body: Expr, params: readonly LambdaVariable[]): Call {
  return call("lambdafunction", [body, ...params]);
}
export function isLambda(e: Expr): e is Call {
  return e.kind === "call" && e.name === "lambdafunction";
}

export function call(name: string, args: readonly Expr[], distinct = false): Call {
  return f({ kind: "call", name: name.toLowerCase(), args: f([...args]), distinct });
}
/** `name(args)` called by its function name where an operator has the same meaning (`Call.byName`). */
export function callByName(name: string, args: readonly Expr[]): Call {
  return f({ ...call(name, args), byName: true });
}
export function cast(child: Expr, to: DataType, implicit = false): Cast {
  return f(implicit ? { kind: "cast", child, to, implicit } : { kind: "cast", child, to });
}
/** `DATE '...'` / `TIMESTAMP '...'`: a cast of the text, so the session time zone applies when it is folded. */
export function typedLiteralCast(text: Expr, to: DataType): Cast {
  return f({ kind: "cast", child: text, to, typedLiteral: true });
}
export function tryCast(child: Expr, to: DataType): Cast {
  return f({ kind: "cast", child, to, tryCast: true });
}
export function caseWhen(branches: readonly (readonly [Expr, Expr])[], otherwise: Expr | null, fromIf = false): CaseWhen {
  const bs = f(branches.map((b) => f([b[0], b[1]] as const)));
  return f(fromIf ? { kind: "caseWhen", branches: bs, otherwise, fromIf } : { kind: "caseWhen", branches: bs, otherwise });
}
/** `agg(args) FILTER (WHERE cond)`: the arguments that read columns masked by `cond` (all of them when none does: `count(1)`). */
export function filteredAggregate(name: string, args: readonly Expr[], distinct: boolean, cond: Expr): Call {
  const readsColumns = args.map((a) => anyExpr(a, (x) => x.kind === "column" || x.kind === "attribute"));
  const maskAll = !readsColumns.some(Boolean);
  const masked = args.map((a, i) => (maskAll || readsColumns[i] ? f({ ...caseWhen([[cond, a]], null), filterMask: true }) : a));
  return f({ ...call(name, masked, distinct), aggFilter: true });
}
export function star(qualifier: string | null = null): Star {
  return f({ kind: "star", qualifier });
}
export function sortOrder(child: Expr, ascending = true, nullsFirst?: boolean): SortOrder {
  // Spark: ASC defaults to NULLS FIRST, DESC to NULLS LAST.
  return f({ kind: "sortOrder", child, ascending, nullsFirst: nullsFirst ?? ascending });
}

export function windowExpr(fn: Expr, partitionBy: readonly Expr[], orderBy: readonly SortOrder[], frame: WindowFrame | null): WindowExpr {
  return f({ kind: "windowExpr", fn, partitionBy: f([...partitionBy]), orderBy: f([...orderBy]), frame: frame ? f({ ...frame }) : null });
}

export function withAttributeMetadata(a: Attribute, metadata: Record<string, unknown>): Attribute {
  return f({ ...a, metadata: f({ ...metadata }) });
}
export function withQualifier(a: Attribute, qualifier: readonly string[]): Attribute {
  return f({ ...a, qualifier: f([...qualifier]) });
}
export function withNullable(a: Attribute, nullable: boolean): Attribute {
  return a.nullable === nullable ? a : f({ ...a, nullable });
}

/** The children of an expression, in order. */
export function exprChildren(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case "column":
    case "attribute":
    case "literal":
    case "star":
    case "lambdaVar":
      return [];
    case "alias":
    case "multiAlias":
    case "cast":
    case "sortOrder":
      return [e.child];
    case "call":
      return e.args;
    case "caseWhen":
      return [...e.branches.flatMap((b) => [b[0], b[1]]), ...(e.otherwise ? [e.otherwise] : [])];
    case "windowExpr":
      return [e.fn, ...e.partitionBy, ...e.orderBy];
    default:
      return assertNever(e);
  }
}

/** Rebuild an expression with new children (same order as exprChildren). */
export function withChildren(e: Expr, c: readonly Expr[]): Expr {
  switch (e.kind) {
    case "column":
    case "attribute":
    case "literal":
    case "star":
    case "lambdaVar":
      return e;
    case "alias":
      return f({ ...e, child: c[0]! });
    case "multiAlias":
      return f({ ...e, child: c[0]! });
    case "cast":
      return f({ ...e, child: c[0]! });
    case "sortOrder":
      return f({ ...e, child: c[0]! });
    case "call":
      return f({ ...e, args: f([...c]) });
    case "caseWhen": {
      const branches: [Expr, Expr][] = [];
      for (let i = 0; i < e.branches.length; i++) branches.push([c[2 * i]!, c[2 * i + 1]!]);
      const w = caseWhen(branches, e.otherwise ? c[c.length - 1]! : null, e.fromIf);
      return e.filterMask ? f({ ...w, filterMask: true }) : w;
    }
    case "windowExpr": {
      const np = e.partitionBy.length;
      return windowExpr(c[0]!, c.slice(1, 1 + np), c.slice(1 + np) as SortOrder[], e.frame);
    }
    default:
      return assertNever(e);
  }
}

/** Bottom-up rewrite: `fn` sees each node after its children were rewritten. */
export function transformUp(e: Expr, fn: (e: Expr) => Expr): Expr {
  const kids = exprChildren(e);
  let node = e;
  if (kids.length > 0) {
    const next = kids.map((k) => transformUp(k, fn));
    if (next.some((k, i) => k !== kids[i])) node = withChildren(e, next);
  }
  return fn(node);
}
/** Top-down rewrite: when `fn` returns a different node, its children are not visited. */
export function transformDown(e: Expr, fn: (e: Expr) => Expr): Expr {
  const r = fn(e);
  if (r !== e) return r;
  const kids = exprChildren(e);
  if (kids.length === 0) return e;
  const next = kids.map((k) => transformDown(k, fn));
  return next.some((k, i) => k !== kids[i]) ? withChildren(e, next) : e;
}
export function anyExpr(e: Expr, pred: (e: Expr) => boolean): boolean {
  if (pred(e)) return true;
  return exprChildren(e).some((c) => anyExpr(c, pred));
}
/** The expression an alias names (the expression itself when it is not an alias). */
export function unaliased(e: Expr): Expr {
  return e.kind === "alias" ? e.child : e;
}
/** `a AND b AND ...` as its parts, nested ANDs flattened. */
export function conjuncts(e: Expr): Expr[] {
  return e.kind === "call" && e.name === "and" ? e.args.flatMap(conjuncts) : [e];
}
/** The parts ANDed left to right (`conjuncts`' inverse); at least one part. */
export function conjunction(parts: readonly Expr[]): Expr {
  return parts.reduce((a, b) => call("and", [a, b]));
}
export function collectAttributes(e: Expr, out: Attribute[] = []): Attribute[] {
  if (e.kind === "attribute") out.push(e);
  for (const c of exprChildren(e)) collectAttributes(c, out);
  return out;
}

export function assertNever(x: never): never {
  throw new Error(`unhandled node: ${JSON.stringify(x)}`);
}
