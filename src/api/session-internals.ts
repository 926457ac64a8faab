/**
 * What DataFrames need from their session, as an interface so the API modules do not import
 * each other in a circle.
 */
import type { Batch } from "../columnar/batch.js";
import type { RuntimeConfig } from "../common/conf.js";
import type { Attribute, Expr } from "../plan/expressions.js";
import type { LogicalPlan } from "../plan/logical.js";
import type { SessionCatalog } from "./catalog.js";

export interface SessionInternals {
  readonly conf: RuntimeConfig;
  readonly catalog: SessionCatalog;
  readonly timeZone: string;
  analyze(plan: LogicalPlan): LogicalPlan;
  analyzeExpr(e: Expr, input: readonly Attribute[]): Expr;
  /** Optimize, plan and run a batch plan. */
  execute(plan: LogicalPlan): Promise<Batch[]>;
  explain(plan: LogicalPlan, extended: boolean): string;
}
