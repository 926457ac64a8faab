/**
 * Evaluation of the higher-order array functions (functions/higher-order.ts). A lambda's body
 * is compiled once, like any expression, against the batch's columns plus its variables; at run
 * time it is evaluated once per call over *all* elements of the batch's arrays together: the
 * elements become one column, each outer column the body reads is repeated for its row's
 * elements (a `take` by parent row), and the body's one result vector is cut back into rows.
 * aggregate folds position by position instead (element j of every array that has one, in one
 * evaluation), since each step needs the step before it.
 */
import type { Batch } from "../columnar/batch.js";
import { getValue, makeVector, type Vector, vectorFromValues } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import type { EvalContext } from "../functions/index.js";
import { typeOf } from "../functions/typing.js";
import type { Attribute, Call, Expr } from "../plan/expressions.js";
import { type ArrayType, type DataType, IntegerType } from "../types/datatypes.js";
import { compileMapHigherOrder } from "./higher-order-maps.js";
import { type Compiled, type CompiledLambda, type CompileFn, compileLambda, lambdaBatch, truth } from "./lambda-batch.js";

/** Every element of the batch's arrays, flattened: its row, its index, its value. */
interface Flat {
  readonly rows: (readonly unknown[] | null)[];
  readonly parents: Int32Array;
  readonly positions: Int32Array;
  readonly values: unknown[];
}

function flatten(v: Vector, n: number): Flat {
  const rows: (readonly unknown[] | null)[] = new Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const a = getValue(v, i) as readonly unknown[] | null;
    rows[i] = a;
    if (a !== null) total += a.length;
  }
  const parents = new Int32Array(total);
  const positions = new Int32Array(total);
  const values = new Array<unknown>(total);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const a = rows[i];
    if (a === null) continue;
    for (let j = 0; j < a.length; j++, k++) {
      parents[k] = i;
      positions[k] = j;
      values[k] = a[j] ?? null;
    }
  }
  return { rows, parents, positions, values };
}

function elementType(e: Expr): DataType {
  return (typeOf(e) as ArrayType).elementType;
}

function intVector(xs: Int32Array): Vector {
  return makeVector(IntegerType, xs, null, xs.length);
}

/** The body over every element: transform's and filter's `x` (and `i` when declared). */
function perElement(b: Batch, ctx: EvalContext, arr: Expr, arrV: Vector, fn: CompiledLambda): { flat: Flat; out: Vector } {
  const flat = flatten(arrV, b.numRows);
  const vars = [vectorFromValues(elementType(arr), flat.values)];
  if (fn.vars.length === 2) vars.push(intVector(flat.positions));
  return { flat, out: fn.body(lambdaBatch(b, fn, flat.parents, vars), ctx) };
}

/** Cuts per-element results back into one array per row (NULL where the input array was). */
function regroup(type: DataType, flat: Flat, pick: (k: number) => boolean, value: (k: number) => unknown): Vector {
  const out: (unknown[] | null)[] = flat.rows.map((a) => (a === null ? null : []));
  for (let k = 0; k < flat.parents.length; k++) if (pick(k)) out[flat.parents[k]!]!.push(value(k));
  return vectorFromValues(type, out);
}

const MAP_FUNCTIONS = new Set(["map_filter", "transform_values", "transform_keys", "map_zip_with"]);

export function compileHigherOrder(e: Call, input: readonly Attribute[], index: Map<number, number>, compile: CompileFn): Compiled {
  const type = typeOf(e);
  const arr = e.args[0]!;
  if (MAP_FUNCTIONS.has(e.name)) return compileMapHigherOrder(e, input, index, compile);
  const arrF = compile(arr, input, index);
  const lambda = (at: number) => compileLambda(e.args[at]!, input, index, compile);
  switch (e.name) {
    case "transform": {
      const fn = lambda(1);
      return (b, ctx) => {
        const { flat, out } = perElement(b, ctx, arr, arrF(b, ctx), fn);
        return regroup(
          type,
          flat,
          () => true,
          (k) => getValue(out, k),
        );
      };
    }
    case "filter": {
      const fn = lambda(1);
      return (b, ctx) => {
        const { flat, out } = perElement(b, ctx, arr, arrF(b, ctx), fn);
        return regroup(
          type,
          flat,
          (k) => truth(out, k) === true,
          (k) => flat.values[k],
        );
      };
    }
    case "exists":
    case "forall": {
      const fn = lambda(1);
      // Three-valued: exists is true if any element's test is true, else NULL if any is NULL;
      // forall is false if any is false, else NULL if any is NULL.
      const decisive = e.name === "exists";
      return (b, ctx) => {
        const { flat, out } = perElement(b, ctx, arr, arrF(b, ctx), fn);
        const res: (boolean | null)[] = flat.rows.map((a) => (a === null ? null : !decisive));
        const sawNull = new Uint8Array(b.numRows);
        for (let k = 0; k < flat.parents.length; k++) {
          const v = truth(out, k);
          if (v === null) sawNull[flat.parents[k]!] = 1;
          else if (v === decisive) res[flat.parents[k]!] = decisive;
        }
        for (let i = 0; i < res.length; i++) if (res[i] === !decisive && sawNull[i] === 1) res[i] = null;
        return vectorFromValues(type, res);
      };
    }
    case "aggregate":
    case "reduce":
      return compileAggregate(e, input, index, compile, arrF);
    case "zip_with":
      return compileZipWith(e, input, index, compile, arrF);
    case "array_sort":
      return compileSortWith(e, input, index, compile, arrF);

    default:
      throw new Error(`${e.name} is not a higher-order function`);
  }
}

