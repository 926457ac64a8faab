/**
 * Sort: evaluates the sort keys once as vectors, sorts a row-index array with a comparator
 * over those vectors (Spark's ordering: NULLS FIRST for ASC, NaN greatest, strings by code
 * point), then gathers.
 */
import { type Batch, concatBatches, takeBatch } from "../../columnar/batch.js";
import { stringOrderOf } from "../../columnar/string-order.js";
import { utf8Of } from "../../columnar/utf8.js";
import { bytesCompare, wordView } from "../../columnar/utf8-ops.js";
import { getValue, type Vector } from "../../columnar/vector.js";
import { compareValues } from "../../functions/index.js";
import type { Attribute, SortOrder } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import { compileExpr } from "../compile.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

/** One comparator per sort key over rows of the key vectors (Spark's ordering: NULLS FIRST for ASC, NaN greatest). */
export function keyComparators(keys: readonly Vector[], orders: readonly SortOrder[]): ((a: number, b: number) => number)[] {
  return keys.map((k, j) => {
    const o = orders[j]!;
    const dir = o.ascending ? 1 : -1;
    const nullCmp = o.nullsFirst ? -1 : 1;
    if (k.type.kind === "string") return stringKeyComparator(k, dir, nullCmp);
    const numeric = !Array.isArray(k.values) && !k.children;
    const vals = k.values as Float64Array;
    const valid = k.validity;
    return (a: number, b: number): number => {
      const an = valid !== null && valid[a] === 0;
      const bn = valid !== null && valid[b] === 0;
      if (an || bn) return an && bn ? 0 : an ? nullCmp : -nullCmp;
      if (numeric) {
        const x = vals[a]!;
        const y = vals[b]!;
        if (x < y) return -dir;
        if (x > y) return dir;
        if (x === y) return 0;
      }
      return dir * compareValues(getValue(k, a), getValue(k, b));
    };
  });
}

/**
 * A STRING key: code-point order (Spark's UTF8_BINARY). A UTF-8 key compares its bytes (the
 * rows are never decoded); JS strings compare natively when no row needs more.
 */
function stringKeyComparator(k: Vector, dir: number, nullCmp: number): (a: number, b: number) => number {
  const valid = k.validity;
  const u = utf8Of(k);
  if (u !== undefined) {
    const { bytes, offsets } = u;
    const view = wordView(bytes);
    return (a: number, b: number): number => {
      const an = valid !== null && valid[a] === 0;
      const bn = valid !== null && valid[b] === 0;
      if (an || bn) return an && bn ? 0 : an ? nullCmp : -nullCmp;
      return dir * bytesCompare(bytes, view, offsets[a]!, offsets[a + 1]!, bytes, view, offsets[b]!, offsets[b + 1]!);
    };
  }
  const order = stringOrderOf([k], k.length);
  const vals = k.values as string[];
  return (a: number, b: number): number => {
    const an = valid !== null && valid[a] === 0;
    const bn = valid !== null && valid[b] === 0;
    if (an || bn) return an && bn ? 0 : an ? nullCmp : -nullCmp;
    return dir * order(vals[a]!, vals[b]!);
  };
}

export function sortIndices(keys: readonly Vector[], orders: readonly SortOrder[], n: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  const cmps = keyComparators(keys, orders);
  idx.sort((a, b) => {
    for (const c of cmps) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return a - b;
  });
  return idx;
}

export class SortExec implements PhysicalOperator {
  readonly name = "Sort";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  constructor(
    readonly orders: readonly SortOrder[],
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = child.output;
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const all = concatBatches(
      this.output.map((a) => a.type),
      await this.child.execute(ctx),
    );
    if (all.numRows === 0) return [];
    const keys = this.orders.map((o) => compileExpr(o.child, this.output)(all, ctx.eval));
    return [takeBatch(all, sortIndices(keys, this.orders, all.numRows))];
  }
  describe(): string {
    return `[${this.orders.map(exprToSql).join(", ")}], true`;
  }
}
