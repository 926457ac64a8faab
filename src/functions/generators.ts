/**
 * Generator functions (Spark's Generator expressions): each input row gives zero or more output
 * rows of one or more columns. explode, posexplode, inline and their `_outer` forms live here
 * (json_tuple in json-tuple.ts, stack in stack.ts); the analyzer lifts a generator out of a SELECT into a Generate
 * plan node (analyzer/generators.ts), and execution/operators/generate.ts runs it.
 *
 * A generator is not a scalar function: it is kept in its own registry, so `lookupFunction`
 * never finds one and a generator anywhere but the top of a SELECT item is an analysis error.
 *
 * Kernels work over whole vectors: they return, for every output row, the input row it came
 * from (`rows`, ascending), so the operator gathers the input columns once by index.
 */

import { isValid, makeVector, type Vector, vectorFromValues } from "../columnar/vector.js";
import type { Call, Expr } from "../plan/expressions.js";
import { type ArrayType, type DataType, field, IntegerType, type StructField, type StructType } from "../types/datatypes.js";
import { checkArity, type EvalContext, typeMismatch } from "./registry.js";

/** What a generator produced from one batch. */
export interface Generated {
  /** The input row of each output row, in ascending order. */
  readonly rows: Int32Array;
  /** One vector per output field, `rows.length` long. */
  readonly columns: readonly Vector[];
}

export interface ResolvedGenerator {
  /** Arguments after implicit casts. */
  readonly args: readonly Expr[];
  /** Spark's element schema: the output columns' default names, types and nullability. */
  readonly fields: readonly StructField[];
}

export interface GeneratorDef {
  /** The name without `_outer`. */
  readonly name: string;
  resolve(call: Call, args: readonly Expr[], types: readonly DataType[]): ResolvedGenerator;
  /**
   * `outer`: an input row that gives no output row gives one row of NULLs instead (explode_outer,
   * LATERAL VIEW OUTER). `fields` is what `resolve` returned.
   */
  generate(args: readonly Vector[], n: number, outer: boolean, fields: readonly StructField[], ctx: EvalContext): Generated;
}

const GENERATORS = new Map<string, GeneratorDef>();

export function registerGenerator(def: GeneratorDef): void {
  GENERATORS.set(def.name, def);
}

/** The generator a call names (`explode_outer` → explode, outer), or null for any other call. */
export function generatorOf(name: string): { def: GeneratorDef; outer: boolean } | null {
  const lower = name.toLowerCase();
  const outer = lower.endsWith("_outer");
  const def = GENERATORS.get(outer ? lower.slice(0, -"_outer".length) : lower);
  return def ? { def, outer } : null;
}

export function isGeneratorCall(e: Expr): boolean {
  return e.kind === "call" && generatorOf(e.name) !== null;
}

/** Row counts: each input row's output count, with outer rows counted once. */
function plan(n: number, lengthOf: (i: number) => number, outer: boolean): { rows: Int32Array; starts: Int32Array } {
  const starts = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    starts[i] = total;
    const len = lengthOf(i);
    total += len > 0 ? len : outer ? 1 : 0;
  }
  starts[n] = total;
  const rows = new Int32Array(total);
  for (let i = 0; i < n; i++) rows.fill(i, starts[i]!, starts[i + 1]!);
  return { rows, starts };
}

/** Rows of an ARRAY or MAP vector as JS arrays / Maps (null for SQL NULL). */
function collectionsOf(v: Vector, n: number): (readonly unknown[] | ReadonlyMap<unknown, unknown> | null)[] {
  const out = new Array<readonly unknown[] | ReadonlyMap<unknown, unknown> | null>(n);
  const values = v.values as unknown[];
  for (let i = 0; i < n; i++) out[i] = isValid(v, i) ? (values[i] as unknown[] | Map<unknown, unknown>) : null;
  return out;
}

const sizeOf = (c: readonly unknown[] | ReadonlyMap<unknown, unknown> | null): number =>
  c === null ? 0 : Array.isArray(c) ? c.length : (c as ReadonlyMap<unknown, unknown>).size;

