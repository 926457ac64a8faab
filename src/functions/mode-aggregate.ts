/**
 * mode(col[, deterministic]): the most frequent non-NULL value of a group (NULL for none), in
 * the column's type. On a tie Spark returns whichever its hash map meets first (unspecified);
 * arus returns the tied value seen first, and with deterministic = true the smallest, as Spark.
 * The buffer is the group's values, so partial buffers merge by appending.
 */

import { valueKeyText } from "../columnar/value-key.js";
import { type Vector, vectorFromValues } from "../columnar/vector.js";
import { arityError } from "../common/errors.js";
import { distinctUnsupported, keyDirections } from "../plan/within-group.js";
import { ArrayOf, type DataType } from "../types/datatypes.js";
import { CollectListAcc } from "./collect-accumulators.js";
import { compareValues } from "./predicates.js";
import { type AggregateFunction, checkArity, register, typeMismatch } from "./registry.js";

/** A Map key for a value: a nested one by its text (columnar/value-key.ts: NaN apart from NULL). */
const keyOf = (v: unknown) => (typeof v === "object" && v !== null ? valueKeyText(v) : v);

/** On a tie: the first value seen, the smallest (`deterministic`; WITHIN GROUP ORDER BY x) or the largest (ORDER BY x DESC). */
type TieBreak = "first" | "smallest" | "largest";

class ModeAcc extends CollectListAcc {
  constructor(
    private readonly valueType: DataType,
    private readonly tie: TieBreak,
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
          (this.tie !== "first" && c.count === best.count && compareValues(c.value, best.value) * (this.tie === "smallest" ? 1 : -1) < 0)
        )
          best = c;
      }
      return best?.value ?? null;
    });
    return vectorFromValues(this.valueType, out);
  }
}

/**
 * mode(x[, deterministic]), or mode() WITHIN GROUP (ORDER BY x [DESC]), which the parser gives as
 * (x, directions) (plan/within-group.ts): on a tie the smallest value, or the largest with DESC.
 */
const mode: AggregateFunction = {
  kind: "aggregate",
  name: "mode",
  resolve(args, types, call) {
    if (call.kind === "call" && call.withinGroup === 1) return { args: [...args], type: types[0]! };
    if (call.kind === "call" && call.distinct) throw distinctUnsupported("mode");
    // Spark's builder for mode says "0" (its WITHIN GROUP form) for more than two
    if (args.length > 2) throw arityError("mode", "0", args.length);
    checkArity("mode", args, 1, 2);
    if (args[1] && types[1]!.kind !== "boolean") throw typeMismatch(call, 1, '"BOOLEAN"', args[1], types[1]!);
    return { args: [...args], type: types[0]! };
  },
  bufferTypes: (types) => [ArrayOf(types[0]!)],
  create: (types, _r, _d, literals) => {
    if (typeof literals[1] === "string")
      return new ModeAcc(types[0]!, keyDirections(literals[1])[0]?.ascending === false ? "largest" : "smallest");
    return new ModeAcc(types[0]!, literals[1] === true || literals[1] === 1 ? "smallest" : "first");
  },
};

register(mode);
