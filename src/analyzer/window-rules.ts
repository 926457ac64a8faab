/**
 * Window functions in the analyzer (Spark's ResolveWindowFrame, ResolveWindowOrder,
 * ExtractWindowExpressions and the window checks of CheckAnalysis): every `fn OVER (...)` gets
 * its frame (Spark's defaults, or the fixed frame a ranking function demands), the spec is
 * checked, and the window expressions of a SELECT move into Window nodes (one per distinct
 * PARTITION BY / ORDER BY) below a Project that reads their results.
 */
import { AnalysisException } from "../common/errors.js";
import { lookupFunction, type WindowFunction } from "../functions/index.js";
import { isAggregateCall, toAttribute, typeOf } from "../functions/typing.js";
import {
  type Alias,
  alias,
  anyExpr,
  type Expr,
  exprChildren,
  type SortOrder,
  transformDown,
  type WindowExpr,
  type WindowFrame,
  windowExpr,
} from "../plan/expressions.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";
import { semanticKey } from "../plan/semantic.js";
import { exprToSql, frameSql, windowSpecSql } from "../plan/sql-text.js";
import { sqlTypeName } from "../types/datatypes.js";
import { NUMBER_LANE_MAX_PRECISION } from "../types/decimal.js";

export const isWindowExpr = (e: Expr): e is WindowExpr => e.kind === "windowExpr";
export const hasWindow = (e: Expr): boolean => anyExpr(e, isWindowExpr);

const RANKING_UPPER = new Set(["rank", "dense_rank", "percent_rank"]);

function windowFn(e: Expr): WindowFunction | null {
  if (e.kind !== "call") return null;
  const fn = lookupFunction(e.name);
  return fn?.kind === "window" ? fn : null;
}

function mismatch(cls: string, spec: string, detail: string): AnalysisException {
  return new AnalysisException(
    `DATATYPE_MISMATCH.${cls}`,
    `[DATATYPE_MISMATCH.${cls}] Cannot resolve "${spec}" due to data type mismatch: ${detail}`,
  );
}

/** Spark's toString of a frame in its "must match the required frame" message. */
function frameDebug(f: WindowFrame): string {
  const b = (v: number | null, lower: boolean) =>
    v === null ? (lower ? "unboundedpreceding$()" : "unboundedfollowing$()") : v === 0 ? "currentrow$()" : String(v);
  return `specifiedwindowframe(${f.type === "rows" ? "RowFrame" : "RangeFrame"}, ${b(f.lower, true)}, ${b(f.upper, false)})`;
}

const sameFrame = (a: WindowFrame, b: WindowFrame) => a.type === b.type && a.lower === b.lower && a.upper === b.upper;

/** Check a window expression whose children are resolved, and give it its frame. */
export function resolveWindowExpr(e: WindowExpr): WindowExpr {
  const f = e.fn;
  const wf = windowFn(f);
  if (f.kind !== "call" || (!wf && !isAggregateCall(f))) {
    throw new AnalysisException(
      "UNSUPPORTED_EXPR_FOR_WINDOW",
      `[UNSUPPORTED_EXPR_FOR_WINDOW] Expression "${exprToSql(f)}" not supported within a window function.`,
    );
  }
  if (f.distinct) {
    const shown = windowExpr(f, e.partitionBy, e.orderBy, e.frame ?? { type: "rows", lower: null, upper: null });
    throw new AnalysisException(
      "DISTINCT_WINDOW_FUNCTION_UNSUPPORTED",
      `[DISTINCT_WINDOW_FUNCTION_UNSUPPORTED] Distinct window functions are not supported: "${exprToSql(shown)}".`,
    );
  }
  const ordered = e.orderBy.length > 0;
  if (wf && wf.frame !== "framed" && !ordered) {
    const example = RANKING_UPPER.has(f.name) ? `${f.name.toUpperCase()}()` : exprToSql(f);
    throw new AnalysisException(
      "WINDOW_FUNCTION_FRAME_NOT_ORDERED",
      `[WINDOW_FUNCTION_FRAME_NOT_ORDERED] Window function ${f.name} requires the window to be ordered. You need to add an ORDER BY clause. For example: SELECT ${example} OVER (PARTITION BY window_partition ORDER BY window_ordering) FROM table.`,
    );
  }
  if (e.frame) checkFrame(e, e.frame);
  let frame: WindowFrame;
  if (wf?.frame === "ranking" || wf?.frame === "cumeDist") {
    const required: WindowFrame = { type: wf.frame === "ranking" ? "rows" : "range", lower: null, upper: 0 };
    if (e.frame && !sameFrame(e.frame, required)) {
      throw new AnalysisException(
        "_LEGACY_ERROR_TEMP_1036",
        `Window Frame ${frameDebug(e.frame)} must match the required frame ${frameDebug(required)}.`,
      );
    }
    frame = required;
  } else if (wf?.frame === "offset") {
    if (e.frame) throw new AnalysisException("_LEGACY_ERROR_TEMP_1035", `Cannot specify window frame for ${f.name} function.`);
    const off = Number((f.args[1] as Expr & { kind: "literal" }).value);
    const k = f.name === "lag" ? -off : off;
    frame = { type: "rows", lower: k, upper: k, numericBounds: true };
  } else {
    frame = e.frame ?? (ordered ? { type: "range", lower: null, upper: 0 } : { type: "rows", lower: null, upper: null });
  }
  return windowExpr(f, e.partitionBy, e.orderBy, frame);
}

