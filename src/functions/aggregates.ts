/**
 * Aggregate functions as columnar accumulators: each keeps one typed-array slot per group and
 * folds whole vectors at a time (`update` for raw rows, `merge` for partial buffers, which
 * the streaming state store and partial/final aggregation both use).
 */
import { isWide } from "../columnar/int64.js";
import { utf8Of, utf8String } from "../columnar/utf8.js";
import { getValue, makeVector, take, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { compareStrings, compareUtf16, hasHighUnit } from "../common/string-order.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, BooleanType, type DataType, DoubleType, isIntegral, isNumeric, LongType } from "../types/datatypes.js";
import { DecimalSumAcc, decimalAvgType, decimalSumType } from "./decimal-aggregates.js";
import { growF64, growU8 } from "./kernel-util.js";
import { LongSumAcc } from "./long-sum.js";
import { compareValues } from "./predicates.js";
import {
  type Accumulator,
  type AggregateFunction,
  castTo,
  checkArity,
  type Resolved,
  register,
  registerAlias,
  typeMismatch,
} from "./registry.js";

function allValid(input: readonly Vector[], i: number): boolean {
  for (const v of input) if (v.validity !== null && v.validity[i] === 0) return false;
  return true;
}

// ---------------------------------------------------------------- count

class CountAcc implements Accumulator {
  counts: Float64Array = new Float64Array(16);
  constructor(private readonly countStar: boolean) {}
  resize(n: number): void {
    this.counts = growF64(this.counts, n);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const c = this.counts;
    if (this.countStar || input.every((v) => v.validity === null)) {
      for (let i = 0; i < n; i++) c[g[i]!]!++;
    } else {
      for (let i = 0; i < n; i++) if (allValid(input, i)) c[g[i]!]!++;
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const b = buffers[0]!.values as Float64Array;
    const c = this.counts;
    for (let i = 0; i < n; i++) c[g[i]!]! += b[i]!;
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n)];
  }
  evaluate(n: number): Vector {
    return makeVector(LongType, this.counts.slice(0, n), null, n);
  }
}

/** Exact distinct values per group (count(DISTINCT), approx_count_distinct, collect_set). */
class DistinctSetAcc implements Accumulator {
  sets: Map<string, unknown>[] = [];
  constructor(
    private readonly elementType: DataType,
    private readonly finish: (values: unknown[]) => unknown,
    private readonly resultType: DataType,
  ) {}
  resize(n: number): void {
    while (this.sets.length < n) this.sets.push(new Map());
  }
  private add(gid: number, v: unknown): void {
    const key =
      typeof v === "string" ? `s${v}` : typeof v === "number" ? `n${v}` : typeof v === "bigint" ? `n${v}` : JSON.stringify(v, bigintText);
    this.sets[gid]!.set(key, v);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    for (let i = 0; i < n; i++) if (allValid(input, i)) this.add(g[i]!, getValue(v, i));
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const b = buffers[0]!;
    for (let i = 0; i < n; i++) for (const x of (getValue(b, i) as unknown[] | null) ?? []) this.add(g[i]!, x);
  }
  buffers(n: number): Vector[] {
    return [
      vectorFromValues(
        ArrayOf(this.elementType),
        this.sets.slice(0, n).map((s) => [...s.values()]),
      ),
    ];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(
      this.resultType,
      this.sets.slice(0, n).map((s) => this.finish([...s.values()])),
    );
  }
}

/** JSON has no form for a BIGINT beyond ±2^53 − 1 (a bigint); distinct keys take its digits. */
function bigintText(_k: string, x: unknown): unknown {
  return typeof x === "bigint" ? `${x}n` : x;
}

// ---------------------------------------------------------------- sum / avg

