/**
 * State cleanup for stream-stream joins (Spark's StreamingSymmetricHashJoinHelper and
 * StreamingJoinHelper, rule for rule): from the join keys and the condition, when can a stored
 * row of each side never match again?
 *   key predicate   — a watermarked column (timestamp or window) is a join key on either side:
 *                     both sides evict rows whose key at that position (window end) <= watermark;
 *   value predicate — for a side whose input has a watermarked column: a conjunct such as
 *                     `l.ts >= r.ts - interval 5 minutes`, solved for this side's column with
 *                     the other side's watermarked column replaced by the watermark, bounds every
 *                     future match; rows whose **watermarked column** (not the conjunct's) is at or
 *                     below that bound (minus 1 ms for `<=`/`>=`) are evicted. Several conjuncts:
 *                     the smallest bound. A side without a watermark of its own is never evicted.
 * Terms are read as Spark collects them: `+`, `-`, unary minus, casts to a number or timestamp
 * (looked through: `CAST(ts AS LONG) + 5` is `ts + 5 seconds`), numbers (seconds) and day-time
 * intervals; anything else makes the conjunct unusable.
 */
import { isNumeric } from "../types/datatypes.js";
import { type Attribute, collectAttributes, conjuncts, type Expr } from "./expressions.js";

export interface SideCleanup {
  /** Evict by the time in the join key at this position. */
  keyIndex?: number;
  /** Evict by the row's time column at this position, with this offset (ms) from the watermark. */
  value?: { column: number; offsetMs: number };
}

const WM = "spark.watermarkDelayMs";
const hasWatermark = (a: Attribute) => a.metadata[WM] !== undefined;

/** Is `e` a TIMESTAMP (or DATE): a column, a cast to one, or one plus or minus an interval? */
function isTimestamp(e: Expr): boolean {
  const time = (k: string) => k === "timestamp" || k === "date";
  if (e.kind === "attribute" || e.kind === "literal") return time(e.type.kind);
  if (e.kind === "cast") return time(e.to.kind);
  if (e.kind === "call" && (e.name === "+" || e.name === "-") && e.args.length === 2)
    return isTimestamp(e.args[0]!) && !isTimestamp(e.args[1]!);
  return false;
}

/** One term of a canonicalized `lhs - rhs`: an attribute or a constant (micros), and its sign. */
type Term = { readonly attr: Attribute; readonly negated: boolean } | { readonly micros: number };

/** The terms of `e` (negated when `negate`), or null when a term is not one Spark can read. */
function terms(e: Expr, negate: boolean, out: Term[]): boolean {
  switch (e.kind) {
    case "attribute":
      out.push({ attr: e, negated: negate });
      return true;
    case "cast":
      return (isNumeric(e.to) || e.to.kind === "timestamp") && terms(e.child, negate, out);
    case "literal": {
      const v = e.value;
      let micros: number;
      if (e.type.kind === "interval" && typeof v === "number") micros = v;
      else if (isNumeric(e.type) && v !== null)
        micros = Number(v) * 1_000_000; // a number is seconds
      else return false;
      if (!Number.isFinite(micros)) return false;
      out.push({ micros: negate ? -micros : micros });
      return true;
    }
    case "call":
      if (e.name === "+" && e.args.length === 2) return terms(e.args[0]!, negate, out) && terms(e.args[1]!, negate, out);
      if (e.name === "-" && e.args.length === 2) {
        // timestamp - timestamp is Spark's SubtractTimestamps, not a Subtract: not a term
        if (isTimestamp(e.args[0]!) && isTimestamp(e.args[1]!)) return false;
        return terms(e.args[0]!, negate, out) && terms(e.args[1]!, !negate, out);
      }
      if (e.name === "negative" && e.args.length === 1) return terms(e.args[0]!, !negate, out);
      return false;
    default:
      return false;
  }
}

/**
 * `lhs < rhs` solved for the one attribute of `mine` in it, with the other side's watermarked
 * attribute at the watermark: the offset (micros) from the watermark below which `mine`'s
 * rows can match nothing more, or null (Spark's getStateWatermarkFromLessThenPredicate).
 */
