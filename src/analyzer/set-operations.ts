/**
 * INTERSECT / EXCEPT [ALL] rewritten into joins once both sides are analyzed, as Spark's
 * optimizer rewrites them (ReplaceIntersectWithSemiJoin, ReplaceExceptWithAntiJoin): the
 * distinct forms are a left semi / anti join on every column with null-safe equality (NULLs
 * equal each other), then a Distinct; the ALL forms number each row among its equals
 * (`row_number()` over all columns) and join on that number too, so a row stays as often as it
 * occurs on both sides (INTERSECT ALL) or more often on the left (EXCEPT ALL). The right side's
 * columns get fresh ids, so a DataFrame can meet itself. Batch only, as in Spark.
 */
import { AnalysisException } from "../common/errors.js";
import { type Attribute, alias, call, conjunction, type Expr, sortOrder, windowExpr } from "../plan/expressions.js";
import { isStreamingPlan, type LogicalPlan, Plans, type SetOperation } from "../plan/logical.js";
import { outputOf } from "./types.js";

const ROW_NUMBER = "__arus_set_op_row";

function check(p: SetOperation, l: readonly Attribute[], r: readonly Attribute[]): void {
  const name = p.op === "intersect" ? "INTERSECT" : "EXCEPT";
  if (isStreamingPlan(p.left) || isStreamingPlan(p.right)) {
    throw new AnalysisException(
      "UNSUPPORTED_FEATURE",
      p.op === "intersect"
        ? "Intersect of streaming DataFrames/Datasets is not supported;"
        : isStreamingPlan(p.right)
          ? "Except on a streaming DataFrame/Dataset on the right is not supported;"
          : "Except on a streaming DataFrame/Dataset is not supported by arus;",
    );
  }
  if (l.length !== r.length) {
    throw new AnalysisException(
      "NUM_COLUMNS_MISMATCH",
      `[NUM_COLUMNS_MISMATCH] ${name} can only be performed on inputs with the same number of columns, but the first input has ${l.length} columns and the second input has ${r.length} columns.`,
    );
  }
}

/** Null-safe equality of the columns pairwise. */
function allEqual(l: readonly Attribute[], r: readonly Attribute[]): Expr {
  return conjunction(l.map((a, i) => call("<=>", [a, r[i]!]) as Expr));
}

/** `plan` with a last column numbering each row among the rows equal to it. */
function numbered(plan: LogicalPlan): LogicalPlan {
  const out = outputOf(plan);
  const rn = windowExpr(
    call("row_number", []),
    out,
    out.map((a) => sortOrder(a)),
    null,
  );
  return Plans.project([...out, alias(rn, ROW_NUMBER)], plan);
}

/** The join plan for `p` (to be analyzed again: the window numbering needs it). */
export function rewriteSetOperation(p: SetOperation): LogicalPlan {
  const l = outputOf(p.left);
  check(p, l, outputOf(p.right));
  const right = Plans.project(
    outputOf(p.right).map((a) => alias(a, a.name)),
    p.right,
  );
  const how = p.op === "intersect" ? "left_semi" : "left_anti";
  if (!p.all) return Plans.distinct(Plans.join(p.left, right, how, allEqual(l, outputOf(right))));
  const ln = numbered(p.left);
  const rn = numbered(right);
  // the row numbers are the last column of both sides: plain `=` on them, null-safe on the rest
  const lo = outputOf(ln);
  const ro = outputOf(rn);
  const cond = call("and", [allEqual(lo.slice(0, -1), ro.slice(0, -1)), call("=", [lo.at(-1)!, ro.at(-1)!])]);
  return Plans.project(l, Plans.join(ln, rn, how, cond));
}
