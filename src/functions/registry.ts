/**
 * The function registry: one entry per SQL function or operator, holding both its analysis
 * rule (argument checks, implicit casts, result type) and its vectorized kernel. Keeping the
 * two together means a function cannot be known to the analyzer but missing at run time.
 */
import type { Vector } from "../columnar/vector.js";
import { AnalysisException, arityError } from "../common/errors.js";
import { cast, type Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { type DataType, DateType, isAtomic, isNumeric, StringType, sqlTypeName, TimestampType, typesEqual } from "../types/datatypes.js";

/** What kernels may read besides their arguments. */
export interface EvalContext {
  /** Session time zone (IANA id). */
  readonly timeZone: string;
  /** Batch timestamp for `current_timestamp()` (stable across a re-run of the same batch). */
  readonly batchTimestampMs: number;
  /** Watermark in force for the current batch, ms (`current_watermark()`); 0 when none. */
  readonly watermarkMs: number;
  /** ANSI mode (`spark.sql.ansi.enabled`): errors instead of NULL on bad casts / division by 0. */
  readonly ansi: boolean;
}

export interface Resolved {
  /** Arguments after implicit casts were inserted. */
  readonly args: readonly Expr[];
  readonly type: DataType;
}

/**
 * `site`: one object per compiled call, the same for every batch it evaluates: a kernel keeps
 * per-expression state under it (`rand(42)` written twice draws two streams, each from 42, as
 * Spark's expressions each hold their own generator).
 */
export type Kernel = (args: readonly Vector[], n: number, ctx: EvalContext, site?: object) => Vector;

export interface ScalarFunction {
  readonly kind: "scalar";
  readonly name: string;
  /** Checks argument types; throws AnalysisException naming the offending argument. */
  resolve(args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved;
  readonly kernel: Kernel;
  /** Non-deterministic or context-dependent functions are never constant-folded. */
  readonly foldable?: boolean;
  /**
   * The kernel also takes argument 0 as a BINARY vector of UTF-8 bytes: compiling
   * `f(CAST(b AS STRING), ...)` with a BINARY `b` hands the kernel `b` itself and skips the
   * per-row strings of the cast (from_json over Kafka's `value`).
   */
  readonly utf8BytesArg0?: boolean;
  /**
   * Arguments from this index on are parameters the kernel reads at row 0 only (a window's
   * length and slide): compiled from a literal, they are one-row vectors instead of n copies.
   */
  readonly rowZeroArgsFrom?: number;
  /**
   * The kernel reads its arguments' types only (typeof): they are not evaluated, as Spark folds
   * such a call by type (`typeof(1 / 0)` is "double" under ANSI); each is an all-NULL vector.
   */
  readonly typeOnlyArgs?: boolean;
  /**
   * Made only by arus's own rewrites (`withField`, interval arithmetic), with no SQL name in
   * Spark: SQL text that calls it cannot resolve it (analyzer.ts, UNRESOLVED_ROUTINE).
   */
  readonly internal?: boolean;
}

/** Columnar per-group accumulator for one aggregate call. */
export interface Accumulator {
  /** Make room for groups [0, n). */
  resize(n: number): void;
  /** Fold raw input rows into their groups. */
  update(groupIds: Int32Array, n: number, input: readonly Vector[]): void;
  /** Fold partial buffers (as returned by `buffers`) into groups. */
  merge(groupIds: Int32Array, n: number, buffers: readonly Vector[]): void;
  /** Buffer columns for groups [0, numGroups). */
  buffers(numGroups: number): Vector[];
  /** Final values for groups [0, numGroups). */
  evaluate(numGroups: number): Vector;
}

export interface AggregateFunction {
  readonly kind: "aggregate";
  readonly name: string;
  resolve(args: readonly Expr[], types: readonly DataType[], call: Expr, distinct: boolean): Resolved;
  /** Buffer column types for the resolved argument types. */
  bufferTypes(argTypes: readonly DataType[], distinct: boolean): DataType[];
  /**
   * With DISTINCT, the one argument deduplicated (NULL where any argument is NULL), for an
   * aggregate Spark rewrites to one of its arguments (regr_avgx(y, x) is avg(x) over the rows
   * where both are non-NULL); without it, the tuple of all arguments (functions/distinct-input.ts).
   */
  readonly distinctArg?: number;
  /**
   * `literals[i]` is argument i's value when it is a literal, else undefined. `mode` is the ANSI
   * mode for overflow checks (sums of BIGINT and DECIMAL), kept current by the aggregation;
   * without it ANSI rules apply.
   */
  create(
    argTypes: readonly DataType[],
    resultType: DataType,
    distinct: boolean,
    literals: readonly unknown[],
    mode?: { readonly ansi: boolean },
  ): Accumulator;
}

/**
 * A window-only function (`row_number`, `rank`, `lag`, `nth_value`, ...): valid only as the
 * function of an OVER clause. Its values are computed by the Window operator
 * (src/execution/operators/window-functions.ts), which knows each one by name; the entry here
 * is the analysis rule and what the function demands of its window.
 */
export interface WindowFunction {
  readonly kind: "window";
  readonly name: string;
  resolve(args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved;
  /**
   * The frame the function runs over: `"ranking"` (fixed ROWS UNBOUNDED PRECEDING .. CURRENT
   * ROW), `"cumeDist"` (fixed RANGE UNBOUNDED PRECEDING .. CURRENT ROW), `"offset"` (lag/lead:
   * a one-row frame, no frame may be given), `"framed"` (any frame, default as an aggregate's).
   */
  readonly frame: "ranking" | "cumeDist" | "offset" | "framed";
}

export type FunctionDef = ScalarFunction | AggregateFunction | WindowFunction;

const registry = new Map<string, FunctionDef>();

export function register(...defs: FunctionDef[]): void {
  for (const d of defs) registry.set(d.name, d);
}
/** Aliases Spark gives an argument count of their own (nvl and ifnull take two; coalesce any). */
const aliasArity = new Map<string, number>();

/** `alias` calls `name`'s function; `arity`: the exact argument count Spark's own expression for the alias takes. */
export function registerAlias(alias: string, name: string, arity?: number): void {
  const d = registry.get(name);
  if (!d) throw new Error(`no function ${name}`);
  registry.set(alias, d);
  if (arity !== undefined) aliasArity.set(alias, arity);
}

/** Refuses a call of an alias with an argument count of its own (registerAlias) given another count. */
export function checkAliasArity(called: string, args: readonly unknown[]): void {
  const n = aliasArity.get(called);
  if (n !== undefined) checkArity(called, args, n);
}
export function lookupFunction(name: string): FunctionDef | undefined {
  return registry.get(name);
}
/** A scalar function that is never constant-folded (rand, uuid, input_file_name, current_timestamp, ...), by name. */
export function isNotFoldable(name: string): boolean {
  const fn = registry.get(name);
  return fn?.kind === "scalar" && fn.foldable === false;
}
export function registeredNames(): string[] {
  return [...registry.keys()];
}

// ---- helpers for resolve() implementations ----

export function castTo(e: Expr, from: DataType, to: DataType): Expr {
  return typesEqual(from, to) ? e : cast(e, to, true);
}

/** What a DATE or TIMESTAMP parameter takes (cast to it): Spark refuses numbers, booleans and the rest. */
const TIME_INPUTS = new Set(["date", "timestamp", "timestamp_ntz", "string", "null"]);
export const isTimeInput = (t: DataType): boolean => TIME_INPUTS.has(t.kind);

/** Argument `i` of a function taking a TIMESTAMP (a DATE, TIMESTAMP, STRING or NULL), cast to TIMESTAMP; `required` names it as Spark does. */
export function timestampArg(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number, required = '"TIMESTAMP"'): Expr {
  const t = types[i]!;
  if (!isTimeInput(t)) throw typeMismatch(call, i, required, args[i]!, t);
  return castTo(args[i]!, t, TimestampType);
}

/** Argument `i` of a function taking a number `to` (a number, a STRING or NULL cast to it; a time or a boolean Spark refuses). */
export function numberArg(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number, to: DataType): Expr {
  const t = types[i]!;
  if (!isNumeric(t) && t.kind !== "string" && t.kind !== "null") throw typeMismatch(call, i, `"${sqlTypeName(to)}"`, args[i]!, t);
  return castTo(args[i]!, t, to);
}

/** Argument `i` of a BINARY parameter: a BINARY, or a STRING (its UTF-8 bytes) or NULL; Spark casts nothing else to BINARY. */
export function requireBinaryInput(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number): void {
  const t = types[i]!;
  if (t.kind !== "binary" && t.kind !== "string" && t.kind !== "null") throw typeMismatch(call, i, '"BINARY"', args[i]!, t);
}

/** A STRING argument: any atomic value is cast to one, as Spark's implicit casts (`1 LIKE '1%'`). */
export function stringArg(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number): Expr {
  const t = types[i]!;
  if (!isAtomic(t)) throw typeMismatch(call, i, '"STRING"', args[i]!, t);
  return castTo(args[i]!, t, StringType);
}

/**
 * Argument `i` of a parameter Spark checks without implicit casts (an `ExpectsInputTypes`
 * expression that is not `ImplicitCastInputTypes`: soundex, mask, get_json_object...): a value of
 * type `to` itself, or NULL (cast to `to`); Spark refuses anything else, even a number for a STRING.
 */
export function exactArg(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number, to: DataType): Expr {
  const t = types[i]!;
  if (t.kind !== to.kind && t.kind !== "null") throw typeMismatch(call, i, `"${sqlTypeName(to)}"`, args[i]!, t);
  return castTo(args[i]!, t, to);
}

/** `call` with the arguments it left out given their defaults: how Spark shows the call in its errors (`mask(1, X, x, n, NULL)`). */
export function withDefaults(call: Expr, defaults: readonly Expr[]): Expr {
  if (call.kind !== "call" || call.args.length >= defaults.length) return call;
  return { ...call, args: [...call.args, ...defaults.slice(call.args.length)] };
}

/** Argument `i` of a function taking a DATE, cast to DATE (Spark's UNEXPECTED_INPUT_TYPE for anything else). */
export function dateArg(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number): Expr {
  const t = types[i]!;
  if (!isTimeInput(t)) throw typeMismatch(call, i, '"DATE"', args[i]!, t);
  return castTo(args[i]!, t, DateType);
}

/** Spark's ordinalNumber: first, second, third, then 4th, 5th... */
export function ordinalNumber(index: number): string {
  return ["first", "second", "third"][index] ?? `${index + 1}th`;
}

/** Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE error. */
export function typeMismatch(call: Expr, argIndex: number, required: string, arg: Expr, actual: DataType): AnalysisException {
  return new AnalysisException(
    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
    `[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: ` +
      `The ${ordinalNumber(argIndex)} parameter requires the ${required} type, however "${exprToSql(arg)}" has the type "${sqlTypeName(actual)}".`,
  );
}

/** Spark's DATATYPE_MISMATCH.NULL_TYPE: a NULL literal where `name` needs a typed value (`array_contains(NULL, 1)`). */
export function nullTypeError(call: Expr, name: string): AnalysisException {
  return new AnalysisException(
    "DATATYPE_MISMATCH.NULL_TYPE",
    `[DATATYPE_MISMATCH.NULL_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Null typed values cannot be used as arguments of \`${name}\`.`,
  );
}

/** Spark's ARRAY_FUNCTION_DIFF_TYPES: an (array, element) function given no array of the element's type. */
export function arrayElementDiffTypes(call: Expr, name: string, array: DataType, element: DataType): AnalysisException {
  return new AnalysisException(
    "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES",
    `[DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Input to \`${name}\` should have been "ARRAY" followed by a value with same element type, but it's ["${sqlTypeName(array)}", "${sqlTypeName(element)}"].`,
  );
}

/** Spark's DATA_DIFF_TYPES: arguments with no common type (`coalesce`, `array`, `greatest`...). */
export function diffTypes(call: Expr, name: string, types: readonly DataType[]): AnalysisException {
  return new AnalysisException(
    "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
    `[DATATYPE_MISMATCH.DATA_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: ` +
      `Input to \`${name}\` should all be the same type, but it's [${types.map((t) => `"${sqlTypeName(t)}"`).join(", ")}].`,
  );
}

/** Refuses a call of `name` given fewer than `min` or more than `max` arguments; Spark lists every count it takes ("[1, 2, 3]"). */
export function checkArity(name: string, args: readonly unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const counts = max === Infinity ? [] : Array.from({ length: max - min + 1 }, (_, i) => min + i);
    arityErrorThrow(name, min === max ? String(min) : max === Infinity ? `> ${min - 1}` : `[${counts.join(", ")}]`, args.length);
  }
}
function arityErrorThrow(name: string, expected: string, got: number): never {
  throw arityError(name, expected, got);
}
