/**
 * How a columnar aggregation keeps its buffers (docs/state.md): the state table's layout for
 * the aggregate calls, and one merge kernel per call that folds a batch's partial buffers into
 * the table's typed buffer columns in place, by entry id. Only aggregates with numeric buffers
 * fit (count, sum, avg, min, max, first, last, without DISTINCT); `columnarPlanOf` returns null
 * for anything else and the planner keeps the row operator.
 */
import { isWide, LONG_MAX, LONG_MIN, MAX_SAFE, widen } from "../../columnar/int64.js";
import type { Vector } from "../../columnar/vector.js";
import { longOverflow } from "../../functions/long-ops.js";
import { type ColumnarSchema, columnarSchemaOf } from "../../state/columnar/index.js";
import type { DataType } from "../../types/datatypes.js";
import type { AggregationSpec } from "../aggregation.js";

/** BIGINT/TIMESTAMP columns may be wide (columnar/int64.ts): a kernel that meets one widens the table's column in `bv`. */
type BufArray = Float64Array | Uint8Array | BigInt64Array;

/** Merge one aggregate's partial buffers (n groups) into the table's columns [col, ...) at entry ids. */
type MergeKernel = (
  ids: Int32Array,
  n: number,
  partial: readonly Vector[],
  bv: BufArray[],
  bvalid: (Uint8Array | null)[],
  col: number,
  ansi: boolean,
) => void;

/** Spark's ordering of numbers: NaN above everything, equal to itself; a bigint compares exactly. */
function compareNumbers(x: number, y: number): number {
  if (x < y) return -1;
  if (x > y) return 1;
  if (x === y) return 0;
  if (typeof x !== "number" || typeof y !== "number") return 0; // number vs bigint, equal values
  return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
}

/** Column `col` of `bv` on the wide lane, in place (the table's own array of columns). */
function widenColumn(bv: BufArray[], col: number): BigInt64Array {
  const c = bv[col]!;
  if (isWide(c)) return c;
  const w = widen(c as Float64Array);
  bv[col] = w;
  return w;
}

/**
 * sum(BIGINT) into the table: doubles while every sum stays a safe integer, then the column
 * moves to the wide lane and adds exactly; a sum past the long range is ARITHMETIC_OVERFLOW in
 * ANSI mode and wraps otherwise (long-sum.ts does the same within a batch).
 */
const longSumKernel: MergeKernel = (ids, n, partial, bv, bvalid, col, ansi) => {
  const s = partial[0]!;
  const sv = s.values as Float64Array | BigInt64Array;
  const sValid = s.validity;
  const cv = partial[1]!.values as Float64Array;
  const seen = bvalid[col]!;
  const counts = bv[col + 1] as Float64Array;
  let i = 0;
  const sums = bv[col]!;
  if (!isWide(sums) && !isWide(sv)) {
    for (; i < n; i++) {
      if (sValid !== null && sValid[i] === 0) continue;
      const e = ids[i]!;
      const r = sums[e]! + sv[i]!;
      if (!(r <= MAX_SAFE && r >= -MAX_SAFE)) break;
      sums[e] = r;
      counts[e]! += cv[i]!;
      seen[e] = 1;
    }
    if (i === n) return;
  }
  const wide = widenColumn(bv, col);
  for (; i < n; i++) {
    if (sValid !== null && sValid[i] === 0) continue;
    const e = ids[i]!;
    let r = wide[e]! + (isWide(sv) ? sv[i]! : BigInt(sv[i]!));
    if (r > LONG_MAX || r < LONG_MIN) {
      if (ansi) throw longOverflow("add");
      r = BigInt.asIntN(64, r);
    }
    wide[e] = r;
    counts[e]! += cv[i]!;
    seen[e] = 1;
  }
};

const countKernel: MergeKernel = (ids, n, partial, bv, _bvalid, col) => {
  const p = partial[0]!.values as Float64Array;
  const dst = bv[col] as Float64Array;
  for (let i = 0; i < n; i++) dst[ids[i]!]! += p[i]!;
};

