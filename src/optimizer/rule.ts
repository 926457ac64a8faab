/** An optimizer rule: a named, pure plan → plan rewrite that keeps results unchanged. */
import type { LogicalPlan } from "../plan/logical.js";

export interface Rule {
  readonly name: string;
  apply(plan: LogicalPlan, ctx: OptimizerContext): LogicalPlan;
}

export interface OptimizerContext {
  /**
   * A streaming query hands its late rows to the user (`onLateRows`, `lateRowsTable`): they
   * keep all their columns, so the input of a stateful operator is not pruned.
   */
  readonly keepStatefulInputs: boolean;
}
