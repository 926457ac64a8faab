/**
 * listagg / string_agg(expr[, delimiter]): a group's non-NULL values (cast to STRING) joined in
 * arrival order with the delimiter (none by default); NULL for a group without values. The
 * buffer is the list of values, so partial buffers merge by appending. With WITHIN GROUP (ORDER
 * BY keys) the values are joined in the keys' order (plan/within-group.ts gives the call as
 * (expr, delimiter or NULL, keys..., directions)): the buffer keeps each value with its keys, and
 * DISTINCT (only with WITHIN GROUP, ordered by the value itself) keeps each value once. Plain
 * DISTINCT is not supported yet (Spark's order is then a hash order).
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { type KeyDirection, keyDirections } from "../plan/within-group.js";
import { ArrayOf, type DataType, field, StringType, StructOf, type StructType } from "../types/datatypes.js";
import { CollectListAcc } from "./collect-accumulators.js";
import { compareValues } from "./predicates.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register, typeMismatch } from "./registry.js";

class JoinAcc extends CollectListAcc {
  constructor(private readonly delimiter: string) {
    super(ArrayOf(StringType));
  }
  override buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(StringType), this.lists.slice(0, n))];
  }
  override evaluate(n: number): Vector {
    return vectorFromValues(
      StringType,
      this.lists.slice(0, n).map((l) => (l.length === 0 ? null : l.join(this.delimiter))),
    );
  }
}

/** A value and its ordering keys (buffer field `v`, then `k0`, `k1`, ...). */
type Entry = { v: string; [key: string]: unknown };

/** listagg ... WITHIN GROUP (ORDER BY keys): values kept with their keys, sorted when the group is evaluated. */
class OrderedJoinAcc implements Accumulator {
  private lists: Entry[][] = [];
  private readonly keyNames: string[];
  constructor(
    private readonly entryType: StructType,
    private readonly keysAt: number,
    private readonly directions: readonly KeyDirection[],
    private readonly delimiter: string,
  ) {
    this.keyNames = directions.map((_, i) => `k${i}`);
  }
  resize(n: number): void {
    while (this.lists.length < n) this.lists.push([]);
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    const value = input[0]!;
    for (let i = 0; i < n; i++) {
      if (value.validity !== null && value.validity[i] === 0) continue;
      const e: Entry = { v: getValue(value, i) as string };
      for (let k = 0; k < this.keyNames.length; k++) e[this.keyNames[k]!] = getValue(input[this.keysAt + k]!, i);
      this.lists[g[i]!]!.push(e);
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) this.lists[g[i]!]!.push(...((getValue(buffers[0]!, i) as Entry[] | null) ?? []));
  }
  buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(this.entryType), this.lists.slice(0, n))];
  }
  evaluate(n: number): Vector {
    const out = this.lists.slice(0, n).map((list) => {
      if (list.length === 0) return null;
      // (DISTINCT: the aggregation hands each distinct argument tuple once, functions/distinct-input.ts)
      const entries = [...list];
      entries.sort((a, b) => this.compare(a, b));
      return entries.map((e) => e.v).join(this.delimiter);
    });
    return vectorFromValues(StringType, out);
  }
  /** By the keys in turn, each in its direction, NULLs first or last as asked; ties keep arrival order (a stable sort). */
  private compare(a: Entry, b: Entry): number {
    for (let k = 0; k < this.keyNames.length; k++) {
      const x = a[this.keyNames[k]!];
      const y = b[this.keyNames[k]!];
      const d = this.directions[k]!;
      if (x === null || y === null) {
        if (x === y) continue;
        return (x === null) === d.nullsFirst ? -1 : 1;
      }
      const c = compareValues(x, y);
      if (c !== 0) return d.ascending ? c : -c;
    }
    return 0;
  }
}

/**
 * The WITHIN GROUP form of listagg / string_agg: arguments (expr, delimiter, keys..., directions),
 * the delimiter NULL when none was given (plan/within-group.ts), so four arguments at least.
 */
function orderedStringAgg(args: readonly Expr[], types: readonly DataType[], call: Expr) {
  const t = types[0]!;
  if (t.kind === "array" || t.kind === "map" || t.kind === "struct") throw typeMismatch(call, 0, '"STRING"', args[0]!, t);
  return { args: [castTo(args[0]!, t, StringType), castTo(args[1]!, types[1]!, StringType), ...args.slice(2)], type: StringType };
}

/** The keys' directions of the WITHIN GROUP form (its last argument), or null for the plain form. */
function orderedDirections(types: readonly DataType[], literals: readonly unknown[]): KeyDirection[] | null {
  return types.length >= 4 ? keyDirections(literals[types.length - 1]) : null;
}

function stringAgg(name: string): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call, distinct) {
      if (call.kind === "call" && call.withinGroup !== undefined) return orderedStringAgg(args, types, call);
      checkArity(name, args, 1, 2);
      if (distinct) {
        throw new AnalysisException("UNSUPPORTED_FEATURE", `[UNSUPPORTED_FEATURE] ${name}(DISTINCT ...) is not supported by arus yet.`);
      }
      const t = types[0]!;
      if (t.kind === "array" || t.kind === "map" || t.kind === "struct") throw typeMismatch(call, 0, '"STRING"', args[0]!, t);
      // no delimiter (or NULL) joins with none; the column name still shows NULL (plan/sql-text.ts)
      const value = castTo(args[0]!, t, StringType);
      const noDelimiter = !args[1] || (args[1].kind === "literal" && args[1].value === null);
      return { args: noDelimiter ? [value] : [value, castTo(args[1]!, types[1]!, StringType)], type: StringType };
    },
    bufferTypes: (types) => [ArrayOf(types.length >= 4 ? entryType(types) : StringType)],
    create: (types, _r, _distinct, literals) => {
      const delimiter = typeof literals[1] === "string" ? literals[1] : "";
      const directions = orderedDirections(types, literals);
      if (!directions) return new JoinAcc(delimiter);
      return new OrderedJoinAcc(entryType(types), 2, directions, delimiter);
    },
  };
}

register(stringAgg("listagg"), stringAgg("string_agg"));

/** The buffer's element of the WITHIN GROUP form: the value, then each key in its own type. */
function entryType(types: readonly DataType[]): StructType {
  return StructOf([field("v", StringType), ...types.slice(2, -1).map((t, i) => field(`k${i}`, t))]);
}
