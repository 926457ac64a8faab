/**
 * Spark's TimeWindowing / SessionWindowing rules: a `window(ts, ...)` or
 * `session_window(ts, gap)` call inside an operator becomes a `window` / `session_window`
 * column computed below it (a Project for tumbling windows, an Expand with one projection per
 * candidate window for sliding ones), and the call is replaced by that column. The new column
 * copies the time column's metadata, so a watermark on `ts` carries over to the window.
 */
import { AnalysisException } from "../common/errors.js";
import { durationMicros } from "../common/interval.js";
import { type Attribute, alias, anyExpr, attribute, call, type Expr, literal, transformUp } from "../plan/expressions.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import { IntervalType, LongType, StringType, simpleString, WindowStructType } from "../types/datatypes.js";
import { carriedMetadata, outputOf, typeOf } from "./types.js";

const isWindowCall = (e: Expr): boolean => e.kind === "call" && (e.name === "window" || e.name === "session_window");

export function hasTimeWindow(exprs: readonly Expr[]): boolean {
  return exprs.some((e) => anyExpr(e, isWindowCall));
}

function literalString(e: Expr | undefined, what: string): string | null {
  if (!e) return null;
  if (e.kind === "literal" && (e.type.kind === "string" || e.type.kind === "interval")) {
    return e.type.kind === "interval" ? `${e.value as number} microseconds` : (e.value as string);
  }
  throw new AnalysisException("DATATYPE_MISMATCH", `The ${what} of window() must be a literal interval string, e.g. "10 seconds".`);
}

export interface WindowSpec {
  windowMicros: number;
  slideMicros: number;
  startMicros: number;
}

/** Parse and validate window() parameters (Spark's TimeWindow checks). */
export function windowSpec(args: readonly Expr[]): WindowSpec {
  const w = literalString(args[1], "windowDuration")!;
  const s = literalString(args[2], "slideDuration") ?? w;
  const st = literalString(args[3], "startTime") ?? "0 seconds";
  const windowMicros = durationMicros(w, "windowDuration");
  const slideMicros = durationMicros(s, "slideDuration");
  const startMicros = durationMicros(st, "startTime");
  const bad = (msg: string) => new AnalysisException("DATATYPE_MISMATCH.INVALID_WINDOW", msg);
  if (windowMicros <= 0) throw bad(`The window duration (${w}) must be greater than 0.`);
  if (slideMicros <= 0) throw bad(`The slide duration (${s}) must be greater than 0.`);
  if (slideMicros > windowMicros) {
    throw bad(`The slide duration (${s}) must be less than or equal to the windowDuration (${w}).`);
  }
  if (Math.abs(startMicros) >= slideMicros) {
    throw bad(`The absolute value of start time (${st}) must be less than the slideDuration (${s}).`);
  }
  return { windowMicros, slideMicros, startMicros };
}

/**
 * Rewrite `exprs` of an operator over `child`: returns the new expressions and the new child
 * that computes the window column.
 */
export function extractTimeWindow(exprs: readonly Expr[], child: LogicalPlan): { exprs: Expr[]; child: LogicalPlan } {
  const calls = new Map<string, Expr>();
  for (const e of exprs) {
    transformUp(e, (x) => {
      if (isWindowCall(x)) calls.set(semanticKey(x), x);
      return x;
    });
  }
  if (calls.size > 1) {
    throw new AnalysisException(
      "_LEGACY_ERROR_TEMP_1039",
      "Multiple time/session window expressions would result in a cartesian product of rows, therefore they are currently not supported.",
    );
  }
  const [key, wcall] = [...calls][0]! as [string, Expr & { kind: "call" }];
  const ts = wcall.args[0]!;
  const tsType = typeOf(ts);
  if (tsType.kind !== "timestamp") {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
      `[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "${wcall.name}" due to data type mismatch: The first parameter requires the "TIMESTAMP" type, however the time column has the type "${tsType.kind.toUpperCase()}".`,
    );
  }
  const meta = carriedMetadata(ts) ?? {};
  const input = outputOf(child);
  let windowAttr: Attribute;
  let newChild: LogicalPlan;
  if (wcall.name === "session_window") {
    const gap = wcall.args[1]!;
    const gapType = typeOf(gap);
    // Spark's SessionWindowing casts the gap to CalendarIntervalType; an ANSI interval (the type
    // of `interval 5 seconds`) has no such cast and is refused.
    if (gapType.kind !== "string" && gapType.kind !== "null") {
      throw new AnalysisException(
        "_LEGACY_ERROR_TEMP_1040",
        `[_LEGACY_ERROR_TEMP_1040] Gap duration expression used in session window must be CalendarIntervalType, but got ${gapType.kind === "interval" ? "DayTimeIntervalType(0,3)" : simpleString(gapType)}.`,
      );
    }
    const gapExpr =
      gap.kind === "literal" && gap.type.kind === "string"
        ? literal(durationMicros(gap.value as string, "gapDuration"), IntervalType)
        : typeOf(gap).kind === "string"
          ? call("__interval_micros", [gap])
          : gap;
    const a = alias(call("__session_window", [ts, gapExpr]), "session_window", { ...meta, "spark.sessionWindow": true });
    // a NULL time has no session: filtered as window() filters it, so the scan can take it (Spark
    // pushes IsNotNull(ts) there for session_window too); the session's own check stays for a
    // NULL dynamic gap
    newChild = Plans.filter(call("and", [call("isnotnull", [ts]), call("isnotnull", [a.child])]), child);
    newChild = Plans.project([...input, a], newChild);
    windowAttr = outputOf(newChild).at(-1)!;
    // Sessions of zero or negative length are dropped (dynamic gaps).
    newChild = Plans.filter(
      call(">", [call("getfield", [windowAttr, literal("end", StringType)]), call("getfield", [windowAttr, literal("start", StringType)])]),
      newChild,
    );
  } else {
    const spec = windowSpec(wcall.args);
    const n = Math.ceil(spec.windowMicros / spec.slideMicros);
    const mk = (i: number) =>
      call("__time_window", [
        ts,
        literal(spec.windowMicros, LongType),
        literal(spec.slideMicros, LongType),
        literal(spec.startMicros, LongType),
        literal(i, LongType),
      ]);
    const filtered = Plans.filter(call("isnotnull", [ts]), child);
    windowAttr = attribute("window", WindowStructType, false, { metadata: { ...meta } });
    if (n === 1) {
      newChild = Plans.project([...input, alias(mk(0), "window", { ...meta })], filtered);
      windowAttr = outputOf(newChild).at(-1)!;
    } else {
      const projections = Array.from({ length: n }, (_, i) => [...input, mk(i)]);
      newChild = Plans.expand(projections, [...input, windowAttr], filtered);
      if (spec.windowMicros % spec.slideMicros !== 0) {
        // Only candidates with start <= ts < end are real windows.
        const start = call("getfield", [windowAttr, literal("start", StringType)]);
        const end = call("getfield", [windowAttr, literal("end", StringType)]);
        newChild = Plans.filter(call("and", [call("<=", [start, ts]), call("<", [ts, end])]), newChild);
      }
    }
  }
  const replaced = exprs.map((e) => transformUp(e, (x) => (isWindowCall(x) && semanticKey(x) === key ? windowAttr : x)));
  return { exprs: replaced, child: newChild };
}
