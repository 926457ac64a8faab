/**
 * Spark 4.2's vector functions over ARRAY<FLOAT> embeddings: vector_inner_product,
 * vector_l2_distance, vector_cosine_similarity, vector_norm(v[, degree]) and
 * vector_normalize(v[, degree]). As Spark: the arguments must be ARRAY<FLOAT> and the degree a
 * FLOAT (no implicit casts), the sums run in double and the result is rounded to FLOAT once; a
 * NULL vector, element or degree gives NULL; vectors of different lengths fail
 * (VECTOR_DIMENSION_MISMATCH), a degree other than 1, 2 or infinity too
 * (INVALID_VECTOR_NORM_DEGREE); a zero vector has no cosine and no direction (NULL).
 */
import { getValue, makeVector, type Vector, vectorFromValues } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import { javaFloatToString } from "../common/show.js";
import { type Expr, literal } from "../plan/expressions.js";
import { ArrayOf, type DataType, FloatType } from "../types/datatypes.js";
import { checkArity, register, type ScalarFunction, typeMismatch } from "./registry.js";

export const FLOAT_VECTOR = ArrayOf(FloatType);

export function isFloatVector(t: DataType): boolean {
  return t.kind === "array" && t.elementType.kind === "float";
}

/** The arguments' types checked: `vectors` ARRAY<FLOAT> arguments, then an optional FLOAT. */
function checkTypes(call: Expr, args: readonly Expr[], types: readonly DataType[], vectors: number): void {
  for (let i = 0; i < args.length; i++) {
    if (i < vectors ? !isFloatVector(types[i]!) : types[i]!.kind !== "float") {
      throw typeMismatch(call, i, i < vectors ? '"ARRAY<FLOAT>"' : '"FLOAT"', args[i]!, types[i]!);
    }
  }
}

export function dimensionMismatch(fn: string, a: number, b: number): ArusError {
  return new ArusError(
    "VECTOR_DIMENSION_MISMATCH",
    `[VECTOR_DIMENSION_MISMATCH] Vectors passed to \`${fn}\` must have the same dimension, but got ${a} and ${b}. SQLSTATE: 22000`,
  );
}

/** A vector's elements as numbers, or null when one is NULL (vector-aggregates.ts too). */
export function elements(v: unknown): number[] | null {
  if (v === null) return null;
  const a = v as (number | null)[];
  for (const x of a) if (x === null) return null;
  return a as number[];
}

/** A function of two vectors of one length: `f` folds them in double, the result rounded to FLOAT. */
function pairwise(name: string, f: (a: number[], b: number[]) => number | null): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      checkTypes(call, args, types, 2);
      return { args, type: FloatType };
    },
    kernel: (args, n) =>
      floatRows(n, (i) => {
        const a = elements(getValue(args[0]!, i));
        const b = elements(getValue(args[1]!, i));
        if (a === null || b === null) return null;
        if (a.length !== b.length) throw dimensionMismatch(name, a.length, b.length);
        return f(a, b);
      }),
  };
}

/** A FLOAT column of `value(i)` rounded to FLOAT, NULL where it is null (NaN stays NaN, as Spark's). */
function floatRows(n: number, value: (i: number) => number | null): Vector {
  const out = new Float64Array(n);
  let validity: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const r = value(i);
    if (r === null) (validity ??= new Uint8Array(n).fill(1))[i] = 0;
    else out[i] = Math.fround(r);
  }
  return makeVector(FloatType, out, validity, n);
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function l2Distance(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    s += d * d;
  }
  return Math.sqrt(s);
}

function cosine(a: number[], b: number[]): number | null {
  const na = Math.sqrt(dot(a, a));
  const nb = Math.sqrt(dot(b, b));
  return na === 0 || nb === 0 ? null : dot(a, b) / (na * nb);
}

/** The Lp norm in double for degree 1, 2 or infinity. */
function norm(a: number[], degree: number): number {
  let s = 0;
  if (degree === 1) for (const x of a) s += Math.abs(x);
  else if (degree === 2) s = Math.sqrt(dot(a, a));
  else for (const x of a) s = Math.max(s, Math.abs(x));
  return s;
}

function checkDegree(name: string, degree: number): void {
  if (degree !== 1 && degree !== 2 && degree !== Number.POSITIVE_INFINITY) {
    throw new ArusError(
      "INVALID_VECTOR_NORM_DEGREE",
      `[INVALID_VECTOR_NORM_DEGREE] For the \`${name}\` function, degree must be 1.0, 2.0, or float('inf'), but got ${javaFloatToString(degree)}. SQLSTATE: 22023`,
    );
  }
}

/**
 * vector_norm / vector_normalize: the degree defaults to 2.0 (and shows in the call's SQL text,
 * as Spark's); `column` lays out each row's value (NULL for a NULL vector, element or degree).
 */
function withDegree<T>(
  name: string,
  type: DataType,
  f: (a: number[], degree: number) => T | null,
  column: (n: number, value: (i: number) => T | null) => Vector,
): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1, 2);
      const all = args.length === 2 ? args : [...args, literal(2, FloatType)];
      checkTypes(call, all, args.length === 2 ? types : [...types, FloatType], 1);
      return { args: all, type };
    },
    kernel: (args, n) =>
      column(n, (i) => {
        const a = elements(getValue(args[0]!, i));
        const d = getValue(args[1]!, i) as number | null;
        if (a === null || d === null) return null;
        checkDegree(name, d);
        return f(a, d);
      }),
  };
}

function normalized(a: number[], degree: number): number[] | null {
  if (a.length === 0) return [];
  const s = norm(a, degree);
  return s === 0 ? null : a.map((x) => Math.fround(x / s));
}

register(
  pairwise("vector_inner_product", dot),
  pairwise("vector_l2_distance", l2Distance),
  pairwise("vector_cosine_similarity", cosine),
  withDegree("vector_norm", FloatType, norm, floatRows),
  withDegree("vector_normalize", FLOAT_VECTOR, normalized, (n, value) =>
    vectorFromValues(
      FLOAT_VECTOR,
      Array.from({ length: n }, (_, i) => value(i)),
    ),
  ),
);
