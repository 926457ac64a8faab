/**
 * mode(col[, deterministic]): the most frequent non-NULL value of a group (NULL for none), in
 * the column's type. On a tie Spark returns whichever its hash map meets first (unspecified);
 * arus returns the tied value seen first, and with deterministic = true the smallest, as Spark.
 * The buffer is the group's values, so partial buffers merge by appending.
 */
import { type Vector, vectorFromValues } from "../columnar/vector.js";
import { ArrayOf, type DataType } from "../types/datatypes.js";
import { CollectListAcc } from "./collect-accumulators.js";
import { compareValues } from "./predicates.js";
import { type AggregateFunction, checkArity, register, typeMismatch } from "./registry.js";

const keyOf = (v: unknown) =>
  typeof v === "object" && v !== null ? JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x)) : v;

class ModeAcc extends CollectListAcc {
  constructor(
    private readonly valueType: DataType,
    private readonly deterministic: boolean,
  ) {
    super(ArrayOf(valueType));
  }
  override buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(this.valueType), this.lists.slice(0, n))];
  }
  override evaluate(n: number): Vector {
    const out = this.lists.slice(0, n).map((values) => {
      const counts = new Map<unknown, { value: unknown; count: number }>();
      for (const v of values) {
        const k = keyOf(v);
        const c = counts.get(k);
        if (c) c.count++;
        else counts.set(k, { value: v, count: 1 });
      }
      let best: { value: unknown; count: number } | null = null;
      for (const c of counts.values()) {
        if (
          best === null ||
          c.count > best.count ||
          (this.deterministic && c.count === best.count && compareValues(c.value, best.value) < 0)
        )
          best = c;
      }
      return best?.value ?? null;
    });
    return vectorFromValues(this.valueType, out);
  }
}

const mode: AggregateFunction = {
  kind: "aggregate",
  name: "mode",
  resolve(args, types, call) {
    checkArity("mode", args, 1, 2);
    if (args[1] && types[1]!.kind !== "boolean") throw typeMismatch(call, 1, '"BOOLEAN"', args[1], types[1]!);
    return { args: [...args], type: types[0]! };
  },
  bufferTypes: (types) => [ArrayOf(types[0]!)],
  create: (types, _r, _d, literals) => new ModeAcc(types[0]!, literals[1] === true || literals[1] === 1),
};

register(mode);
