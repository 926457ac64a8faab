/**
 * HashAggregate for batch queries: group ids from the GroupIndex, accumulators folded a
 * vector at a time, one output batch.
 */
import { type Batch, makeBatch } from "../../columnar/batch.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import { AggregationSpec } from "../aggregation.js";
import { compileExpr } from "../compile.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

export class HashAggregateExec implements PhysicalOperator {
  readonly name = "HashAggregate";
  readonly children: PhysicalOperator[];
  readonly spec: AggregationSpec;
  constructor(
    readonly groupingExprs: readonly Expr[],
    readonly aggregateExprs: readonly Expr[],
    readonly output: readonly Attribute[],
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.spec = new AggregationSpec(groupingExprs, aggregateExprs, child.output);
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const spec = this.spec;
    const index = new GroupIndex(spec.groupAttrs.map((a) => a.type));
    const accs = spec.newAccumulators(ctx.eval);
    for (const b of await this.child.execute(ctx)) {
      if (b.numRows === 0) continue;
      const gids = index.assign(spec.groupKeys(b, ctx.eval), b.numRows);
      const inputs = spec.aggInputs(b, ctx.eval);
      for (const a of accs) a.resize(index.numGroups);
      for (let i = 0; i < accs.length; i++) accs[i]!.update(gids, b.numRows, inputs[i]!);
    }
    // A global aggregate over no rows still yields one row (count = 0, sum = NULL).
    if (spec.groupAttrs.length === 0 && index.numGroups === 0) index.assign([], 1);
    const n = index.numGroups;
    for (const a of accs) a.resize(n);
    const intermediate = makeBatch([...index.keyVectors(), ...accs.map((a) => a.evaluate(n))], n);
    const attrs = spec.intermediateAttrs;
    const cols = spec.resultExprs.map((e) => compileExpr(e, attrs)(intermediate, ctx.eval));
    return [makeBatch(cols, n)];
  }

  describe(): string {
    return `(keys=[${this.groupingExprs.map(exprToSql).join(", ")}], functions=[${this.spec.aggCalls.map((c) => exprToSql(c.call)).join(", ")}])`;
  }
}
