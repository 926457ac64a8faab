/**
 * What explain() shows for stage A on the decode threads (`arus.exec.partialAggregation`):
 * Spark's partial HashAggregate, `HashAggregate(keys=[...], functions=[partial_count(1), ...])`,
 * between the final aggregation (arus's StateStoreSave, which then merges partial groups) and
 * the operators stage A runs below it. It is only shown, never executed: the decode threads
 * run the step (stage-a-run.ts).
 */
import type { Batch } from "../../columnar/batch.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import type { AggregationSpec } from "../aggregation.js";
import type { PhysicalOperator } from "../operator.js";

export class PartialAggregateExplain implements PhysicalOperator {
  readonly name = "HashAggregate";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];

  constructor(
    readonly groupingExprs: readonly Expr[],
    readonly spec: AggregationSpec,
    child: PhysicalOperator,
    /** Where the step runs, said after the functions. */
    readonly where: string,
  ) {
    this.children = [child];
    this.output = child.output;
  }

  execute(): Promise<Batch[]> {
    throw new Error("PartialAggregateExplain is shown by explain() only; the decode threads run stage A");
  }

  describe(): string {
    const keys = this.groupingExprs.map(exprToSql).join(", ");
    const functions = this.spec.aggCalls.map((c) => `partial_${exprToSql(c.call)}`).join(", ");
    return `(keys=[${keys}], functions=[${functions}]), ${this.where}`;
  }
}
