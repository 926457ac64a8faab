/**
 * The optimizer: an ordered list of rules, each of which can be switched off (tests compare
 * optimized and unoptimized plans; users can set `arus.optimizer.excludedRules`, like Spark's
 * `spark.sql.optimizer.excludedRules`).
 */
import type { LogicalPlan } from "../plan/logical.js";
import { constantFolding } from "./constant-folding.js";
import { eliminateOuterJoin } from "./eliminate-outer-join.js";
import { eliminateSubqueryAliases } from "./eliminate-subquery-aliases.js";
import { inferEqualConstraints } from "./infer-equal-constraints.js";
import { inferFilterConstraints } from "./infer-filter-constraints.js";
import { inferFiltersFromGenerate } from "./infer-filters-from-generate.js";
import { inferJoinFilters } from "./infer-join-filters.js";
import { likeSimplification } from "./like-simplification.js";
import { pruneColumns } from "./prune-columns.js";
import { pushDownPredicates } from "./push-down-predicates.js";
import type { OptimizerContext, Rule } from "./rule.js";
import { simplifyConditionals } from "./simplify-conditionals.js";

export const RULES: readonly Rule[] = [
  eliminateSubqueryAliases,
  constantFolding,
  simplifyConditionals,
  likeSimplification,
  // before the push-down: a filter above a full outer join cannot move, above the left outer
  // join it narrows to it can (and the joins' inference then filters the side that must match)
  eliminateOuterJoin,
  // Spark pushes filters down before it infers (its "Operator Optimization before Inferring
  // Filters" batch), so inference sees `lower(k) = 'b'` at the scan, not `c0 = 'b'` above the
  // projection defining c0, and adds isnotnull(k), which the scan can take.
  pushDownPredicates,
  inferEqualConstraints,
  inferFilterConstraints,
  inferJoinFilters,
  inferFiltersFromGenerate,
  pushDownPredicates,
  // Spark runs these with the push-down to a fixed point: a condition pushed through a
  // projection of constants (`c > 1` below `1 AS c`) folds there (`1 > 1` to false), and a
  // false filter over a scan reads no row (numInputRows 0, as Spark's pruned scan)
  constantFolding,
  simplifyConditionals,
  pruneColumns,
];

export function optimize(
  plan: LogicalPlan,
  excluded: ReadonlySet<string> = new Set(),
  ctx: OptimizerContext = { keepStatefulInputs: false },
): LogicalPlan {
  let p = plan;
  for (const r of RULES) if (!excluded.has(r.name)) p = r.apply(p, ctx);
  return p;
}