class SumAcc implements Accumulator {
  sums: Float64Array = new Float64Array(16);
  seen: Uint8Array = new Uint8Array(16);
  counts: Float64Array = new Float64Array(16);
  constructor(
    private readonly resultType: DataType,
    private readonly average: boolean,
  ) {}
  resize(n: number): void {
    this.sums = growF64(this.sums, n);
    this.seen = growU8(this.seen, n);
    this.counts = growF64(this.counts, n);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    // avg(BIGINT) sums in doubles, as Spark's Average does; a wide lane (columnar/int64.ts) converts.
    const x = isWide(v.values) ? Float64Array.from(v.values, Number) : (v.values as Float64Array);
    const { sums, seen, counts } = this;
    const valid = v.validity;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const gid = g[i]!;
      sums[gid]! += x[i]!;
      seen[gid] = 1;
      counts[gid]!++;
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const [s, c] = buffers as [Vector, Vector];
    const sv = s.values as Float64Array;
    const cv = c.values as Float64Array;
    for (let i = 0; i < n; i++) {
      if (s.validity !== null && s.validity[i] === 0) continue;
      const gid = g[i]!;
      this.sums[gid]! += sv[i]!;
      this.counts[gid]! += cv[i]!;
      this.seen[gid] = 1;
    }
  }
  buffers(n: number): Vector[] {
    const validity = this.seen.slice(0, n);
    return [
      makeVector(this.average ? DoubleType : this.resultType, this.sums.slice(0, n), validity, n),
      makeVector(LongType, this.counts.slice(0, n), null, n),
    ];
  }
  evaluate(n: number): Vector {
    const validity = this.seen.slice(0, n);
    if (!this.average) return makeVector(this.resultType, this.sums.slice(0, n), validity, n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = this.sums[i]! / this.counts[i]!;
    return makeVector(DoubleType, out, validity, n);
  }
}

// ---------------------------------------------------------------- min / max / first / last

class PickAcc implements Accumulator {
  values: unknown[] = [];
  set: Uint8Array = new Uint8Array(16);
  /** min/max of strings: the group's value holds a UTF-16 unit >= 0xD800 (common/string-order.ts). */
  private high: Uint8Array = new Uint8Array(16);
  constructor(
    private readonly type: DataType,
    /** Should candidate x replace the current value? */
    private readonly better: (x: unknown, cur: unknown) => boolean,
    private readonly skipNulls: boolean,
    /** min (-1) / max (1): `better` is "compares lower / higher", so struct rows can be ranked in place. */
    private readonly order: -1 | 0 | 1 = 0,
  ) {}
  resize(n: number): void {
    this.set = growU8(this.set, n);
    if (this.order !== 0 && this.type.kind === "string") this.high = growU8(this.high, n);
    while (this.values.length < n) this.values.push(null);
  }
  private offer(gid: number, x: unknown): void {
    if (x === null && this.skipNulls) return;
    if (this.set[gid] === 0 || this.better(x, this.values[gid])) {
      this.values[gid] = x;
      this.set[gid] = 1;
    }
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    if (this.order !== 0 && v.children) {
      this.updateStructs(g, n, v);
      return;
    }
    if (this.order !== 0 && this.type.kind === "string") {
      this.offerStrings(g, n, v, null);
      return;
    }
    const numeric = !Array.isArray(v.values) && !v.children;
    for (let i = 0; i < n; i++) {
      const x = numeric ? (v.validity !== null && v.validity[i] === 0 ? null : v.values[i]) : getValue(v, i);
      this.offer(g[i]!, x);
    }
  }
  /**
   * min/max of a struct column: each group's best row of the batch is found by comparing the
   * rows in the vectors, and only that row becomes an object (a struct value per input row was
   * most of max(struct(...))'s cost). Ties keep the earliest row, as offering rows in order does.
   */
  private updateStructs(g: Int32Array, n: number, v: Vector): void {
    const best = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      if (v.validity !== null && v.validity[i] === 0) continue; // min/max skip NULLs
      const gid = g[i]!;
      const b = best.get(gid);
      if (b === undefined || compareRowsAt(v, i, b) * this.order > 0) best.set(gid, i);
    }
    // The winners gathered first: reading them in `v` itself would decode every row of its
    // UTF-8 string fields (columnar/utf8.ts) for a handful of winners (q7: 2 of 230 000).
    const winners = take(v, Int32Array.from(best.values()));
    let k = 0;
    for (const gid of best.keys()) this.offer(gid, getValue(winners, k++));
  }
  /**
   * min/max of strings by code point (Spark's UTF8_BINARY). JS's native order is exact against
   * a group value with no UTF-16 unit >= 0xD800, which is asked once per new value, not per row.
   */
  private offerStrings(g: Int32Array, n: number, v: Vector, present: Uint8Array | null): void {
    const vals = v.values as string[];
    const { set, high, values } = this;
    for (let i = 0; i < n; i++) {
      if ((present !== null && present[i] !== 1) || (v.validity !== null && v.validity[i] === 0)) continue;
      const gid = g[i]!;
      const x = vals[i]!;
      if (set[gid] === 1) {
        const cur = values[gid] as string;
        if ((high[gid] === 1 ? compareStrings(x, cur) : compareUtf16(x, cur)) * this.order <= 0) continue;
      }
      values[gid] = x;
      set[gid] = 1;
      high[gid] = hasHighUnit(x) ? 1 : 0;
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    const [v, s] = buffers as [Vector, Vector];
    const sv = s.values as Uint8Array;
    if (this.order !== 0 && this.type.kind === "string") {
      this.offerStrings(g, n, v, sv);
      return;
    }
    for (let i = 0; i < n; i++) if (sv[i] === 1) this.offer(g[i]!, getValue(v, i));
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n), makeVector(BooleanType, this.set.slice(0, n), null, n)];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(this.type, this.values.slice(0, n));
  }
}