function lessThanBound(lhs: Expr, rhs: Expr, mine: ReadonlySet<number>, theirs: ReadonlySet<number>): number | null {
  const attrs = new Set([...collectAttributes(lhs), ...collectAttributes(rhs)].map((a) => a.exprId));
  if ([...attrs].filter((id) => mine.has(id)).length > 1 || [...attrs].filter((id) => theirs.has(id)).length > 1) return null;
  const ts: Term[] = [];
  if (!terms(lhs, false, ts) || !terms(rhs, true, ts)) return null;
  const own = ts.filter((t) => "attr" in t && mine.has(t.attr.exprId));
  // `mine` must come out negated (`other + c - mine < 0`, i.e. `mine > other + c`): a lower bound.
  if (own.length !== 1 || !(own[0] as { negated: boolean }).negated) return null;
  let offset = 0;
  let watermarks = 0;
  for (const t of ts) {
    if (t === own[0]) continue;
    if ("micros" in t) offset += t.micros;
    else if (theirs.has(t.attr.exprId) && hasWatermark(t.attr) && !t.negated) watermarks++;
    else return null; // an attribute with no value to put in: Spark's evaluation fails
  }
  return watermarks === 1 ? offset : null;
}

/**
 * The state value watermark of the side with attributes `mine`, as an offset (ms) from the
 * event-time watermark, from the range conjuncts against `theirs` (which must hold a watermarked
 * column), or null (Spark's getStateValueWatermark). The checks that a join may run use this alone.
 */
export function stateValueOffsetMs(mine: readonly Attribute[], theirs: readonly Attribute[], condition: Expr | null): number | null {
  if (!condition || !theirs.some(hasWatermark)) return null;
  const m = new Set(mine.map((a) => a.exprId));
  const o = new Set(theirs.map((a) => a.exprId));
  let best: number | null = null;
  for (const c of conjuncts(condition)) {
    if (c.kind !== "call" || c.args.length !== 2) continue;
    const [a, b] = c.args as [Expr, Expr];
    let micros: number | null;
    let inclusive = false;
    if (c.name === "<") micros = lessThanBound(a, b, m, o);
    else if (c.name === ">") micros = lessThanBound(b, a, m, o);
    else if (c.name === "<=") [micros, inclusive] = [lessThanBound(a, b, m, o), true];
    else if (c.name === ">=") [micros, inclusive] = [lessThanBound(b, a, m, o), true];
    else continue;
    if (micros === null) continue;
    // Spark's long division of the bound's micros by 1000 (whole watermarks: a floor of the offset)
    const offsetMs = Math.floor(micros / 1000) - (inclusive ? 1 : 0);
    if (best === null || offsetMs < best) best = offsetMs;
  }
  return best;
}

/** Is a watermarked column among the equi-join keys of either side (Spark's isWatermarkInJoinKeys)? */
export function watermarkKeyIndex(leftKeys: readonly Expr[], rightKeys: readonly Expr[]): number {
  const at = (keys: readonly Expr[]) => keys.findIndex((k) => k.kind === "attribute" && hasWatermark(k));
  const l = at(leftKeys);
  return l >= 0 ? l : at(rightKeys);
}

/** Each side's cleanup: a key predicate, a value predicate, or none (never evicted). */
export function deriveCleanup(
  leftKeys: readonly Expr[],
  rightKeys: readonly Expr[],
  condition: Expr | null,
  left: readonly Attribute[],
  right: readonly Attribute[],
): { left: SideCleanup | null; right: SideCleanup | null } {
  const keyIndex = watermarkKeyIndex(leftKeys, rightKeys);
  if (keyIndex >= 0) return { left: { keyIndex }, right: { keyIndex } };
  const side = (mine: readonly Attribute[], theirs: readonly Attribute[]): SideCleanup | null => {
    const column = mine.findIndex(hasWatermark);
    if (column < 0) return null;
    const offsetMs = stateValueOffsetMs(mine, theirs, condition);
    return offsetMs === null ? null : { value: { column, offsetMs } };
  };
  return { left: side(left, right), right: side(right, left) };
}
