/**
 * State cleanup for stream-stream joins (Spark's StreamingJoinHelper): from the join keys and
 * the condition, when can a stored row of each side never match again?
 *   key predicate   — a watermarked column (timestamp or window) is a join key: evict rows
 *                     whose key time (window end) <= watermark;
 *   value predicate — a range condition such as `l.ts >= r.ts - interval 5 minutes` bounds one
 *                     side's time by the other's: with the other side's future rows all later
 *                     than the watermark, this side's rows at or below
 *                     `watermark + offset` (minus 1 ms for `<=`/`>=`) can be evicted.
 */
import { type Attribute, conjuncts, type Expr } from "./expressions.js";

export interface SideCleanup {
  /** Evict by the time in the join key at this position. */
  keyIndex?: number;
  /** Evict by the row's time column at this position, with this offset (ms) from the watermark. */
  value?: { column: number; offsetMs: number };
}

const WM = "spark.watermarkDelayMs";

/** `attr`, `attr + lit`, `attr - lit` (interval or number of ms) → [attr, offset micros]. */
function linear(e: Expr): [Attribute, number] | null {
  if (e.kind === "attribute") return [e, 0];
  if (e.kind === "cast" && e.implicit) return linear(e.child);
  if (e.kind === "call" && (e.name === "+" || e.name === "-") && e.args[1]?.kind === "literal") {
    const base = linear(e.args[0]!);
    const lit = e.args[1];
    if (!base || typeof lit.value !== "number" || lit.type.kind !== "interval") return null;
    return [base[0], base[1] + (e.name === "+" ? lit.value : -lit.value)];
  }
  return null;
}

/**
 * Value-predicate offsets per side from the range conjuncts: for each side, the smallest
 * `offsetMs` such that rows with time <= watermark + offsetMs can be evicted.
 */
export function deriveCleanup(
  leftKeys: readonly Expr[],
  rightKeys: readonly Expr[],
  condition: Expr | null,
  left: readonly Attribute[],
  right: readonly Attribute[],
): { left: SideCleanup | null; right: SideCleanup | null } {
  const out: { left: SideCleanup | null; right: SideCleanup | null } = { left: null, right: null };
  const keyTime = (keys: readonly Expr[]) => keys.findIndex((k) => k.kind === "attribute" && k.metadata[WM] !== undefined);
  const lk = keyTime(leftKeys);
  const rk = keyTime(rightKeys);
  if (lk >= 0 && rk >= 0) {
    out.left = { keyIndex: lk };
    out.right = { keyIndex: rk };
  }
  const side = (a: Attribute): "left" | "right" | null => {
    if (left.some((x) => x.exprId === a.exprId)) return "left";
    if (right.some((x) => x.exprId === a.exprId)) return "right";
    return null;
  };
  for (const c of condition ? conjuncts(condition) : []) {
    if (c.kind !== "call" || ![">", ">=", "<", "<="].includes(c.name)) continue;
    const a = linear(c.args[0]!);
    const b = linear(c.args[1]!);
    if (!a || !b) continue;
    // Normalize to X (>|>=) Y + d.
    const [x, y, strict] = c.name === ">" || c.name === ">=" ? [a, b, c.name === ">"] : [b, a, c.name === "<"];
    const sx = side(x[0]);
    const sy = side(y[0]);
    if (!sx || !sy || sx === sy) continue;
    // Only event-time columns (with watermark metadata) can bound anything.
    if (x[0].metadata[WM] === undefined && y[0].metadata[WM] === undefined) continue;
    const dMs = (y[1] - x[1]) / 1000;
    const offsetMs = strict ? dMs : dMs - 1;
    const cols = sx === "left" ? left : right;
    const column = cols.findIndex((z) => z.exprId === x[0].exprId);
    const cur = out[sx];
    if (cur?.keyIndex === undefined && (!cur?.value || offsetMs < cur.value.offsetMs)) out[sx] = { value: { column, offsetMs } };
  }
  return out;
}
