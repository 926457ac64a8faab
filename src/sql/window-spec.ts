/**
 * Window specifications in SQL text: `OVER name` or `OVER ( [PARTITION BY ...] [ORDER BY ...]
 * [ROWS | RANGE frame] )`, also the WINDOW clause's `AS (...)` (query.ts), and sort items'
 * directions. The expressions inside are read by the expression parser's readers, passed in
 * (expression.ts imports this module, so it cannot import the parser back).
 */
import { call, type Expr, literal, type SortOrder, sortOrder, type WindowExpr, type WindowFrame, windowExpr } from "../plan/expressions.js";
import { StringType } from "../types/datatypes.js";
import { toDouble } from "../types/decimal.js";
import type { Cursor } from "./cursor.js";

/** The expression parser's readers a window specification needs: a whole expression, and a frame bound's (`|` and tighter). */
export interface ExpressionReaders {
  expression(cur: Cursor): Expr;
  bitOr(cur: Cursor): Expr;
}

/** Marker for `OVER name`: the named window of the query's WINDOW clause (query.ts substitutes it). */
export const NAMED_WINDOW = "__named_window";

/** `OVER name` or `OVER ( [PARTITION BY ...] [ORDER BY ...] [frame] )`. */
export function readWindowSpec(cur: Cursor, fn: Expr, read: ExpressionReaders): Expr {
  if (!cur.isOp("(")) return windowExpr(fn, [call(NAMED_WINDOW, [literal(cur.identifier(), StringType)])], [], null);
  cur.expectOp("(");
  const spec = readWindowSpecBody(cur, read);
  cur.expectOp(")");
  return windowExpr(fn, spec.partitionBy, spec.orderBy, spec.frame);
}

/** The inside of a window specification's parentheses (also the WINDOW clause's `AS (...)`). */
export function readWindowSpecBody(cur: Cursor, read: ExpressionReaders): Pick<WindowExpr, "partitionBy" | "orderBy" | "frame"> {
  const partitionBy: Expr[] = [];
  const orderBy: SortOrder[] = [];
  if (cur.acceptKeyword("PARTITION", "BY") || cur.acceptKeyword("DISTRIBUTE", "BY")) {
    do partitionBy.push(read.expression(cur));
    while (cur.acceptOp(","));
  }
  if (cur.acceptKeyword("ORDER", "BY") || cur.acceptKeyword("SORT", "BY")) {
    do orderBy.push(readSortItem(cur, read));
    while (cur.acceptOp(","));
  }
  let frame: WindowFrame | null = null;
  if (cur.isKeyword("ROWS") || cur.isKeyword("RANGE")) {
    const type = cur.next().value.toLowerCase() as "rows" | "range";
    const bounds: FrameBound[] = [];
    if (cur.acceptKeyword("BETWEEN")) {
      bounds.push(readFrameBound(cur, true, read));
      cur.expectKeyword("AND");
      bounds.push(readFrameBound(cur, false, read));
    } else bounds.push(readFrameBound(cur, true, read), { value: 0, interval: false });
    const [lo, hi] = bounds as [FrameBound, FrameBound];
    const intervals = bounds.filter((b) => b.interval).length;
    const numbers = bounds.filter((b) => b.value !== null && b.value !== 0 && !b.interval).length;
    if (intervals > 0 && numbers > 0) throw cur.fail("[INVALID_SQL_SYNTAX] A window frame cannot mix INTERVAL and numeric bounds.");
    const unit = bounds.find((b) => b.unit)?.unit;
    frame =
      intervals > 0
        ? { type, lower: lo.value, upper: hi.value, intervalBounds: true, ...(unit ? { intervalUnit: unit } : {}) }
        : { type, lower: lo.value, upper: hi.value };
  }
  return { partitionBy, orderBy, frame };
}

/** `e [ASC | DESC] [NULLS FIRST | NULLS LAST]` (a window's ORDER BY item, a WITHIN GROUP key). */
export function readSortItem(cur: Cursor, read: ExpressionReaders): SortOrder {
  return readSortDirection(cur, read.expression(cur));
}

