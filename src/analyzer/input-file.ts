/**
 * `input_file_name()` under a sort or beside window functions: computed in a projection beneath
 * them, as Spark's analyzer does (PullOutNondeterministic for a sort; ExtractWindowExpressions
 * computes a select's other columns and the windows' partitioning, ordering and arguments
 * beneath the windows). The file's name is known only where a batch comes
 * from its scan (columnar/input-file.ts); a sort or a window gathers its input first and would
 * read "" for every row. An aggregation's keys and arguments read it where they are evaluated
 * (execution/aggregation.ts), so aggregates need no rewrite.
 */
import { outputOf, toAttribute } from "../functions/typing.js";
import { type Alias, type Attribute, alias, anyExpr, call, type Expr, transformDown } from "../plan/expressions.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";

const isInputFile = (e: Expr): boolean => e.kind === "call" && e.name === "input_file_name" && e.args.length === 0;

/** Does `e` call input_file_name()? */
export function readsInputFile(e: Expr): boolean {
  return anyExpr(e, isInputFile);
}

/**
 * `child` with input_file_name() as one more column (`_nondeterministic`, Spark's name), and a
 * function that puts that column in place of the call in an expression.
 */
export function inputFileColumn(
  child: LogicalPlan,
  resolve: (e: Expr, input: readonly Attribute[]) => Expr,
): { child: LogicalPlan; replace: <E extends Expr>(e: E) => E } {
  const column: Alias = alias(resolve(call("input_file_name", []), outputOf(child)), "_nondeterministic");
  const attr = toAttribute(column);
  return {
    child: Plans.project([...outputOf(child), column], child),
    replace: <E extends Expr>(e: E) => transformDown(e, (x) => (isInputFile(x) ? attr : x)) as E,
  };
}
