/**
 * Ordered-set aggregates, SQL's `f(args) WITHIN GROUP (ORDER BY key [ASC | DESC] [NULLS ...], ...)`:
 * `percentile_cont(p)`, `percentile_disc(p)` and `mode()` with one key, `listagg(x[, d])` (and
 * `string_agg`) with any number. The parser makes each a call whose arguments are the function's
 * own, then the ordering keys, then one string literal with the keys' directions (Call
 * `withinGroup`: how many keys); the aggregate reads the keys as arguments like any other, and
 * its directions from that literal. Spark's checks and messages are here, made when the call is
 * parsed (Spark makes them while resolving the function: the same errors, the same classes).
 */
import { AnalysisException, arityError } from "../common/errors.js";
import { type DataType, isIntegral, NullType, StringType, sqlTypeName } from "../types/datatypes.js";
import { type Call, call, type Expr, literal, type SortOrder } from "./expressions.js";
import { exprToSql } from "./sql-text.js";

/** One key's direction, as the directions literal spells it: `a`/`d`, then `f`/`l` for NULLS FIRST/LAST. */
export interface KeyDirection {
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

/** Functions that take WITHIN GROUP: how many keys, how many arguments of their own. */
const ORDERED_SET: Readonly<Record<string, { keys: number | "any"; args: [number, number]; distinct: boolean }>> = {
  percentile_cont: { keys: 1, args: [1, 1], distinct: false },
  percentile_disc: { keys: 1, args: [1, 1], distinct: false },
  // mode(x) is the plain aggregate; mode() only exists with WITHIN GROUP
  mode: { keys: 1, args: [0, 0], distinct: false },
  listagg: { keys: "any", args: [1, 2], distinct: true },
  string_agg: { keys: "any", args: [1, 2], distinct: true },
};

const invalid = (name: string, sub: string, detail: string) =>
  new AnalysisException(
    `INVALID_WITHIN_GROUP_EXPRESSION.${sub}`,
    `[INVALID_WITHIN_GROUP_EXPRESSION.${sub}] Invalid function \`${name}\` with WITHIN GROUP. ${detail}`,
  );

/** Must this call have WITHIN GROUP (percentile_cont, percentile_disc, mode without arguments)? */
export function requiresWithinGroup(name: string, argCount: number): boolean {
  return name === "percentile_cont" || name === "percentile_disc" || (name === "mode" && argCount === 0);
}

/** An ordered-set aggregate's argument count, checked before anything about its WITHIN GROUP (as Spark's builders do). */
export function checkOrderedSetArity(name: string, count: number): void {
  const spec = ORDERED_SET[name];
  if (!spec) return;
  const [lo, hi] = spec.args;
  if (count < lo || count > hi) throw arityError(name, lo === hi ? `${lo}` : `[${lo}, ${hi}]`, count);
}

/** DISTINCT where the function takes none (Spark's wording for mode(DISTINCT x) too, WITHIN GROUP or not). */
export function distinctUnsupported(name: string): AnalysisException {
  return invalid(name, "DISTINCT_UNSUPPORTED", "The function does not support DISTINCT with WITHIN GROUP.");
}

export function withinGroupMissing(name: string): AnalysisException {
  return invalid(name, "WITHIN_GROUP_MISSING", "WITHIN GROUP is required for the function.");
}

/** `name(args) WITHIN GROUP (ORDER BY keys)` as the call the aggregate runs, or Spark's error for it. */
export function withinGroupCall(name: string, args: readonly Expr[], distinct: boolean, keys: readonly SortOrder[]): Call {
  const spec = ORDERED_SET[name];
  if (!spec) {
    throw new AnalysisException(
      "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX",
      `[INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX] Invalid SQL syntax: The function \`${name}\` does not support WITHIN GROUP (ORDER BY ...).`,
    );
  }
  // Spark's own wording: mode(x) has no orderings, and mode() names its class
  if (name === "mode" && args.length > 0)
    throw invalid(name, "WRONG_NUM_ORDERINGS", `The function requires 0 orderings in WITHIN GROUP but got ${keys.length}.`);
  if (name === "mode" && keys.length !== 1)
    throw invalid("Mode", "WRONG_NUM_ORDERINGS", `The function requires 1 orderings in WITHIN GROUP but got ${keys.length}.`);
  checkOrderedSetArity(name, args.length);
  if (distinct && !spec.distinct) throw distinctUnsupported(name);
  if (spec.keys !== "any" && keys.length !== spec.keys) {
    throw invalid(name, "WRONG_NUM_ORDERINGS", `The function requires ${spec.keys} orderings in WITHIN GROUP but got ${keys.length}.`);
  }
  // listagg(DISTINCT x) is ordered by one key, x itself or what x casts (checked with the types: checkDistinctOrdering)
  if (distinct && keys.length !== 1)
    throw distinctMismatch(
      args[0]!,
      keys.map((k) => k.child),
    );
  const directions = keys.map((k) => `${k.ascending ? "a" : "d"}${k.nullsFirst ? "f" : "l"}`).join(",");
  // listagg always gets its delimiter (NULL: none), so its keys start at the third argument
  const own = spec.keys === "any" && args.length === 1 ? [...args, literal(null, NullType)] : args;
  const c = call(name, [...own, ...keys.map((k) => k.child), literal(directions, StringType)], distinct);
  return Object.freeze({ ...c, withinGroup: keys.length });
}

function distinctMismatch(arg: Expr, keys: readonly Expr[]): AnalysisException {
  return invalid(
    "listagg",
    "MISMATCH_WITH_DISTINCT_INPUT",
    `The function is invoked with DISTINCT and WITHIN GROUP but expressions "${exprToSql(arg)}" and ${keys.map((k) => `"${exprToSql(k)}"`).join(", ")} do not match. The WITHIN GROUP ordering expression must be picked from the function inputs.`,
  );
}

/** Types whose text (or bytes) is equal exactly when the values are: DISTINCT over the cast deduplicates as over the key. */
function castKeepsDistinct(t: DataType): boolean {
  return isIntegral(t) || ["decimal", "date", "boolean", "binary", "string", "interval"].includes(t.kind);
}

/**
 * listagg(DISTINCT x) WITHIN GROUP (ORDER BY key), with the argument's and the key's types (as
 * Spark's ListAgg checks them after its implicit cast of a non-STRING argument to STRING): x must
 * be the key, or a cast of the key to STRING or BINARY, and the key of a type whose cast keeps
 * distinct values distinct — not DOUBLE, FLOAT (-0.0 and 0.0) or TIMESTAMP (a local time twice
 * in a DST fall-back): MISMATCH_WITH_DISTINCT_INPUT_UNSAFE_CAST.
 */
export function checkDistinctOrdering(arg: Expr, argType: DataType, key: Expr, keyType: DataType): void {
  const same = exprToSql(arg) === exprToSql(key);
  const text = argType.kind === "string" || argType.kind === "binary";
  if (same && text) return;
  // ORDER BY CAST(x AS STRING) is the STRING argument x becomes (Spark's implicit cast): the same expression
  if (!text && key.kind === "cast" && !key.tryCast && key.to.kind === "string" && exprToSql(key.child) === exprToSql(arg)) return;
  const explicit = arg.kind === "cast" && !arg.tryCast && exprToSql(arg.child) === exprToSql(key);
  if (!same && !(explicit && (arg.to.kind === "string" || arg.to.kind === "binary"))) throw distinctMismatch(arg, [key]);
  if (castKeepsDistinct(keyType)) return;
  const target = explicit ? (arg as Expr & { kind: "cast" }).to : StringType;
  throw invalid(
    "listagg",
    "MISMATCH_WITH_DISTINCT_INPUT_UNSAFE_CAST",
    `The function \`listagg\` with DISTINCT and WITHIN GROUP (ORDER BY) is not supported for "${sqlTypeName(keyType)}" input. Explicitly cast the input to "${sqlTypeName(target)}" before passing it to both the function argument and ORDER BY expression.`,
  );
}

/** The directions of a WITHIN GROUP call's keys, from its last argument's value. */
export function keyDirections(text: unknown): KeyDirection[] {
  if (typeof text !== "string" || text === "") return [];
  return text.split(",").map((d) => ({ ascending: d[0] === "a", nullsFirst: d[1] === "f" }));
}

/**
 * How Spark prints the call: `percentile_cont(0.25) WITHIN GROUP (ORDER BY v DESC)`,
 * `listagg(v, ,) WITHIN GROUP (ORDER BY v DESC NULLS LAST)`. Spark prints mode's direction the
 * other way round (its name for `ORDER BY v` says `v DESC`), and so does arus.
 */
export function withinGroupSql(e: Call, argSql: (x: Expr) => string): string {
  const k = e.withinGroup!;
  const n = e.args.length;
  const own = e.args.slice(0, n - k - 1);
  const keys = e.args.slice(n - k - 1, n - 1);
  const last = e.args[n - 1]!;
  const dirs = keyDirections(last.kind === "literal" ? last.value : null);
  const listagg = e.name === "listagg" || e.name === "string_agg";
  const order = keys.map((key, i) => {
    const d = dirs[i] ?? { ascending: true, nullsFirst: true };
    if (listagg) return `${argSql(key)} ${d.ascending ? "ASC" : "DESC"} NULLS ${d.nullsFirst ? "FIRST" : "LAST"}`;
    const descending = e.name === "mode" ? d.ascending : !d.ascending;
    return `${argSql(key)}${descending ? " DESC" : ""}`;
  });
  const args = own.map(argSql);
  const name = listagg ? "listagg" : e.name;
  return `${name}(${e.distinct ? "DISTINCT " : ""}${args.join(", ")}) WITHIN GROUP (ORDER BY ${order.join(", ")})`;
}
