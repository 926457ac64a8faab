/**
 * Window (Spark's WindowExec) for batch queries: all input rows are sorted once by
 * (partition, ORDER BY) — partitions numbered by the hash GroupIndex, so equal keys group as in
 * GROUP BY — then every window function of this specification is computed as a vector over
 * the sorted rows (./window-functions.ts). Output: the sorted input columns, then one column
 * per window expression, as Spark's.
 */
import { type Batch, concatBatches, makeBatch, takeBatch } from "../../columnar/batch.js";
import { take, type Vector } from "../../columnar/vector.js";
import type { AggregateFunction } from "../../functions/index.js";
import { lookupFunction } from "../../functions/index.js";
import { toAttribute, typeOf } from "../../functions/typing.js";
import type { Attribute, Call, Expr, SortOrder, WindowExpr } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import { bindIndex, compileExpr } from "../compile.js";
import { frameAggregate } from "../frame-aggregate.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { keyComparators } from "./sort.js";
import { frameBounds, offsetValues, positionalValues, rankingValues, type WindowLayout, windowLayout } from "./window-functions.js";

const literalOf = (e: Expr | undefined): unknown => (e?.kind === "literal" ? e.value : undefined);
const isTrue = (v: unknown) => v === true || v === 1;

export class WindowExec implements PhysicalOperator {
  readonly name = "Window";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  private readonly windows: { expr: WindowExpr; fn: Call }[];

  constructor(
    readonly windowExprs: readonly Expr[],
    readonly partitionBy: readonly Expr[],
    readonly orderBy: readonly SortOrder[],
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = [...child.output, ...windowExprs.map(toAttribute)];
    this.windows = windowExprs.map((e) => {
      const w = (e.kind === "alias" ? e.child : e) as WindowExpr;
      return { expr: w, fn: w.fn as Call };
    });
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const input = this.child.output;
    const all = concatBatches(
      input.map((a) => a.type),
      await this.child.execute(ctx),
    );
    const n = all.numRows;
    if (n === 0) return [];
    const index = bindIndex(input);
    const evalOn = (b: Batch, e: Expr) => compileExpr(e, input, index)(b, ctx.eval);

    // Partition numbers (hash grouping), then one sort by (partition, ORDER BY keys).
    let part: Int32Array;
    if (this.partitionBy.length > 0) {
      const gi = new GroupIndex(this.partitionBy.map(typeOf));
      part = gi.assign(
        this.partitionBy.map((p) => evalOn(all, p)),
        n,
      );
    } else part = new Int32Array(n);
    const keys = this.orderBy.map((o) => evalOn(all, o.child));
    const cmps = keyComparators(keys, this.orderBy);
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => {
      const d = part[a]! - part[b]!;
      if (d !== 0) return d;
      for (const c of cmps) {
        const r = c(a, b);
        if (r !== 0) return r;
      }
      return a - b;
    });
    const sorted = takeBatch(all, order);
    const sortedKeys = keys.map((k) => take(k, order));
    const sortedCmps = keyComparators(sortedKeys, this.orderBy);
    const layout = windowLayout(
      n,
      (i) => part[order[i]!] === part[order[i - 1]!],
      (i) => sortedCmps.every((c) => c(i - 1, i) === 0),
    );
    const cols = this.windows.map((w) => this.compute(w.expr, w.fn, sortedKeys, layout, (e) => evalOn(sorted, e)));
    return [makeBatch([...sorted.columns, ...cols], n)];
  }

  private compute(w: WindowExpr, fn: Call, keys: readonly Vector[], L: WindowLayout, evalArg: (e: Expr) => Vector): Vector {
    const n = L.n;
    const frame = w.frame!;
    switch (fn.name) {
      case "row_number":
      case "rank":
      case "dense_rank":
      case "percent_rank":
      case "cume_dist":
        return rankingValues(fn.name, L);
      case "ntile":
        return rankingValues("ntile", L, Number(literalOf(fn.args[0])));
      case "lag":
      case "lead": {
        const off = Number(literalOf(fn.args[1]));
        return offsetValues(evalArg(fn.args[0]!), evalArg(fn.args[2]!), fn.name === "lag" ? -off : off, isTrue(literalOf(fn.args[3])), L);
      }
    }
    const frames = frameBounds(frame, L, keys[0] ?? null, this.orderBy[0] ?? null);
    switch (fn.name) {
      case "nth_value":
        return positionalValues(evalArg(fn.args[0]!), frames, Number(literalOf(fn.args[1])), false, isTrue(literalOf(fn.args[2])), n);
      case "first":
      case "first_value":
      case "last":
      case "last_value": {
        const fromEnd = fn.name.startsWith("last");
        return positionalValues(evalArg(fn.args[0]!), frames, 1, fromEnd, isTrue(literalOf(fn.args[1])), n);
      }
    }
    const agg = lookupFunction(fn.name) as AggregateFunction;
    const argTypes = fn.args.map(typeOf);
    const resultType = typeOf(fn);
    const literals = fn.args.map(literalOf);
    const inputs = fn.args.map(evalArg);
    return frameAggregate(() => agg.create(argTypes, resultType, false, literals), inputs, n, frames, L.partition, L.partStart, L.partEnd);
  }

  describe(): string {
    return `[${this.windowExprs.map(exprToSql).join(", ")}], [${this.partitionBy.map(exprToSql).join(", ")}], [${this.orderBy.map(exprToSql).join(", ")}]`;
  }
}