const sumKernel: MergeKernel = (ids, n, partial, bv, bvalid, col) => {
  const s = partial[0]!;
  const sv = s.values as Float64Array;
  const sValid = s.validity;
  const cv = partial[1]!.values as Float64Array;
  const sums = bv[col] as Float64Array;
  const seen = bvalid[col]!;
  const counts = bv[col + 1] as Float64Array;
  for (let i = 0; i < n; i++) {
    if (sValid !== null && sValid[i] === 0) continue;
    const e = ids[i]!;
    sums[e]! += sv[i]!;
    counts[e]! += cv[i]!;
    seen[e] = 1;
  }
};

/** min / max / first / last: buffers [value, set]; `better(x, cur)` decides whether x replaces cur. */
function pickKernel(better: ((x: number, cur: number) => boolean) | "always" | "never", skipNulls: boolean): MergeKernel {
  return (ids, n, partial, bv, bvalid, col) => {
    const pv = partial[0]!.values as Float64Array | Int32Array | Uint8Array;
    const pValid = partial[0]!.validity;
    const ps = partial[1]!.values as Uint8Array;
    // one lane kind on both sides (columnar/int64.ts): a wide partial widens the column
    if (isWide(pv)) widenColumn(bv, col);
    const vals = bv[col]! as Float64Array;
    const toCol = isWide(vals) && !isWide(pv) ? (x: number) => BigInt(x) as unknown as number : (x: number) => x;
    const valid = bvalid[col]!;
    const set = bv[col + 1] as Uint8Array;
    for (let i = 0; i < n; i++) {
      if (ps[i] !== 1) continue;
      const isNull = pValid !== null && pValid[i] === 0;
      if (isNull && skipNulls) continue;
      const e = ids[i]!;
      let take = set[e] === 0;
      if (!take) {
        if (better === "always") take = true;
        else if (better !== "never") take = !isNull && valid[e] === 1 && better(pv[i]!, vals[e]!);
      }
      if (!take) continue;
      vals[e] = toCol(isNull ? 0 : pv[i]!);
      valid[e] = isNull ? 0 : 1;
      set[e] = 1;
    }
  };
}

export interface ColumnarPlan {
  readonly schema: ColumnarSchema;
  readonly kernels: readonly MergeKernel[];
  /** First buffer column of each aggregate. */
  readonly offsets: readonly number[];
}

/** The columnar layout and merge kernels of an aggregation, or null when it does not fit. */
export function columnarPlanOf(spec: AggregationSpec): ColumnarPlan | null {
  const kernels: MergeKernel[] = [];
  const buffers: { type: DataType; nullable: boolean }[] = [];
  const offsets: number[] = [];
  const bufferTypes = spec.bufferTypes();
  for (let i = 0; i < spec.aggCalls.length; i++) {
    const c = spec.aggCalls[i]!;
    if (c.call.distinct) return null;
    const types = bufferTypes[i]!;
    let kernel: MergeKernel;
    let nullable: boolean[];
    switch (c.fn.name) {
      case "count":
        kernel = countKernel;
        nullable = [false];
        break;
      case "sum":
      case "avg":
        kernel = c.fn.name === "sum" && types[0]!.kind === "bigint" ? longSumKernel : sumKernel;
        nullable = [true, false];
        break;
      case "min":
        kernel = pickKernel((x, cur) => compareNumbers(x, cur) < 0, true);
        nullable = [true, false];
        break;
      case "max":
        kernel = pickKernel((x, cur) => compareNumbers(x, cur) > 0, true);
        nullable = [true, false];
        break;
      case "first":
      case "last": {
        const ignoreNulls = c.literals[1] === true || c.literals[1] === 1;
        kernel = pickKernel(c.fn.name === "first" ? "never" : "always", ignoreNulls);
        nullable = [true, false];
        break;
      }
      default:
        return null;
    }
    if (types.length !== nullable.length) return null;
    offsets.push(buffers.length);
    for (let k = 0; k < types.length; k++) buffers.push({ type: types[k]!, nullable: nullable[k]! });
    kernels.push(kernel);
  }
  const schema = columnarSchemaOf(
    spec.groupAttrs.map((a) => a.type),
    buffers,
  );
  return schema ? { schema, kernels, offsets } : null;
}