function checkFrame(e: WindowExpr, frame: WindowFrame): void {
  const { lower, upper } = frame;
  if (lower !== null && upper !== null && lower > upper) {
    throw mismatch(
      "SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON",
      frameSql(frame),
      "The lower bound of a window frame must be less than or equal to the upper bound.",
    );
  }
  if (frame.type !== "range") return;
  const spec = windowSpecSql({ ...e, frame });
  if (e.orderBy.length === 0 && !(lower === null && upper === null)) {
    throw mismatch("RANGE_FRAME_WITHOUT_ORDER", spec, "A range window frame cannot be used in an unordered window specification.");
  }
  const valueBounds = (lower !== null && lower !== 0) || (upper !== null && upper !== 0);
  if (!valueBounds) return;
  if (e.orderBy.length > 1) {
    throw mismatch(
      "RANGE_FRAME_MULTI_ORDER",
      spec,
      `A range window frame with value boundaries cannot be used in a window specification with multiple order by expressions: ${e.orderBy.map(exprToSql).join(",")}.`,
    );
  }
  const t = typeOf(e.orderBy[0]!.child);
  const fits = frame.intervalBounds
    ? t.kind === "timestamp" || t.kind === "date"
    : ["tinyint", "smallint", "int", "bigint", "float", "double", "date"].includes(t.kind) ||
      (t.kind === "decimal" && t.precision <= NUMBER_LANE_MAX_PRECISION); // unscaled values as numbers (types/decimal.ts)
  if (!fits) {
    const boundType = frame.intervalBounds ? "INTERVAL DAY TO SECOND" : frame.numericBounds ? "BIGINT" : "INT";
    throw mismatch(
      "RANGE_FRAME_INVALID_TYPE",
      spec,
      `The data type "${sqlTypeName(t)}" used in the order specification does not support the data type "${boundType}" which is used in the range frame.`,
    );
  }
  const wholeDays = (v: number | null) => v === null || v % 86_400_000_000 === 0;
  if (frame.intervalBounds && t.kind === "date" && !(wholeDays(lower) && wholeDays(upper))) {
    throw mismatch("RANGE_FRAME_INVALID_TYPE", spec, "A range frame over a DATE order key takes whole days (INTERVAL n DAYS).");
  }
}

/** `row_number()` and friends are only valid with OVER; aggregates may not hold a window. */
export function checkWindowPlacement(e: Expr): void {
  const visit = (x: Expr, underWindow: boolean): void => {
    if (x.kind === "windowExpr") {
      // The function itself is the window's; its arguments are ordinary.
      for (const a of exprChildren(x.fn)) visit(a, false);
      for (const c of [...x.partitionBy, ...x.orderBy]) visit(c, false);
      return;
    }
    if (windowFn(x) && !underWindow) {
      throw new AnalysisException(
        "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE",
        `[WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE] Window function "${exprToSql(x)}" requires an OVER clause.`,
      );
    }
    if (isAggregateCall(x) && x.kind === "call" && x.args.some(hasWindow)) {
      throw new AnalysisException(
        "_LEGACY_ERROR_TEMP_1034",
        "It is not allowed to use a window function inside an aggregate function. Please use the inner window function in a sub-query.",
      );
    }
    for (const c of exprChildren(x)) visit(c, false);
  };
  visit(e, false);
}

/** Window functions are refused in WHERE / HAVING / GROUP BY (Spark's WINDOW_FUNCTION_NOT_ALLOWED_IN_CLAUSE). */
export function refuseWindow(e: Expr, clause: string): void {
  if (!hasWindow(e)) return;
  throw new AnalysisException(
    "WINDOW_FUNCTION_NOT_ALLOWED_IN_CLAUSE",
    `[WINDOW_FUNCTION_NOT_ALLOWED_IN_CLAUSE] It is not allowed to use window functions inside ${clause} clause.`,
  );
}