/** compareValues(getValue(v, i), getValue(v, j)) for non-null struct rows, without building them. */
function compareRowsAt(v: Vector, i: number, j: number): number {
  for (const c of v.children!) {
    const vi = c.validity === null || c.validity[i] === 1;
    const vj = c.validity === null || c.validity[j] === 1;
    if (!vi || !vj) {
      if (vi !== vj) return vi ? 1 : -1; // NULL first
      continue;
    }
    const r = c.children ? compareRowsAt(c, i, j) : compareLeaves(c, i, j);
    if (r !== 0) return r;
  }
  return 0;
}

/** compareValues of two non-null rows of a leaf vector; a UTF-8 string leaf decodes just those two. */
function compareLeaves(c: Vector, i: number, j: number): number {
  const u = utf8Of(c);
  if (u !== undefined) return compareValues(utf8String(u, i), utf8String(u, j));
  return compareValues(c.values[i], c.values[j]);
}

class CollectListAcc implements Accumulator {
  lists: unknown[][] = [];
  constructor(private readonly type: DataType) {}
  resize(n: number): void {
    while (this.lists.length < n) this.lists.push([]);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const v = input[0]!;
    for (let i = 0; i < n; i++) if (allValid(input, i)) this.lists[g[i]!]!.push(getValue(v, i));
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) this.lists[g[i]!]!.push(...((getValue(buffers[0]!, i) as unknown[] | null) ?? []));
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n)];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(this.type, this.lists.slice(0, n));
  }
}

// ---------------------------------------------------------------- definitions

function oneArg(name: string, args: readonly Expr[]): void {
  checkArity(name, args, 1);
}

function distinctUnsupported(name: string, call: Expr): AnalysisException {
  return new AnalysisException("DISTINCT_UNSUPPORTED", `DISTINCT is not supported for ${name} in "${exprToSql(call)}".`);
}

const count: AggregateFunction = {
  kind: "aggregate",
  name: "count",
  resolve(args) {
    checkArity("count", args, 1, Infinity);
    return { args, type: LongType };
  },
  bufferTypes: (types, distinct) => (distinct ? [ArrayOf(types[0]!)] : [LongType]),
  create(types, _r, distinct) {
    if (distinct) return new DistinctSetAcc(types[0]!, (v) => v.length, LongType);
    return new CountAcc(types.length === 1 && types[0]!.kind === "null");
  },
};

