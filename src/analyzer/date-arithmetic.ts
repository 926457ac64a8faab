/**
 * `+` and `-` between dates, timestamps, integers and day-time intervals, rewritten as Spark's
 * analyzer rewrites them (its BinaryArithmetic resolution with ANSI intervals), which decides
 * both the result type and the column's generated name:
 * - `d + n`, `n + d` → `date_add(d, n)`; `d - n` → `date_sub(d, n)` (a DATE);
 * - `d ± INTERVAL '3' DAY` (an interval of whole days by its type) →
 *   `date_add(d, extractansiintervaldays(...))`, still a DATE (`d - ...` adds its negation);
 * - `ts ± interval`, `d ± INTERVAL '3' HOUR` (a TIMESTAMP), `interval + ts` — Spark's TimeAdd,
 *   printed without parentheses (`ts + INTERVAL '3' DAY`).
 * Everything else stays the plain operator.
 */
import { typeOf } from "../functions/typing.js";
import { type Call, call, type Expr } from "../plan/expressions.js";
import { dayTimeFields, isIntegral } from "../types/datatypes.js";

function isDayInterval(e: Expr): boolean {
  const t = typeOf(e);
  if (t.kind !== "interval") return false;
  const [s, end] = dayTimeFields(t);
  return s === "DAY" && end === "DAY";
}
const kind = (e: Expr) => typeOf(e).kind;

/** The rewrite of a resolved-argument `+` / `-`, or null when it stays as it is. */
export function rewriteDateArithmetic(e: Call): Expr | null {
  if ((e.name !== "+" && e.name !== "-") || e.args.length !== 2 || e.bare) return null;
  const plus = e.name === "+";
  let [a, b] = e.args as [Expr, Expr];
  // interval + datetime and n + date: the datetime first, as Spark orders them
  if (
    plus &&
    (kind(a) === "interval" || isIntegral(typeOf(a))) &&
    (kind(b) === "date" || (kind(b) === "timestamp" && kind(a) === "interval"))
  )
    [a, b] = [b, a];
  const ka = kind(a);
  const kb = kind(b);
  if (ka === "date" && isIntegral(typeOf(b))) return call(plus ? "date_add" : "date_sub", [a, b]);
  if (ka === "date" && isDayInterval(b)) {
    const days = call("extractansiintervaldays", [b]);
    return call("date_add", [a, plus ? days : call("negative", [days])]);
  }
  if ((ka === "date" || ka === "timestamp") && kb === "interval") return Object.freeze({ ...call(e.name, [a, b]), bare: true });
  return null;
}
