/**
 * Evaluation of the higher-order map functions (functions/higher-order-maps.ts): a lambda's body
 * runs once over every entry of every map of the batch (execution/lambda-batch.ts), with the
 * key and the value as its variables; the results are cut back into one map per row.
 */
import type { Batch } from "../columnar/batch.js";
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import { valueToString } from "../functions/cast.js";
import type { EvalContext } from "../functions/index.js";
import { compareValues } from "../functions/predicates.js";
import { typeOf } from "../functions/typing.js";
import type { Attribute, Call } from "../plan/expressions.js";
import type { DataType, MapType } from "../types/datatypes.js";
import { type Compiled, type CompiledLambda, type CompileFn, compileLambda, lambdaBatch, truth } from "./lambda-batch.js";

type Entries = Map<unknown, unknown>;

/** Every entry of the batch's maps, flattened: its row, key and value. */
interface FlatMaps {
  readonly rows: (Entries | null)[];
  readonly parents: Int32Array;
  readonly keys: unknown[];
  readonly values: unknown[];
}

function flattenMaps(v: Vector, n: number): FlatMaps {
  const rows = Array.from({ length: n }, (_, i) => getValue(v, i) as Entries | null);
  const parents: number[] = [];
  const keys: unknown[] = [];
  const values: unknown[] = [];
  rows.forEach((m, i) => {
    if (m === null) return;
    for (const [k, x] of m) {
      parents.push(i);
      keys.push(k);
      values.push(x ?? null);
    }
  });
  return { rows, parents: Int32Array.from(parents), keys, values };
}

function entryBatch(b: Batch, fn: CompiledLambda, flat: FlatMaps, t: MapType): Batch {
  return lambdaBatch(b, fn, flat.parents, [vectorFromValues(t.keyType, flat.keys), vectorFromValues(t.valueType, flat.values)]);
}

/** Builds one map per row from its entries' (key, value) pairs; `pick` drops entries. */
function rebuild(type: DataType, flat: FlatMaps, entry: (k: number) => [unknown, unknown] | null, ctx: EvalContext): Vector {
  const out: (Entries | null)[] = flat.rows.map((m) => (m === null ? null : new Map()));
  const keyType = (type as MapType).keyType;
  for (let k = 0; k < flat.parents.length; k++) {
    const e = entry(k);
    if (e === null) continue;
    const m = out[flat.parents[k]!]!;
    if (e[0] === null) throw new ArusError("NULL_MAP_KEY", "[NULL_MAP_KEY] Cannot use null as map key.");
    for (const existing of m.keys()) {
      if (compareValues(existing, e[0]) === 0) {
        throw new ArusError(
          "DUPLICATED_MAP_KEY",
          `[DUPLICATED_MAP_KEY] Duplicate map key ${valueToString(e[0], keyType, ctx.timeZone)} was found, please check the input data. If you want to remove the duplicated keys, you can set "spark.sql.mapKeyDedupPolicy" to "LAST_WIN" so that the key inserted at last takes precedence.`,
        );
      }
    }
    m.set(e[0], e[1]);
  }
  return vectorFromValues(type, out);
}

export function compileMapHigherOrder(e: Call, input: readonly Attribute[], index: Map<number, number>, compile: CompileFn): Compiled {
  const type = typeOf(e);
  const mapF = compile(e.args[0]!, input, index);
  const mapType = typeOf(e.args[0]!) as MapType;
  if (e.name === "map_zip_with") return compileMapZipWith(e, input, index, compile, mapF);
  const fn = compileLambda(e.args[1]!, input, index, compile);
  return (b, ctx) => {
    const flat = flattenMaps(mapF(b, ctx), b.numRows);
    const out = fn.body(entryBatch(b, fn, flat, mapType), ctx);
    switch (e.name) {
      case "map_filter":
        return rebuild(type, flat, (k) => (truth(out, k) === true ? [flat.keys[k], flat.values[k]] : null), ctx);
      case "transform_values":
        return rebuild(type, flat, (k) => [flat.keys[k], getValue(out, k)], ctx);
      case "transform_keys":
        return rebuild(type, flat, (k) => [getValue(out, k), flat.values[k]], ctx);
      default:
        throw new Error(`${e.name} is not a higher-order map function`);
    }
  };
}

/** map_zip_with(m1, m2, (k, v1, v2) -> ...): over the keys of m1, then m2's keys m1 lacks. */
function compileMapZipWith(
  e: Call,
  input: readonly Attribute[],
  index: Map<number, number>,
  compile: CompileFn,
  leftF: Compiled,
): Compiled {
  const rightF = compile(e.args[1]!, input, index);
  const fn = compileLambda(e.args[2]!, input, index, compile);
  const l = typeOf(e.args[0]!) as MapType;
  const r = typeOf(e.args[1]!) as MapType;
  const type = typeOf(e);
  return (b, ctx) => {
    const lv = leftF(b, ctx);
    const rv = rightF(b, ctx);
    const rows: (Entries | null)[] = [];
    const parents: number[] = [];
    const keys: unknown[] = [];
    const lefts: unknown[] = [];
    const rights: unknown[] = [];
    for (let i = 0; i < b.numRows; i++) {
      const lm = getValue(lv, i) as Entries | null;
      const rm = getValue(rv, i) as Entries | null;
      if (lm === null || rm === null) {
        rows.push(null);
        continue;
      }
      rows.push(lm);
      const seen: unknown[] = [];
      const find = (m: Entries, key: unknown) => {
        for (const [k, x] of m) if (compareValues(k, key) === 0) return x ?? null;
        return null;
      };
      for (const k of [...lm.keys(), ...rm.keys()]) {
        if (seen.some((s) => compareValues(s, k) === 0)) continue;
        seen.push(k);
        parents.push(i);
        keys.push(k);
        lefts.push(find(lm, k));
        rights.push(find(rm, k));
      }
    }
    const flat: FlatMaps = { rows, parents: Int32Array.from(parents), keys, values: [] };
    const vars = [vectorFromValues(l.keyType, keys), vectorFromValues(l.valueType, lefts), vectorFromValues(r.valueType, rights)];
    const out = fn.body(lambdaBatch(b, fn, flat.parents, vars), ctx);
    return rebuild(type, flat, (k) => [keys[k], getValue(out, k)], ctx);
  };
}