/** Aggregates outside any OVER clause (`sum(v) OVER w` alone does not make a SELECT an aggregation). */
export function hasAggregateOutsideWindow(e: Expr): boolean {
  if (e.kind === "windowExpr") {
    const args = e.fn.kind === "call" ? e.fn.args : [];
    return [...args, ...e.partitionBy, ...e.orderBy].some(hasAggregateOutsideWindow);
  }
  return isAggregateCall(e) || exprChildren(e).some(hasAggregateOutsideWindow);
}

/**
 * `items` (named, resolved) over `child` with window expressions: stacked Window nodes, one
 * per distinct (PARTITION BY, ORDER BY), each computing its window columns; then the Project.
 * Nested window expressions (a window in another's ORDER BY) are computed first.
 */
export function extractWindows(items: readonly Expr[], child: LogicalPlan): LogicalPlan {
  let plan = child;
  let current = [...items];
  // Innermost first: a window whose children hold no window can be computed now.
  for (;;) {
    const ready = new Map<string, WindowExpr>();
    for (const it of current) {
      transformDown(it, (x) => {
        if (x.kind === "windowExpr" && !exprChildren(x).some(hasWindow)) ready.set(semanticKey(x), x);
        return x;
      });
    }
    if (ready.size === 0) break;
    const bySpec = new Map<string, { partitionBy: readonly Expr[]; orderBy: readonly SortOrder[]; aliases: Alias[] }>();
    const replaced = new Map<string, Expr>();
    let n = 0;
    for (const [key, w] of ready) {
      const specKey = `${w.partitionBy.map(semanticKey).join(",")}|${w.orderBy.map(semanticKey).join(",")}`;
      let group = bySpec.get(specKey);
      if (!group) {
        group = { partitionBy: w.partitionBy, orderBy: w.orderBy, aliases: [] };
        bySpec.set(specKey, group);
      }
      // `fn OVER (...) AS name` keeps its alias (and column id) in the Window node, as Spark's.
      const own = current.find((it) => it.kind === "alias" && it.child.kind === "windowExpr" && semanticKey(it.child) === key) as
        | Alias
        | undefined;
      const a: Alias = own ? Object.freeze({ ...own, child: w }) : alias(w, `_we${n++}`);
      group.aliases.push(a);
      replaced.set(key, toAttribute(a));
    }
    for (const g of bySpec.values()) plan = Plans.window(g.aliases, g.partitionBy, g.orderBy, plan);
    current = current.map((it) => {
      if (it.kind === "alias" && it.child.kind === "windowExpr") {
        const r = replaced.get(semanticKey(it.child));
        if (r?.kind === "attribute" && r.exprId === it.exprId) return r;
      }
      return transformDown(it, (x) => (x.kind === "windowExpr" ? (replaced.get(semanticKey(x)) ?? x) : x));
    });
  }
  return Plans.project(current, plan);
}

/**
 * A SELECT with GROUP BY and window expressions (`rank() OVER (ORDER BY sum(v))`): the
 * aggregation computes the plain items plus, hidden, every aggregate or grouping column the
 * window items read; the windows run over the aggregation's output.
 */
export function splitAggregateWindows(
  groups: readonly Expr[],
  items: readonly Expr[],
  child: LogicalPlan,
  finish: (agg: LogicalPlan & { kind: "aggregate" }) => void,
): LogicalPlan {
  const groupKeys = new Set(groups.map(semanticKey));
  const hidden = new Map<string, Alias>();
  const plain: Expr[] = [];
  const lift = (x: Expr): Expr => {
    if (x.kind === "windowExpr") {
      const fn = x.fn.kind === "call" ? { ...x.fn, args: x.fn.args.map((a) => transformDown(a, lift)) } : x.fn;
      return windowExpr(
        fn,
        x.partitionBy.map((p) => transformDown(p, lift)),
        x.orderBy.map((o) => transformDown(o, lift) as SortOrder),
        x.frame,
      );
    }
    if (isAggregateCall(x) || groupKeys.has(semanticKey(x)) || x.kind === "attribute") {
      const key = semanticKey(x);
      let a = hidden.get(key);
      if (!a) {
        a = alias(x, exprToSql(x));
        hidden.set(key, a);
      }
      return toAttribute(a);
    }
    return x;
  };
  const top = items.map((it) => {
    if (!hasWindow(it)) {
      plain.push(it);
      return toAttribute(it);
    }
    return it.kind === "alias" ? alias(transformDown(it.child, lift), it.name) : transformDown(it, lift);
  });
  // Keep the user's alias ids so references above see the same columns.
  const fixed = top.map((t, i) => (items[i]!.kind === "alias" && t.kind === "alias" ? { ...t, exprId: (items[i] as Alias).exprId } : t));
  const agg = Plans.aggregate(groups, [...plain, ...hidden.values()], child);
  finish(agg);
  return extractWindows(fixed, agg);
}
