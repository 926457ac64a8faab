/** An optimizer rule: a named, pure plan → plan rewrite that keeps results unchanged. */
import type { LogicalPlan } from "../plan/logical.js";

export interface Rule {
  readonly name: string;
  apply(plan: LogicalPlan): LogicalPlan;
}