/** Positions 0, 1, ... within each input row; NULL on an outer row. */
function positions(n: number, starts: Int32Array, lengthOf: (i: number) => number): Vector {
  const total = starts[n]!;
  const pos = new Int32Array(total);
  let validity: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const s = starts[i]!;
    const len = lengthOf(i);
    if (len === 0 && starts[i + 1]! > s) {
      validity ??= new Uint8Array(total).fill(1);
      validity[s] = 0;
    }
    for (let k = 0; k < len; k++) pos[s + k] = k;
  }
  return makeVector(IntegerType, pos, validity, total);
}

/** explode / posexplode over an ARRAY (column `col`) or a MAP (columns `key`, `value`). */
function explodeDef(name: "explode" | "posexplode", withPos: boolean): GeneratorDef {
  return {
    name,
    resolve(call, args, types) {
      checkArity(name, args, 1);
      const t = types[0]!;
      const posField = withPos ? [field("pos", IntegerType, false)] : [];
      if (t.kind === "array") return { args, fields: [...posField, field("col", t.elementType, t.containsNull)] };
      if (t.kind === "map") {
        return { args, fields: [...posField, field("key", t.keyType, false), field("value", t.valueType, t.valueContainsNull)] };
      }
      throw typeMismatch(call, 0, '("ARRAY" or "MAP")', args[0]!, t);
    },
    generate(args, n, outer, fields) {
      const input = collectionsOf(args[0]!, n);
      const lengthOf = (i: number) => sizeOf(input[i]!);
      const { rows, starts } = plan(n, lengthOf, outer);
      const total = rows.length;
      const valueFields = withPos ? fields.slice(1) : fields;
      const columns: Vector[] = withPos ? [positions(n, starts, lengthOf)] : [];
      if (valueFields.length === 1) {
        const elements = new Array<unknown>(total).fill(null);
        for (let i = 0; i < n; i++) {
          const a = input[i] as readonly unknown[] | null;
          if (a !== null) for (let k = 0, s = starts[i]!; k < a.length; k++) elements[s + k] = a[k] ?? null;
        }
        columns.push(vectorFromValues(valueFields[0]!.type, elements));
      } else {
        const keys = new Array<unknown>(total).fill(null);
        const values = new Array<unknown>(total).fill(null);
        for (let i = 0; i < n; i++) {
          const m = input[i] as ReadonlyMap<unknown, unknown> | null;
          if (m === null) continue;
          let s = starts[i]!;
          for (const [k, v] of m) {
            keys[s] = k;
            values[s++] = v ?? null;
          }
        }
        columns.push(vectorFromValues(valueFields[0]!.type, keys), vectorFromValues(valueFields[1]!.type, values));
      }
      return { rows, columns };
    },
  };
}

/** inline: an ARRAY of STRUCTs, one column per field; a NULL element gives a row of NULLs. */
const inline: GeneratorDef = {
  name: "inline",
  resolve(call, args, types) {
    checkArity("inline", args, 1);
    const t = types[0]!;
    if (t.kind !== "array" || t.elementType.kind !== "struct") throw typeMismatch(call, 0, '"ARRAY<STRUCT>"', args[0]!, t);
    const element = t.elementType;
    return { args, fields: element.fields.map((f) => field(f.name, f.type, f.nullable || t.containsNull)) };
  },
  generate(args, n, outer, fields) {
    const input = collectionsOf(args[0]!, n) as (readonly unknown[] | null)[];
    const { rows, starts } = plan(n, (i) => sizeOf(input[i]!), outer);
    const elements = new Array<unknown>(rows.length).fill(null);
    for (let i = 0; i < n; i++) {
      const a = input[i];
      if (a) for (let k = 0, s = starts[i]!; k < a.length; k++) elements[s + k] = a[k] ?? null;
    }
    // Elements are keyed by the struct's own field names; `fields` may carry the user's names.
    const element = (args[0]!.type as ArrayType).elementType as StructType;
    const struct: StructType = { kind: "struct", fields: element.fields.map((f, k) => field(f.name, fields[k]!.type)) };
    const v = vectorFromValues(struct, elements);
    return { rows, columns: v.children! };
  },
};

registerGenerator(explodeDef("explode", false));
registerGenerator(explodeDef("posexplode", true));
registerGenerator(inline);