/** aggregate(arr, zero, merge, finish): a fold, one array position at a time over all rows. */
function compileAggregate(e: Call, input: readonly Attribute[], index: Map<number, number>, compile: CompileFn, arrF: Compiled): Compiled {
  const zeroF = compile(e.args[1]!, input, index);
  const accType = typeOf(e.args[1]!);
  const elType = elementType(e.args[0]!);
  const merge = compileLambda(e.args[2]!, input, index, compile);
  const finish = compileLambda(e.args[3]!, input, index, compile);
  const type = typeOf(e);
  return (b, ctx) => {
    const n = b.numRows;
    const arrV = arrF(b, ctx);
    const zero = zeroF(b, ctx);
    const rows = Array.from({ length: n }, (_, i) => getValue(arrV, i) as readonly unknown[] | null);
    const acc = Array.from({ length: n }, (_, i) => getValue(zero, i));
    const longest = rows.reduce((m, a) => Math.max(m, a?.length ?? 0), 0);
    for (let j = 0; j < longest; j++) {
      const live: number[] = [];
      for (let i = 0; i < n; i++) if ((rows[i]?.length ?? 0) > j) live.push(i);
      const parents = Int32Array.from(live);
      const vars = [
        vectorFromValues(
          accType,
          live.map((i) => acc[i]),
        ),
        vectorFromValues(
          elType,
          live.map((i) => rows[i]![j] ?? null),
        ),
      ];
      const out = merge.body(lambdaBatch(b, merge, parents, vars), ctx);
      live.forEach((i, k) => {
        acc[i] = getValue(out, k);
      });
    }
    const all = Int32Array.from({ length: n }, (_, i) => i);
    const done = finish.body(lambdaBatch(b, finish, all, [vectorFromValues(accType, acc)]), ctx);
    return vectorFromValues(
      type,
      rows.map((a, i) => (a === null ? null : getValue(done, i))),
    );
  };
}

/** zip_with(a, b, f): f over the pairs, the shorter array padded with NULLs. */
function compileZipWith(e: Call, input: readonly Attribute[], index: Map<number, number>, compile: CompileFn, leftF: Compiled): Compiled {
  const rightF = compile(e.args[1]!, input, index);
  const fn = compileLambda(e.args[2]!, input, index, compile);
  const lt = elementType(e.args[0]!);
  const rt = elementType(e.args[1]!);
  const type = typeOf(e);
  return (b, ctx) => {
    const n = b.numRows;
    const lv = leftF(b, ctx);
    const rv = rightF(b, ctx);
    const parents: number[] = [];
    const ls: unknown[] = [];
    const rs: unknown[] = [];
    const rows: (readonly unknown[] | null)[] = [];
    for (let i = 0; i < n; i++) {
      const l = getValue(lv, i) as readonly unknown[] | null;
      const r = getValue(rv, i) as readonly unknown[] | null;
      if (l === null || r === null) {
        rows.push(null);
        continue;
      }
      const len = Math.max(l.length, r.length);
      rows.push(new Array(len));
      for (let j = 0; j < len; j++) {
        parents.push(i);
        ls.push(l[j] ?? null);
        rs.push(r[j] ?? null);
      }
    }
    const p = Int32Array.from(parents);
    const out = fn.body(lambdaBatch(b, fn, p, [vectorFromValues(lt, ls), vectorFromValues(rt, rs)]), ctx);
    const flat: Flat = { rows, parents: p, positions: new Int32Array(0), values: [] };
    return regroup(
      type,
      flat,
      () => true,
      (k) => getValue(out, k),
    );
  };
}

/**
 * array_sort(a, (l, r) -> ...): each row's array sorted with the comparator (stable, as Spark's
 * TimSort), one evaluation of the lambda per comparison; a NULL answer is an error.
 */
function compileSortWith(e: Call, input: readonly Attribute[], index: Map<number, number>, compile: CompileFn, arrF: Compiled): Compiled {
  const fn = compileLambda(e.args[1]!, input, index, compile);
  const el = elementType(e.args[0]!);
  const type = typeOf(e);
  return (b, ctx) => {
    const arrV = arrF(b, ctx);
    const out: (unknown[] | null)[] = [];
    for (let i = 0; i < b.numRows; i++) {
      const a = getValue(arrV, i) as readonly unknown[] | null;
      if (a === null) {
        out.push(null);
        continue;
      }
      const row = Int32Array.of(i);
      out.push(
        a
          .map((x) => x ?? null)
          .sort((l, r) => {
            const v = getValue(
              fn.body(lambdaBatch(b, fn, row, [vectorFromValues(el, [l ?? null]), vectorFromValues(el, [r ?? null])]), ctx),
              0,
            );
            if (v === null) {
              throw new ArusError(
                "COMPARATOR_RETURNS_NULL",
                `[COMPARATOR_RETURNS_NULL] The comparator has returned a NULL for a comparison between ${String(l)} and ${String(r)}. It should return a positive integer for "greater than", 0 for "equal" and a negative integer for "less than". To revert to deprecated behavior where NULL is treated as 0 (equal), you must set "spark.sql.legacy.allowNullComparisonResultInArraySort" to "true".`,
              );
            }
            return v as number;
          }),
      );
    }
    return vectorFromValues(type, out);
  };
}
