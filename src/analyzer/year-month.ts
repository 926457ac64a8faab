/**
 * Year-month intervals (`INTERVAL 1 MONTH`, `INTERVAL '1-2' YEAR TO MONTH`) added to or
 * subtracted from a DATE or TIMESTAMP, as Spark's DateAddYMInterval / TimestampAddYMInterval:
 * the months are added to the calendar date (the day clamped to the month's last:
 * 2024-01-31 + 1 month = 2024-02-29), a TIMESTAMP keeping its local time of day in the session
 * time zone. arus has no year-month interval column type: the literal is a marker the parser
 * makes and `resolveYearMonth` folds into `add_ym_interval(x, months)` where it meets + or -,
 * and `sequence(start, stop, ym)` into `sequence_months(start, stop, months)`; anywhere else it
 * is refused by name.
 */
import { type Call, call, type Expr, literal } from "../plan/expressions.js";
import { IntegerType } from "../types/datatypes.js";

const MARKER = "__year_month_interval";

/** The parser's year-month interval literal. */
export function yearMonthInterval(months: number): Expr {
  return call(MARKER, [literal(months, IntegerType)]);
}

/** The months of a year-month interval literal (negated ones too), or null. */
function monthsOf(e: Expr): number | null {
  if (e.kind !== "call") return null;
  if (e.name === MARKER) return e.args[0]!.kind === "literal" ? (e.args[0].value as number) : null;
  if (e.name === "negative" && e.args.length === 1) {
    const m = monthsOf(e.args[0]!);
    return m === null ? null : -m;
  }
  return null;
}

export const isYearMonthMarker = (e: Expr): boolean => e.kind === "call" && e.name === MARKER;

export { yearMonthOutsideArithmetic } from "../functions/typing.js";

/**
 * `x + ym`, `ym + x`, `x - ym` → add_ym_interval(x, ±months) (unresolved: the caller resolves
 * it); `-ym` stays a marker for its parent; null when `e` holds no year-month interval.
 */
export function resolveYearMonth(e: Call): Expr | null {
  if (e.name === "negative" && monthsOf(e) !== null) return yearMonthInterval(monthsOf(e)!);
  if ((e.name !== "+" && e.name !== "-") || e.args.length !== 2) return null;
  const [a, b] = e.args as [Expr, Expr];
  const mb = monthsOf(b);
  if (mb !== null) return call("add_ym_interval", [a, literal(e.name === "-" ? -mb : mb, IntegerType)]);
  const ma = monthsOf(a);
  if (ma !== null && e.name === "+") return call("add_ym_interval", [b, literal(ma, IntegerType)]);
  return null;
}

/** `sequence(start, stop, INTERVAL n MONTH)` → sequence_months(start, stop, n) (unresolved); null otherwise. */
export function resolveYearMonthSequence(e: Call): Expr | null {
  if (e.name !== "sequence" || e.args.length !== 3) return null;
  const months = monthsOf(e.args[2]!);
  return months === null ? null : call("sequence_months", [e.args[0]!, e.args[1]!, literal(months, IntegerType)]);
}
