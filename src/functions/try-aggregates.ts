/**
 * try_sum and try_avg: sum and avg that give NULL instead of raising on overflow, whatever the
 * ANSI mode. DOUBLE and DECIMAL inputs are sum / avg in non-ANSI mode (where a DECIMAL overflow
 * is already NULL); integral inputs sum exactly in BIGINT with an overflow flag, as Spark's
 * TrySum buffer (sum, isEmpty): a group that overflowed stays NULL through later merges.
 */
import "./aggregates.js"; // registers sum and avg, used below
import { canonical } from "../columnar/int64.js";
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { arityError } from "../common/errors.js";
import { BooleanType, LongType } from "../types/datatypes.js";
import { type Accumulator, type AggregateFunction, lookupFunction, register } from "./registry.js";

const LONG_MAX = (1n << 63n) - 1n;
const LONG_MIN = -(1n << 63n);
const OVERFLOW = "overflow";

class TryLongSumAcc implements Accumulator {
  private sums: (bigint | null | typeof OVERFLOW)[] = [];
  resize(n: number): void {
    while (this.sums.length < n) this.sums.push(null);
  }
  private add(gid: number, x: bigint | typeof OVERFLOW): void {
    const cur = this.sums[gid] ?? null;
    if (cur === OVERFLOW || x === OVERFLOW) {
      this.sums[gid] = OVERFLOW;
      return;
    }
    const r = (cur ?? 0n) + x;
    this.sums[gid] = r > LONG_MAX || r < LONG_MIN ? OVERFLOW : r;
  }
  update(g: Int32Array, n: number, input: readonly Vector[]): void {
    for (let i = 0; i < n; i++) {
      const x = getValue(input[0]!, i);
      if (x !== null) this.add(g[i]!, BigInt(x as number | bigint));
    }
  }
  merge(g: Int32Array, n: number, buffers: readonly Vector[]): void {
    for (let i = 0; i < n; i++) {
      if (getValue(buffers[1]!, i) === true || getValue(buffers[1]!, i) === 1) continue; // isEmpty
      const s = getValue(buffers[0]!, i);
      this.add(g[i]!, s === null ? OVERFLOW : BigInt(s as number | bigint));
    }
  }
  buffers(n: number): Vector[] {
    const sums = this.sums.slice(0, n);
    return [
      this.evaluate(n),
      vectorFromValues(
        BooleanType,
        sums.map((s) => s === null),
      ),
    ];
  }
  evaluate(n: number): Vector {
    return vectorFromValues(
      LongType,
      this.sums.slice(0, n).map((s) => (s === null || s === OVERFLOW ? null : canonical(s))),
    );
  }
}

function nonAnsi(name: string, base: string): AggregateFunction {
  const inner = lookupFunction(base) as AggregateFunction;
  const exactLong = (resultType: { kind: string }) => name === "try_sum" && resultType.kind === "bigint";
  return {
    kind: "aggregate",
    name,
    resolve: (args, types, call, distinct) => {
      // Spark's builders for these say "[1, 2]" for any other count (two included)
      if (args.length !== 1) throw arityError(name, "[1, 2]", args.length);
      return inner.resolve(args, types, call, distinct);
    },
    bufferTypes: (types, distinct) => {
      const resolvedLong = name === "try_sum" && types[0]!.kind === "bigint";
      return resolvedLong ? [LongType, BooleanType] : inner.bufferTypes(types, distinct);
    },
    create: (types, resultType, distinct, literals) =>
      exactLong(resultType) ? new TryLongSumAcc() : inner.create(types, resultType, distinct, literals, { ansi: false }),
  };
}

register(nonAnsi("try_sum", "sum"), nonAnsi("try_avg", "avg"));
