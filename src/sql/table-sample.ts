/**
 * `relation TABLESAMPLE (...)`, Spark's sample clause after a table or subquery: `n ROWS` is a
 * LIMIT n; `x PERCENT` and `BUCKET x OUT OF y` keep each row with probability x / 100 and x / y
 * (a Bernoulli sample by `rand`, as Spark's Sample; `REPEATABLE (seed)` fixes the seed, without
 * it each run draws its own). As with `df.sample`, the rows are not the ones Spark's per-partition
 * generator picks.
 */
import { call, literal } from "../plan/expressions.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";
import { DoubleType, LongType } from "../types/datatypes.js";
import type { Cursor } from "./cursor.js";

export function readTableSample(cur: Cursor, plan: LogicalPlan): LogicalPlan {
  if (!(cur.isKeyword("TABLESAMPLE") && cur.isOp("(", 1))) return plan;
  cur.next();
  cur.expectOp("(");
  let fraction: number;
  if (cur.acceptKeyword("BUCKET")) {
    const numerator = wholeNumber(cur);
    cur.expectKeyword("OUT");
    cur.expectKeyword("OF");
    const denominator = wholeNumber(cur);
    if (numerator > denominator)
      throw cur.fail(`[INVALID_TABLESAMPLE_FRACTION] Sampling fraction (${numerator / denominator}) must be on interval [0, 1].`);
    fraction = numerator / denominator;
  } else {
    const negative = cur.acceptOp("-");
    const at = cur.peek();
    if (at.kind === "number" && cur.isKeyword("PERCENT", 1)) {
      cur.next();
      cur.next();
      const percent = (negative ? -1 : 1) * Number(at.text.replace(/[a-zA-Z]+$/, ""));
      if (!(percent >= 0 && percent <= 100))
        throw cur.fail(`[INVALID_TABLESAMPLE_FRACTION] Sampling fraction (${percent / 100}) must be on interval [0, 1].`, at);
      fraction = percent / 100;
    } else {
      if (negative) throw cur.error(at);
      const rows = wholeNumber(cur);
      cur.expectKeyword("ROWS");
      cur.expectOp(")");
      return Plans.limit(rows, plan);
    }
  }
  cur.expectOp(")");
  const seed = cur.acceptKeyword("REPEATABLE") ? repeatableSeed(cur) : null;
  const draw = call("rand", seed === null ? [] : [literal(seed, LongType)]);
  return Plans.filter(call("<", [draw, literal(fraction, DoubleType)]), plan);
}

function wholeNumber(cur: Cursor): number {
  const t = cur.next();
  if (t.kind !== "number" || !/^\d+$/.test(t.text)) throw cur.error(t);
  return Number(t.text);
}

function repeatableSeed(cur: Cursor): number {
  cur.expectOp("(");
  const seed = wholeNumber(cur);
  cur.expectOp(")");
  return seed;
}
