/**
 * How a columnar aggregation keeps its buffers (docs/state.md): the state table's layout for
 * the aggregate calls, and one merge kernel per call that folds a batch's partial buffers into
 * the table's typed buffer columns in place, by entry id. Only aggregates with numeric buffers
 * fit (count, sum, avg, min, max, first, last, without DISTINCT); `columnarPlanOf` returns null
 * for anything else and the planner keeps the row operator.
 */
import type { Vector } from "../../columnar/vector.js";
import { type ColumnarSchema, columnarSchemaOf } from "../../state/columnar/index.js";
import type { DataType } from "../../types/datatypes.js";
import type { AggregationSpec } from "../aggregation.js";

type BufArray = Float64Array | Uint8Array;

/** Merge one aggregate's partial buffers (n groups) into the table's columns [col, ...) at entry ids. */
type MergeKernel = (
  ids: Int32Array,
  n: number,
  partial: readonly Vector[],
  bv: BufArray[],
  bvalid: (Uint8Array | null)[],
  col: number,
) => void;

/** Spark's ordering of numbers: NaN above everything, equal to itself. */
function compareNumbers(x: number, y: number): number {
  if (x < y) return -1;
  if (x > y) return 1;
  if (x === y) return 0;
  return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
}

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
    const vals = bv[col]!;
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
      vals[e] = isNull ? 0 : pv[i]!;
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
        kernel = sumKernel;
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