function sumLike(name: string, average: boolean): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call, distinct): Resolved {
      oneArg(name, args);
      if (distinct) throw distinctUnsupported(name, call);
      let t = types[0]!;
      if (t.kind === "string" || t.kind === "null") t = DoubleType;
      if (!isNumeric(t)) throw typeMismatch(call, 0, '"NUMERIC" or "ANSI INTERVAL"', args[0]!, types[0]!);
      if (t.kind === "decimal") return { args: [args[0]!], type: average ? decimalAvgType(t) : decimalSumType(t) };
      // Spark sums every integral type as BIGINT and FLOAT as DOUBLE.
      const inType = isIntegral(t) ? LongType : t.kind === "float" ? DoubleType : t;
      return { args: [castTo(args[0]!, types[0]!, inType)], type: average ? DoubleType : inType };
    },
    bufferTypes: (types) => [types[0]!.kind === "decimal" ? decimalSumType(types[0]!) : average ? DoubleType : types[0]!, LongType],
    create: (types, resultType, _d, _l, mode) =>
      types[0]!.kind === "decimal"
        ? new DecimalSumAcc(types[0]!, average, mode)
        : !average && resultType.kind === "bigint"
          ? new LongSumAcc(resultType, mode ?? { ansi: true })
          : new SumAcc(resultType, average),
  };
}

function pick(name: string, better: (x: unknown, cur: unknown) => boolean, orderable: boolean, order: -1 | 0 | 1 = 0): AggregateFunction {
  const skipNulls = orderable;
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1, 2);
      const t = types[0]!;
      if (orderable && t.kind === "map") throw typeMismatch(call, 0, '"ORDERABLE"', args[0]!, t);
      return { args, type: t };
    },
    bufferTypes: (types) => [types[0]!, BooleanType],
    create: (types) => new PickAcc(types[0]!, better, skipNulls, order),
  };
}

function firstLast(name: string, isFirst: boolean): AggregateFunction {
  const base = pick(name, isFirst ? () => false : () => true, false);
  return {
    ...base,
    resolve(args, types, call, distinct) {
      const r = base.resolve(args, types, call, distinct);
      if (args[1] && (args[1].kind !== "literal" || types[1]!.kind !== "boolean")) {
        throw typeMismatch(call, 1, '"BOOLEAN"', args[1], types[1]!);
      }
      return r;
    },
    // first(x, true) / last(x, true) skip NULLs.
    create: (types, _r, _d, literals) =>
      new PickAcc(types[0]!, isFirst ? () => false : () => true, literals[1] === true || literals[1] === 1),
  };
}

function collect(name: string, set: boolean): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types) {
      oneArg(name, args);
      return { args, type: ArrayOf(types[0]!, false) };
    },
    bufferTypes: (types) => [ArrayOf(types[0]!)],
    create(types, resultType) {
      return set ? new DistinctSetAcc(types[0]!, (v) => v, resultType) : new CollectListAcc(resultType);
    },
  };
}

const approxCountDistinct: AggregateFunction = {
  kind: "aggregate",
  name: "approx_count_distinct",
  resolve(args) {
    checkArity("approx_count_distinct", args, 1, 2);
    return { args: [args[0]!], type: LongType };
  },
  bufferTypes: (types) => [ArrayOf(types[0]!)],
  // Exact counting: every answer is within any rsd the user asks for.
  create: (types) => new DistinctSetAcc(types[0]!, (v) => v.length, LongType),
};

register(
  count,
  sumLike("sum", false),
  sumLike("avg", true),
  pick("min", (x, cur) => x !== null && compareValues(x, cur) < 0, true, -1),
  pick("max", (x, cur) => x !== null && compareValues(x, cur) > 0, true, 1),
  firstLast("first", true),
  firstLast("last", false),
  collect("collect_list", false),
  collect("collect_set", true),
  approxCountDistinct,
);
registerAlias("mean", "avg");
registerAlias("first_value", "first");
registerAlias("last_value", "last");
