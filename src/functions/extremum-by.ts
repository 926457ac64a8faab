/**
 * max_by(x, ord) / min_by(x, ord): the x of the row with the largest (smallest) ord. Rows with a
 * NULL ord are skipped; x itself may be NULL. As Spark's MaxMinBy, the current pick stays only
 * when its ord is strictly better, so among ties the last row seen wins. The buffer
 * is (x, ord) as Spark's; a NULL ord in it means the group has no pick yet.
 *
 * max_by(x, ord, k) / min_by(x, ord, k) (Spark 4.2): the x of the k rows with the largest
 * (smallest) ords, best first, as an array; NULL for a group without a row with an ord. k is a
 * constant in [1, 100000]; among equal ords the row seen first stays first (Spark: either order).
 * The buffer is the picks' xs and ords as two arrays, best first.
 */
import "./aggregates.js"; // registers the functions aliased below
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { anyExpr, type Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, type DataType, IntegerType, sqlTypeName } from "../types/datatypes.js";
import { compareValues } from "./predicates.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register, registerAlias, typeMismatch } from "./registry.js";

class ExtremumByAcc implements Accumulator {
  values: unknown[] = [];
  ords: unknown[] = [];
  constructor(
    private readonly valueType: DataType,
    private readonly ordType: DataType,
    /** 1 for max_by, -1 for min_by. */
    private readonly sign: 1 | -1,
  ) {}
  resize(n: number): void {
    while (this.values.length < n) {
      this.values.push(null);
      this.ords.push(null);
    }
  }
  private offer(g: Int32Array, n: number, x: Vector, ord: Vector): void {
    for (let i = 0; i < n; i++) {
      if (ord.validity !== null && ord.validity[i] === 0) continue;
      const gid = g[i]!;
      const o = getValue(ord, i);
      const cur = this.ords[gid];
      if (cur === null || this.sign * compareValues(o, cur) >= 0) {
        this.ords[gid] = o;
        this.values[gid] = getValue(x, i);
      }
    }
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    this.offer(g, n, input[0]!, input[1]!);
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    this.offer(g, n, buffers[0]!, buffers[1]!);
  }
  buffers(n: number): Vector[] {
    return [this.evaluate(n), vectorFromValues(this.ordType, this.ords.slice(0, n))];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(this.valueType, this.values.slice(0, n));
  }
}

/** The k best (x, ord) pairs of each group, best first; among equal ords the first seen stays first. */
class TopByAcc implements Accumulator {
  values: unknown[][] = [];
  ords: unknown[][] = [];
  constructor(
    private readonly valueType: DataType,
    private readonly ordType: DataType,
    private readonly sign: 1 | -1,
    private readonly k: number,
  ) {}
  resize(n: number): void {
    while (this.values.length < n) {
      this.values.push([]);
      this.ords.push([]);
    }
  }
  /** Puts (x, o) after the picks at least as good as o, keeping k. */
  private offerOne(gid: number, x: unknown, o: unknown): void {
    const ords = this.ords[gid]!;
    const values = this.values[gid]!;
    let lo = 0;
    let hi = ords.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sign * compareValues(ords[mid], o) >= 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.k) return;
    ords.splice(lo, 0, o);
    values.splice(lo, 0, x);
    if (ords.length > this.k) {
      ords.pop();
      values.pop();
    }
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const [x, ord] = input as [Vector, Vector];
    for (let i = 0; i < n; i++) if (ord.validity === null || ord.validity[i] === 1) this.offerOne(g[i]!, getValue(x, i), getValue(ord, i));
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) {
      const xs = getValue(buffers[0]!, i) as unknown[] | null;
      const os = getValue(buffers[1]!, i) as unknown[] | null;
      if (xs === null || os === null) continue;
      for (let j = 0; j < os.length; j++) this.offerOne(g[i]!, xs[j], os[j]);
    }
  }
  buffers(n: number): Vector[] {
    return [
      vectorFromValues(ArrayOf(this.valueType), this.values.slice(0, n)),
      vectorFromValues(ArrayOf(this.ordType), this.ords.slice(0, n)),
    ];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(
      ArrayOf(this.valueType),
      this.values.slice(0, n).map((v) => (v.length === 0 ? null : v)),
    );
  }
}

const MAX_K = 100_000;

/** `k` of max_by(x, ord, k): a constant INT, checked in [1, 100000] when it is a literal already (else at `create`). */
function checkK(call: Expr, arg: Expr, type: DataType): Expr {
  if (anyExpr(arg, (e) => e.kind === "attribute" || e.kind === "column")) {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
      `[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve "${exprToSql(call)}" due to data type mismatch: the input k should be a foldable int expression; however, got ${exprToSql(arg)}.`,
    );
  }
  if (type.kind === "map" || type.kind === "array" || type.kind === "struct" || type.kind === "boolean" || type.kind === "binary") {
    throw typeMismatch(call, 2, '"INT"', arg, type);
  }
  const k = castTo(arg, type, IntegerType);
  const literal = k.kind === "literal" ? k : k.kind === "cast" && k.child.kind === "literal" ? k.child : null;
  if (literal !== null) kValue(call, literal.value);
  return k;
}

/** The value of k (NULL reads 0, as Spark's message says), refused outside [1, 100000]. */
function kValue(call: Expr | string, raw: unknown): number {
  const k = raw === null || raw === undefined ? 0 : Math.trunc(Number(raw));
  if (!(k >= 1 && k <= MAX_K)) {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
      `[DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE] Cannot resolve "${typeof call === "string" ? call : exprToSql(call)}" due to data type mismatch: The \`k\` must be between [1, ${MAX_K}] (current value = ${Number.isNaN(k) ? 0 : k}).`,
    );
  }
  return k;
}

function extremumBy(name: string, sign: 1 | -1): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      if (args.length !== 3) checkArity(name, args, 2);
      if (types[1]!.kind === "map") {
        throw new AnalysisException(
          "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
          `[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The \`${name}\` does not support ordering on type "${sqlTypeName(types[1]!)}".`,
        );
      }
      if (args.length === 2) return { args, type: types[0]! };
      return { args: [args[0]!, args[1]!, checkK(call, args[2]!, types[2]!)], type: ArrayOf(types[0]!) };
    },
    bufferTypes: (types) => (types.length === 3 ? [ArrayOf(types[0]!), ArrayOf(types[1]!)] : [types[0]!, types[1]!]),
    create: (types, _result, _distinct, literals) =>
      types.length === 3
        ? new TopByAcc(types[0]!, types[1]!, sign, kValue(`${name}(..., ${String(literals[2])})`, literals[2]))
        : new ExtremumByAcc(types[0]!, types[1]!, sign),
  };
}

register(extremumBy("max_by", 1), extremumBy("min_by", -1));
registerAlias("any_value", "first");
