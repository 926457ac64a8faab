/**
 * InferFiltersFromGenerate (Spark's rule): explode, posexplode and inline (not their `_outer`
 * forms) give no row for a NULL or empty input, so a Filter `isnotnull(x) AND size(x) > 0` goes
 * under the Generate. Like Spark, only when the input is a column (an expression might be costly
 * or fail under ANSI if evaluated first). It is visible: the filter is pushed further down, below
 * a watermark (such rows no longer move it) and, as `IsNotNull`, into json/csv scans (which
 * changes `numInputRows`), as in Spark.
 */

import { call, type Expr, literal } from "../plan/expressions.js";
import { type LogicalPlan, Plans, transformPlanUp, withPlanChildren } from "../plan/logical.js";
import { IntegerType } from "../types/datatypes.js";
import type { Rule } from "./rule.js";

const INFERS = new Set(["explode", "posexplode", "inline"]);

function infer(p: LogicalPlan): LogicalPlan {
  if (p.kind !== "generate" || p.outer || !INFERS.has(p.generator.name)) return p;
  const input: Expr | undefined = p.generator.args[0];
  if (input?.kind !== "attribute") return p;
  const condition = call("and", [call("isnotnull", [input]), call(">", [call("size", [input]), literal(0, IntegerType)])]);
  return withPlanChildren(p, [Plans.filter(condition, p.child)]);
}

export const inferFiltersFromGenerate: Rule = {
  name: "InferFiltersFromGenerate",
  apply: (plan) => transformPlanUp(plan, infer),
};
