/**
 * listagg / string_agg(expr[, delimiter]): a group's non-NULL values (cast to STRING; BINARY
 * values stay BINARY, joined as bytes with a BINARY delimiter) joined in arrival order with the
 * delimiter (none by default); NULL for a group without values. The buffer is the list of
 * values, so partial buffers merge by appending. With WITHIN GROUP (ORDER BY keys) the values are
 * joined in the keys' order (plan/within-group.ts gives the call as (expr, delimiter or NULL,
 * keys..., directions)): the buffer keeps each value with its keys. DISTINCT keeps each value
 * once (the aggregation hands each distinct argument tuple once, functions/distinct-input.ts):
 * with WITHIN GROUP ordered by the value or what it casts (checkDistinctOrdering); without it in
 * first-seen order (Spark's is its hash order).
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { checkDistinctOrdering, type KeyDirection, keyDirections } from "../plan/within-group.js";
import { ArrayOf, BinaryType, type DataType, field, StringType, StructOf, type StructType, sqlTypeName } from "../types/datatypes.js";
import { CollectListAcc } from "./collect-accumulators.js";
import { compareValues } from "./predicates.js";
import { type Accumulator, type AggregateFunction, castTo, checkArity, register, typeMismatch } from "./registry.js";
import { typeOf } from "./typing.js";

/** Joins a group's values: STRINGs as text, BINARY values as bytes. */
interface Joiner {
  readonly type: DataType;
  join(values: readonly unknown[]): unknown;
}

function joinerOf(type: DataType, delimiter: unknown): Joiner {
  if (type.kind === "binary") {
    const d = delimiter instanceof Uint8Array ? delimiter : new Uint8Array(0);
    return { type, join: (values) => Buffer.concat((values as Uint8Array[]).flatMap((v, i) => (i === 0 ? [v] : [d, v]))) };
  }
  const d = typeof delimiter === "string" ? delimiter : "";
  return { type, join: (values) => values.join(d) };
}

class JoinAcc extends CollectListAcc {
  constructor(private readonly joiner: Joiner) {
    super(ArrayOf(joiner.type));
  }
  override buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(this.joiner.type), this.lists.slice(0, n))];
  }
  override evaluate(n: number): Vector {
    return vectorFromValues(
      this.joiner.type,
      this.lists.slice(0, n).map((l) => (l.length === 0 ? null : this.joiner.join(l))),
    );
  }
}

/** A value and its ordering keys (buffer field `v`, then `k0`, `k1`, ...). */
type Entry = { v: unknown; [key: string]: unknown };

/** listagg ... WITHIN GROUP (ORDER BY keys): values kept with their keys, sorted when the group is evaluated. */
class OrderedJoinAcc implements Accumulator {
  private lists: Entry[][] = [];
  private readonly keyNames: string[];
  constructor(
    private readonly entryType: StructType,
    private readonly keysAt: number,
    private readonly directions: readonly KeyDirection[],
    private readonly joiner: Joiner,
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
      const e: Entry = { v: getValue(value, i) };
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
      const entries = [...list];
      entries.sort((a, b) => this.compare(a, b));
      return this.joiner.join(entries.map((e) => e.v));
    });
    return vectorFromValues(this.joiner.type, out);
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
function orderedStringAgg(args: readonly Expr[], types: readonly DataType[], call: Expr, distinct: boolean) {
  const t = types[0]!;
  if (t.kind === "array" || t.kind === "map" || t.kind === "struct") throw typeMismatch(call, 0, '"STRING"', args[0]!, t);
  if (distinct) {
    // resolved again (re-analysis), the argument is the implicit cast this resolve added: check what it casts
    const a = args[0]!;
    const own = a.kind === "cast" && a.implicit ? a.child : a;
    checkDistinctOrdering(own, own === a ? t : typeOf(own), args[2]!, types[2]!);
  }
  const type = valueType(t, types[1]!, call);
  return { args: [castTo(args[0]!, t, type), castTo(args[1]!, types[1]!, type), ...args.slice(2)], type };
}

/** BINARY values join as BINARY, anything else as STRING; a delimiter of the other of the two kinds is Spark's DATA_DIFF_TYPES. */
function valueType(value: DataType, delimiter: DataType | undefined, call: Expr): DataType {
  const type = value.kind === "binary" ? BinaryType : StringType;
  const d = delimiter?.kind;
  if ((type === BinaryType && d !== undefined && d !== "binary" && d !== "null") || (type === StringType && d === "binary")) {
    const kinds = [value, delimiter!].map((x) => `"${sqlTypeName(x.kind === "binary" ? BinaryType : StringType)}"`);
    throw new AnalysisException(
      "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
      `[DATATYPE_MISMATCH.DATA_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Input to \`listagg\` should all be the same type, but it's (${kinds.join(" or ")}).`,
    );
  }
  return type;
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
      if (call.kind === "call" && call.withinGroup !== undefined) return orderedStringAgg(args, types, call, distinct);
      checkArity(name, args, 1, 2);
      const t = types[0]!;
      if (t.kind === "array" || t.kind === "map" || t.kind === "struct") throw typeMismatch(call, 0, '"STRING"', args[0]!, t);
      const type = valueType(t, types[1], call);
      // no delimiter (or NULL) joins with none; the column name still shows NULL (plan/sql-text.ts)
      const value = castTo(args[0]!, t, type);
      const noDelimiter = !args[1] || (args[1].kind === "literal" && args[1].value === null);
      return { args: noDelimiter ? [value] : [value, castTo(args[1]!, types[1]!, type)], type };
    },
    bufferTypes: (types) => [ArrayOf(types.length >= 4 ? entryType(types) : types[0]!)],
    create: (types, _r, _distinct, literals) => {
      const joiner = joinerOf(types[0]!, literals[1]);
      const directions = orderedDirections(types, literals);
      if (!directions) return new JoinAcc(joiner);
      return new OrderedJoinAcc(entryType(types), 2, directions, joiner);
    },
  };
}

register(stringAgg("listagg"), stringAgg("string_agg"));

/** The buffer's element of the WITHIN GROUP form: the value, then each key in its own type. */
function entryType(types: readonly DataType[]): StructType {
  return StructOf([field("v", types[0]!), ...types.slice(2, -1).map((t, i) => field(`k${i}`, t))]);
}