/** `e`'s sort order from what follows it: `[ASC | DESC] [NULLS FIRST | NULLS LAST]`. */
export function readSortDirection(cur: Cursor, e: Expr): SortOrder {
  let ascending = true;
  if (cur.acceptKeyword("DESC")) ascending = false;
  else cur.acceptKeyword("ASC");
  let nullsFirst: boolean | undefined;
  if (cur.acceptKeyword("NULLS")) {
    if (cur.acceptKeyword("FIRST")) nullsFirst = true;
    else if (cur.acceptKeyword("LAST")) nullsFirst = false;
    else throw cur.error();
  }
  return sortOrder(e, ascending, nullsFirst);
}

interface FrameBound {
  readonly value: number | null;
  /** Written as an INTERVAL: `value` is microseconds. */
  readonly interval: boolean;
  /** The INTERVAL's one unit, when it was written with one (`INTERVAL 7 DAYS`). */
  readonly unit?: "DAY" | "HOUR" | "MINUTE" | "SECOND";
}

const FRAME_UNITS: Readonly<Record<string, "DAY" | "HOUR" | "MINUTE" | "SECOND">> = {
  DAY: "DAY",
  DAYS: "DAY",
  HOUR: "HOUR",
  HOURS: "HOUR",
  MINUTE: "MINUTE",
  MINUTES: "MINUTE",
  SECOND: "SECOND",
  SECONDS: "SECOND",
};

/** UNBOUNDED PRECEDING/FOLLOWING (null), CURRENT ROW (0), `n PRECEDING` (-n), `n FOLLOWING` (n), `INTERVAL ... PRECEDING`. */
function readFrameBound(cur: Cursor, lower: boolean, read: ExpressionReaders): FrameBound {
  const b = readFrameBoundValue(cur, lower, read);
  return typeof b === "object" && b !== null ? b : { value: b, interval: false };
}

function readFrameBoundValue(cur: Cursor, lower: boolean, read: ExpressionReaders): number | null | FrameBound {
  const at = cur.peek();
  if (cur.acceptKeyword("UNBOUNDED")) {
    if (cur.acceptKeyword("PRECEDING")) {
      if (!lower) throw cur.fail("[INVALID_SQL_SYNTAX] A window frame cannot end at UNBOUNDED PRECEDING.", at);
      return null;
    }
    cur.expectKeyword("FOLLOWING");
    if (lower)
      throw cur.fail("[DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND] A window frame cannot start at UNBOUNDED FOLLOWING.", at);
    return null;
  }
  if (cur.acceptKeyword("CURRENT", "ROW")) return 0;
  const from = cur.index;
  const e = read.bitOr(cur);
  const units = cur.tokens
    .slice(from, cur.index)
    .map((t) => (t.kind === "ident" ? FRAME_UNITS[t.value.toUpperCase()] : undefined))
    .filter((u) => u !== undefined);
  // A fractional bound (`2.5 PRECEDING`) is a DECIMAL literal: its value, not its unscaled integer.
  const v =
    e.kind === "literal" && e.type.kind === "decimal" && e.value !== null
      ? toDouble(e.value as number | bigint, e.type.scale)
      : e.kind === "literal" && typeof e.value === "number"
        ? e.value
        : null;
  if (v === null) {
    throw cur.fail(
      "[UNSUPPORTED_FEATURE] Window frame bounds must be numeric or INTERVAL literals (n PRECEDING / n FOLLOWING) in arus.",
      at,
    );
  }
  const interval = e.kind === "literal" && e.type.kind === "interval";
  const unit = interval && units.length === 1 ? { unit: units[0]! } : {};
  if (cur.acceptKeyword("PRECEDING")) return { value: -v, interval, ...unit };
  cur.expectKeyword("FOLLOWING");
  return { value: v, interval, ...unit };
}
