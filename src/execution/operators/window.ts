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
import { type Frames, frameAggregate } from "../frame-aggregate.js";
import { countFrames, extremumFrames, sumFrames } from "../frame-kernels.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { keyComparators } from "./sort.js";
import { frameBounds, offsetValues, positionalValues, rankingValues, type WindowLayout, windowLayout } from "./window-functions.js";

/** The typed-array kernels of ../frame-kernels.ts for count / sum / avg / min / max of a numeric column, or null. */
function numericFrames(name: string, inputs: readonly Vector[], n: number, frames: Frames, L: WindowLayout): Vector | null {
  switch (name) {
    case "count":
      return countFrames(inputs, n, frames);
    case "sum":
      return sumFrames(inputs[0]!, n, frames, false);
    case "avg":
    case "mean":
      return sumFrames(inputs[0]!, n, frames, true);
    case "min":
      return extremumFrames(inputs[0]!, n, frames, L.partStart, -1);
    case "max":
      return extremumFrames(inputs[0]!, n, frames, L.partStart, 1);
    default:
      return null;
  }
}

const days = (micros: number | null) => (micros === null ? null : micros / 86_400_000_000);
/** A RANGE bound over a DECIMAL(p, s) key, in the key's unscaled units (Spark casts the bound to the key's type, HALF_UP). */
const unscaled = (v: number | null, scale: number): number | null => {
  if (v === null || v === 0) return v;
  const text = String(Math.abs(v));
  let u: number;
  if (text.includes("e")) u = Math.round(Math.abs(v) * 10 ** scale);
  else {
    // On the literal's shortest decimal text, so 1.005 at scale 2 is 101 as the SQL literal reads.
    const [int, frac = ""] = text.split(".") as [string, string?];
    u = Number(int) * 10 ** scale + Number(frac.slice(0, scale).padEnd(scale, "0") || "0") + ((frac[scale] ?? "0") >= "5" ? 1 : 0);
  }
  return v < 0 ? -u : u;
};

function frameDebugText(w: WindowExpr): string {
  const f = w.frame!;
  const b = (v: number | null, lower: boolean) =>
    v === null ? (lower ? "unboundedpreceding$()" : "unboundedfollowing$()") : v === 0 ? "currentrow$()" : String(v);
  return `specifiedwindowframe(${f.type === "rows" ? "RowFrame" : "RangeFrame"}, ${b(f.lower, true)}, ${b(f.upper, false)})`;
}

const literalOf = (e: Expr | undefined): unknown => (e?.kind === "literal" ? e.value : undefined);
const isTrue = (v: unknown) => v === true || v === 1;

/**
 * Row order of the window: partitions by a counting sort on the partition number (rows keep
 * their input order inside it), then each partition sorted by the ORDER BY comparators
 * (ties keep input order).
 */
function windowOrder(part: Int32Array, cmps: readonly ((a: number, b: number) => number)[], n: number): Int32Array {
  let parts = 0;
  for (let i = 0; i < n; i++) if (part[i]! >= parts) parts = part[i]! + 1;
  const start = new Int32Array(parts + 1);
  for (let i = 0; i < n; i++) start[part[i]! + 1]!++;
  for (let p = 0; p < parts; p++) start[p + 1]! += start[p]!;
  const order = new Int32Array(n);
  const fill = start.slice(0, parts);
  for (let i = 0; i < n; i++) order[fill[part[i]!]!++] = i;
  if (cmps.length === 0) return order;
  const cmp = (a: number, b: number): number => {
    for (const c of cmps) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return a - b;
  };
  for (let p = 0; p < parts; p++) if (start[p + 1]! - start[p]! > 1) order.subarray(start[p]!, start[p + 1]!).sort(cmp);
  return order;
}

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
      // GroupIndex keys -0.0 and 0.0 alike (Spark's NormalizeFloatingNumbers).
      part = gi.assign(
        this.partitionBy.map((p) => evalOn(all, p)),
        n,
      );
    } else part = new Int32Array(n);
    const keys = this.orderBy.map((o) => evalOn(all, o.child));
    const order = windowOrder(part, keyComparators(keys, this.orderBy), n);
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
    // INTERVAL bounds are microseconds; a DATE key counts days.
    const perDay = frame.intervalBounds && keys[0]?.type.kind === "date";
    const keyType = keys[0]?.type;
    const scaled = perDay
      ? { ...frame, lower: days(frame.lower), upper: days(frame.upper) }
      : keyType?.kind === "decimal"
        ? { ...frame, lower: unscaled(frame.lower, keyType.scale), upper: unscaled(frame.upper, keyType.scale) }
        : frame;
    const frames = frameBounds(scaled, L, keys[0] ?? null, this.orderBy[0] ?? null);
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
    const fast = numericFrames(fn.name, inputs, n, frames, L);
    if (fast) return fast;
    return frameAggregate(() => agg.create(argTypes, resultType, false, literals), inputs, n, frames, L.partition, L.partStart, L.partEnd);
  }

  describe(): string {
    // Spark's: [fn windowspecdefinition(keys, orders, frame) AS name], [partition], [order].
    const item = (e: Expr) => {
      const w = (e.kind === "alias" ? e.child : e) as WindowExpr;
      const spec = [...w.partitionBy.map(exprToSql), ...w.orderBy.map(exprToSql), frameDebugText(w)].join(", ");
      return `${exprToSql(w.fn)} windowspecdefinition(${spec})${e.kind === "alias" ? ` AS ${e.name}` : ""}`;
    };
    return `[${this.windowExprs.map(item).join(", ")}], [${this.partitionBy.map(exprToSql).join(", ")}], [${this.orderBy.map(exprToSql).join(", ")}]`;
  }
}
