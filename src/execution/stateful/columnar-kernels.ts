/**
 * How a columnar aggregation keeps its buffers (docs/state.md): the state table's layout for
 * the aggregate calls, and one merge kernel per call that folds a batch's partial buffers into
 * the table's typed buffer columns in place, by entry id. Only aggregates with numeric buffers
 * fit (count, sum, avg, min, max, first, last, without DISTINCT), and min / max of a struct of
 * numeric fields (`max(struct(num, auction))`: one column per field, columnar-struct-kernel.ts);
 * `columnarPlanOf` returns null for anything else and the planner keeps the row operator.
 */
import { isWide, LONG_MAX, LONG_MIN, MAX_SAFE } from "../../columnar/int64.js";
import { makeVector, type Vector } from "../../columnar/vector.js";
import { longOverflow } from "../../functions/long-ops.js";
import { type ColumnarSchema, columnarSchemaOf } from "../../state/columnar/index.js";
import { BooleanType, type DataType, type StructType } from "../../types/datatypes.js";
import type { AggregationSpec } from "../aggregation.js";
import { structFieldsFit, structPickKernel } from "./columnar-struct-kernel.js";
import { compareNumbers, laneValue, type MergeKernel, widenColumn } from "./merge-kernel.js";

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
      vals[e] = laneValue(vals, isNull ? 0 : pv[i]!);
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
  /** How many buffer columns each aggregate has. */
  readonly widths: readonly number[];
  /** Per aggregate, the struct a min / max keeps as one column per field (then its `set` column), else null. */
  readonly structs: readonly (StructType | null)[];
}

export interface ColumnarPlanOptions {
  /**
   * min / max of a struct of numeric fields in the table (`arus.state.aggregation.columnarStructs`,
   * sticky: a checkpoint from before it keeps such an aggregation in the row store).
   */
  readonly structBuffers?: boolean;
}

/**
 * Aggregate `i`'s buffers as its accumulator merges them, from the table's buffer columns
 * (`bufs`, every column, `n` rows): a struct min / max gets its struct back from the field
 * columns, NULL where no value was set.
 */
export function aggregateBuffers(plan: ColumnarPlan, i: number, bufs: readonly Vector[], n: number): Vector[] {
  const off = plan.offsets[i]!;
  const width = plan.widths[i]!;
  const struct = plan.structs[i];
  if (!struct) return bufs.slice(off, off + width);
  const set = bufs[off + width - 1]!;
  const fields = bufs.slice(off, off + width - 1);
  return [makeVector(struct, [], (set.values as Uint8Array).slice(0, n), n, fields), set];
}

/** The columnar layout and merge kernels of an aggregation, or null when it does not fit. */
export function columnarPlanOf(spec: AggregationSpec, options: ColumnarPlanOptions = {}): ColumnarPlan | null {
  const kernels: MergeKernel[] = [];
  const buffers: { type: DataType; nullable: boolean }[] = [];
  const offsets: number[] = [];
  const widths: number[] = [];
  const structs: (StructType | null)[] = [];
  const bufferTypes = spec.bufferTypes();
  for (let i = 0; i < spec.aggCalls.length; i++) {
    const c = spec.aggCalls[i]!;
    if (c.call.distinct) return null;
    const types = bufferTypes[i]!;
    const value = types[0];
    if ((c.fn.name === "min" || c.fn.name === "max") && value?.kind === "struct") {
      if (!options.structBuffers || !structFieldsFit(value)) return null;
      offsets.push(buffers.length);
      for (const f of value.fields) buffers.push({ type: f.type, nullable: true });
      buffers.push({ type: BooleanType, nullable: false });
      widths.push(value.fields.length + 1);
      structs.push(value);
      kernels.push(structPickKernel(value.fields.length, c.fn.name === "max" ? 1 : -1));
      continue;
    }
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
    widths.push(types.length);
    structs.push(null);
    kernels.push(kernel);
  }
  const schema = columnarSchemaOf(
    spec.groupAttrs.map((a) => a.type),
    buffers,
  );
  return schema ? { schema, kernels, offsets, widths, structs } : null;
}
