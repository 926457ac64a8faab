/**
 * The aggregate functions: each one's analysis rule (arity, types, result type) and the
 * accumulator it folds with. Accumulators are columnar: each keeps one typed-array slot per
 * group and folds whole vectors at a time (`update` for raw rows, `merge` for partial buffers,
 * which the streaming state store and partial/final aggregation both use). They live beside
 * this registry, one kind per module: numeric-accumulators.ts, collect-accumulators.ts,
 * pick-accumulator.ts, long-sum.ts, decimal-aggregates.ts.
 */

import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { ArrayOf, type ArrayType, BooleanType, type DataType, DoubleType, isIntegral, isNumeric, LongType } from "../types/datatypes.js";
import { CollectListAcc, DistinctSetAcc, ElementSetAcc } from "./collect-accumulators.js";
import { DecimalSumAcc, decimalAvgType, decimalSumType } from "./decimal-aggregates.js";
import { LongSumAcc } from "./long-sum.js";
import { CountAcc, SumAcc } from "./numeric-accumulators.js";
import { PickAcc } from "./pick-accumulator.js";
import { compareValues } from "./predicates.js";
import {
  type Accumulator,
  type AggregateFunction,
  castTo,
  checkArity,
  type Resolved,
  register,
  registerAlias,
  typeMismatch,
} from "./registry.js";

function oneArg(name: string, args: readonly Expr[]): void {
  checkArity(name, args, 1);
}

const count: AggregateFunction = {
  kind: "aggregate",
  name: "count",
  resolve(args) {
    if (args.length === 0) {
      // Spark's own wording (two spaces included), pointing at the legacy flag it has
      throw new AnalysisException(
        "WRONG_NUM_ARGS.WITH_SUGGESTION",
        '[WRONG_NUM_ARGS.WITH_SUGGESTION] The `count` requires  >= 1 parameters but the actual number is 0. If you have to call this function with 0 parameters, set the legacy configuration "spark.sql.legacy.allowParameterlessCount" to "true".',
      );
    }
    return { args, type: LongType };
  },
  // (DISTINCT: the aggregation hands each distinct argument tuple once, functions/distinct-input.ts)
  bufferTypes: () => [LongType],
  create: (types) => new CountAcc(types.length === 1 && types[0]!.kind === "null"),
};

function sumLike(name: string, average: boolean): AggregateFunction {
  const plain = (types: readonly DataType[], resultType: DataType, mode?: { readonly ansi: boolean }): Accumulator =>
    types[0]!.kind === "decimal"
      ? new DecimalSumAcc(types[0]!, average, mode)
      : !average && resultType.kind === "bigint"
        ? new LongSumAcc(resultType, mode ?? { ansi: true })
        : new SumAcc(resultType, average);
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call): Resolved {
      oneArg(name, args);
      let t = types[0]!;
      if (t.kind === "string" || t.kind === "null") t = DoubleType;
      if (!isNumeric(t)) throw typeMismatch(call, 0, '"NUMERIC" or "ANSI INTERVAL"', args[0]!, types[0]!);
      if (t.kind === "decimal") return { args: [args[0]!], type: average ? decimalAvgType(t) : decimalSumType(t) };
      // Spark sums every integral type as BIGINT and FLOAT as DOUBLE.
      const inType = isIntegral(t) ? LongType : t.kind === "float" ? DoubleType : t;
      return { args: [castTo(args[0]!, types[0]!, inType)], type: average ? DoubleType : inType };
    },
    // (sum(DISTINCT x): the aggregation hands each distinct value once, functions/distinct-input.ts)
    bufferTypes: (types) => [types[0]!.kind === "decimal" ? decimalSumType(types[0]!) : average ? DoubleType : types[0]!, LongType],
    create: (types, resultType, _distinct, _l, mode) => plain(types, resultType, mode),
  };
}

function pick(name: string, better: (x: unknown, cur: unknown) => boolean, orderable: boolean, order: -1 | 0 | 1 = 0): AggregateFunction {
  const skipNulls = orderable;
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call) {
      // min / max take one; first / last (built on this) a second, ignoreNulls
      checkArity(name, args, 1, orderable ? 1 : 2);
      const t = types[0]!;
      if (orderable && t.kind === "map") throw typeMismatch(call, 0, '"ORDERABLE"', args[0]!, t);
      return { args, type: t };
    },
    bufferTypes: (types) => [types[0]!, BooleanType],
    create: (types) => new PickAcc(types[0]!, better, skipNulls, order),
  };
}

function firstLast(name: string, isFirst: boolean): AggregateFunction {
  const base = pick(name, isFirst ? () => false : () => true, false);
  return {
    ...base,
    resolve(args, types, call, distinct) {
      const r = base.resolve(args, types, call, distinct);
      if (args[1] && (args[1].kind !== "literal" || types[1]!.kind !== "boolean")) {
        throw typeMismatch(call, 1, '"BOOLEAN"', args[1], types[1]!);
      }
      return r;
    },
    // first(x, true) / last(x, true) skip NULLs.
    create: (types, _r, _d, literals) =>
      new PickAcc(types[0]!, isFirst ? () => false : () => true, literals[1] === true || literals[1] === 1),
  };
}

function collect(name: string, set: boolean): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types) {
      oneArg(name, args);
      return { args, type: ArrayOf(types[0]!, false) };
    },
    bufferTypes: (types) => [ArrayOf(types[0]!)],
    create(types, resultType) {
      return set ? new DistinctSetAcc(types[0]!, (v) => v, resultType) : new CollectListAcc(resultType);
    },
  };
}

/**
 * collect_union(array) (Spark 4.3): the distinct elements of a group's arrays, NULL arrays and
 * NULL elements left out (an empty array for none). Elements in first-seen order; Spark's order
 * is its hash set's (documented as not deterministic).
 */
const collectUnion: AggregateFunction = {
  kind: "aggregate",
  name: "collect_union",
  resolve(args, types, call) {
    oneArg("collect_union", args);
    const t = types[0]!;
    if (t.kind !== "array") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, t);
    return { args, type: ArrayOf(t.elementType, false) };
  },
  bufferTypes: (types) => [types[0]!],
  create: (types, resultType) => new ElementSetAcc((types[0] as ArrayType).elementType, (v) => v, resultType),
};

const approxCountDistinct: AggregateFunction = {
  kind: "aggregate",
  name: "approx_count_distinct",
  resolve(args) {
    checkArity("approx_count_distinct", args, 1, 2);
    return { args: [args[0]!], type: LongType };
  },
  bufferTypes: (types) => [ArrayOf(types[0]!)],
  // Exact counting: every answer is within any rsd the user asks for.
  create: (types) => new DistinctSetAcc(types[0]!, (v) => v.length, LongType),
};

register(
  count,
  sumLike("sum", false),
  sumLike("avg", true),
  pick("min", (x, cur) => x !== null && compareValues(x, cur) < 0, true, -1),
  pick("max", (x, cur) => x !== null && compareValues(x, cur) > 0, true, 1),
  firstLast("first", true),
  firstLast("last", false),
  collect("collect_list", false),
  collect("collect_set", true),
  collectUnion,
  approxCountDistinct,
);
registerAlias("mean", "avg");
registerAlias("first_value", "first");
registerAlias("last_value", "last");
