/**
 * The shape of an aggregation, shared by the batch HashAggregate and the streaming state-store
 * aggregation: grouping expressions, the distinct aggregate calls with their accumulators, and
 * the projection that builds the output row from (grouping keys, aggregate results).
 */

import type { Batch } from "../columnar/batch.js";
import { withInputFileOf } from "../columnar/input-file.js";
import type { Vector } from "../columnar/vector.js";
import { DistinctInputAcc } from "../functions/distinct-input.js";
import { type Accumulator, type AggregateFunction, type EvalContext, lookupFunction } from "../functions/index.js";
import { carriedMetadata, isAggregateCall, typeOf } from "../functions/typing.js";
import { type Attribute, attribute, type Call, type Expr, transformDown } from "../plan/expressions.js";
import { semanticKey } from "../plan/semantic.js";
import { exprToSql } from "../plan/sql-text.js";
import type { DataType } from "../types/datatypes.js";
import { bindIndex, type CompiledExpr, compileExpr } from "./compile.js";

interface AggCall {
  readonly call: Call;
  readonly fn: AggregateFunction;
  readonly args: readonly CompiledExpr[];
  readonly argTypes: readonly DataType[];
  readonly resultType: DataType;
  readonly literals: readonly unknown[];
  readonly attr: Attribute;
}

export class AggregationSpec {
  readonly groupAttrs: Attribute[];
  readonly aggCalls: AggCall[] = [];
  /** Output expressions over [...groupAttrs, ...aggCalls.attr]. */
  readonly resultExprs: Expr[];
  private readonly groupExprs: CompiledExpr[];
  /** ANSI mode of the last batch evaluated (Spark 4's default until one is): overflow checks of accumulators. */
  private readonly mode = { ansi: true };

  constructor(
    readonly groupingExprs: readonly Expr[],
    readonly aggregateExprs: readonly Expr[],
    input: readonly Attribute[],
  ) {
    const index = bindIndex(input);
    // an aliased key (`window(ts) AS w`) keeps its column's metadata: the watermark it carries
    const keyAttr = (g: Expr): Attribute => {
      const carried = carriedMetadata(g.kind === "alias" ? g.child : g);
      return attribute(exprToSql(g), typeOf(g), true, carried ? { metadata: carried } : {});
    };
    this.groupAttrs = groupingExprs.map((g) => (g.kind === "attribute" ? g : keyAttr(g)));
    this.groupExprs = groupingExprs.map((g) => compileExpr(g, input, index));
    const groupKeys = new Map(groupingExprs.map((g, i) => [semanticKey(g), this.groupAttrs[i]!]));
    const callAttrs = new Map<string, Attribute>();
    this.resultExprs = aggregateExprs.map((e) =>
      transformDown(e, (x) => {
        const g = groupKeys.get(semanticKey(x));
        if (g && x.kind !== "alias") return g;
        if (x.kind === "call" && isAggregateCall(x)) {
          const key = semanticKey(x);
          let a = callAttrs.get(key);
          if (!a) {
            a = attribute(exprToSql(x), typeOf(x), true);
            callAttrs.set(key, a);
            const fn = lookupFunction(x.name) as AggregateFunction;
            this.aggCalls.push({
              call: x,
              fn,
              args: x.args.map((arg) => compileExpr(arg, input, index)),
              argTypes: x.args.map(typeOf),
              resultType: typeOf(x),
              literals: x.args.map((arg) => (arg.kind === "literal" ? arg.value : undefined)),
              attr: a,
            });
          }
          return a;
        }
        return x;
      }),
    );
  }

  /** Attributes of [...groupAttrs, ...agg results], the input of `resultExprs`. */
  get intermediateAttrs(): Attribute[] {
    return [...this.groupAttrs, ...this.aggCalls.map((c) => c.attr)];
  }

  /** The grouping key columns; DOUBLE keys with -0.0 read 0.0 (Spark's NormalizeFloatingNumbers). */
  groupKeys(b: Batch, ctx: EvalContext): Vector[] {
    this.mode.ansi = ctx.ansi;
    // input_file_name() among the keys reads the batch's file, as in Spark, whose analyzer
    // (PullOutNondeterministic) moves it into a projection under the aggregate
    return withInputFileOf(b, () => this.groupExprs.map((f) => normalizeZeros(f(b, ctx))));
  }

  aggInputs(b: Batch, ctx: EvalContext): Vector[][] {
    this.mode.ansi = ctx.ansi;
    return withInputFileOf(b, () => this.aggCalls.map((c) => c.args.map((f) => f(b, ctx))));
  }

  /** `ctx`, when given, is where the results are evaluated: its ANSI flag for overflow checks. */
  newAccumulators(ctx?: EvalContext): Accumulator[] {
    if (ctx) this.mode.ansi = ctx.ansi;
    // DISTINCT: the aggregate sees each distinct argument tuple once (functions/distinct-input.ts)
    return this.aggCalls.map((c) =>
      c.call.distinct
        ? new DistinctInputAcc(c.fn.create(c.argTypes, c.resultType, false, c.literals, this.mode), c.fn.distinctArg)
        : c.fn.create(c.argTypes, c.resultType, false, c.literals, this.mode),
    );
  }

  bufferTypes(): DataType[][] {
    return this.aggCalls.map((c) => c.fn.bufferTypes(c.argTypes, c.call.distinct));
  }
}

/** A DOUBLE / FLOAT vector with every -0.0 as 0.0 (the same vector when it has none): Spark's NormalizeFloatingNumbers on keys. */
export function normalizeZeros(v: Vector): Vector {
  if (v.type.kind !== "double" && v.type.kind !== "float") return v;
  const vals = v.values as Float64Array;
  const negZero = (x: number) => x === 0 && 1 / x < 0;
  let i = 0;
  while (i < vals.length && !negZero(vals[i]!)) i++;
  if (i === vals.length) return v;
  const out = Float64Array.from(vals);
  for (; i < out.length; i++) if (negZero(out[i]!)) out[i] = 0;
  return { ...v, values: out };
}
