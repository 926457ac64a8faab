/**
 * PySpark's higher-order functions: `F.transform(col, (x) => x.plus(1))` and so on. The JS
 * function is called once, with Columns standing for its parameters, to build the lambda's
 * body; how many parameters it declares (`fn.length`) picks the form, as PySpark inspects a
 * Python function's signature (`transform(col, (x, i) => ...)` also gets the index).
 * Re-exported by functions.ts; the SQL side is in src/functions/higher-order.ts.
 */
import { call, columnRef, type Expr, lambdaFunction, unresolvedLambdaVar } from "../plan/expressions.js";
import { Column, type ColumnOrName, toExpr } from "./column.js";

let nextVar = 0;

type Lambda1 = (x: Column) => Column;
type Lambda2 = (x: Column, y: Column) => Column;
/** `(x) => ...` or `(x, i) => ...`: one signature, so TypeScript types `x` in either form. */
type ElementLambda = (x: Column, i: Column) => Column;

/** The lambda `fn` as an expression, with fresh variable names (they only have to be unique). */
function lambda(fn: (...xs: Column[]) => Column, arity: number): Expr {
  const names = Array.from({ length: arity }, () => `x_${nextVar++}`);
  const body = fn(...names.map((n) => new Column(columnRef([n]))));
  if (!(body instanceof Column)) throw new TypeError("a lambda passed to a higher-order function must return a Column");
  return lambdaFunction(body.expr, names.map(unresolvedLambdaVar));
}

/** One or two parameters, as declared (`(x) => ...` or `(x, i) => ...`). */
function elementLambda(fn: ElementLambda): Expr {
  return lambda(fn as (...xs: Column[]) => Column, fn.length >= 2 ? 2 : 1);
}

/** `transform(col, x => ...)`, or `(x, i) => ...` with the element's index. */
export const transform = (col: ColumnOrName, fn: ElementLambda) => new Column(call("transform", [toExpr(col), elementLambda(fn)]));
/** The elements for which `fn` is true (`(x) => ...` or `(x, i) => ...`). */
export const filter = (col: ColumnOrName, fn: ElementLambda) => new Column(call("filter", [toExpr(col), elementLambda(fn)]));
/** Whether `fn` holds for some element (NULL when it is NULL for one and true for none). */
export const exists = (col: ColumnOrName, fn: Lambda1) => new Column(call("exists", [toExpr(col), lambda(fn, 1)]));
/** Whether `fn` holds for every element (NULL when it is NULL for one and false for none). */
export const forall = (col: ColumnOrName, fn: Lambda1) => new Column(call("forall", [toExpr(col), lambda(fn, 1)]));

function fold(name: string, col: ColumnOrName, initialValue: ColumnOrName, merge: Lambda2, finish?: Lambda1): Column {
  const args = [toExpr(col), toExpr(initialValue), lambda(merge as (...xs: Column[]) => Column, 2)];
  if (finish) args.push(lambda(finish as (...xs: Column[]) => Column, 1));
  return new Column(call(name, args));
}
/** `aggregate(col, initialValue, (acc, x) => ..., acc => ...)`: a fold; the merge must keep the initial value's type. */
export const aggregate = (col: ColumnOrName, initialValue: ColumnOrName, merge: Lambda2, finish?: Lambda1) =>
  fold("aggregate", col, initialValue, merge, finish);
/** The same as aggregate (Spark 3.5's name). */
export const reduce = (col: ColumnOrName, initialValue: ColumnOrName, merge: Lambda2, finish?: Lambda1) =>
  fold("reduce", col, initialValue, merge, finish);
/** `zip_with(left, right, (x, y) => ...)`: element by element, the shorter array padded with NULLs. */
export const zip_with = (left: ColumnOrName, right: ColumnOrName, fn: Lambda2) =>
  new Column(call("zip_with", [toExpr(left), toExpr(right), lambda(fn as (...xs: Column[]) => Column, 2)]));

/** `map_filter(col, (k, v) => ...)`: the entries for which the test is true. */
export const map_filter = (col: ColumnOrName, fn: Lambda2) =>
  new Column(call("map_filter", [toExpr(col), lambda(fn as (...xs: Column[]) => Column, 2)]));
/** `transform_values(col, (k, v) => ...)`: the same keys, new values. */
export const transform_values = (col: ColumnOrName, fn: Lambda2) =>
  new Column(call("transform_values", [toExpr(col), lambda(fn as (...xs: Column[]) => Column, 2)]));
/** `transform_keys(col, (k, v) => ...)`: new keys (a NULL or repeated one is an error), the same values. */
export const transform_keys = (col: ColumnOrName, fn: Lambda2) =>
  new Column(call("transform_keys", [toExpr(col), lambda(fn as (...xs: Column[]) => Column, 2)]));
/** `map_zip_with(m1, m2, (k, v1, v2) => ...)`: over the keys of both (NULL for the side without one). */
export const map_zip_with = (col1: ColumnOrName, col2: ColumnOrName, fn: (k: Column, v1: Column, v2: Column) => Column) =>
  new Column(call("map_zip_with", [toExpr(col1), toExpr(col2), lambda(fn as (...xs: Column[]) => Column, 3)]));
/**
 * `array_sort(col)`: ascending, NULLs last; `array_sort(col, (l, r) => ...)` with a comparator
 * giving a negative, zero or positive INT.
 */
export const array_sort = (col: ColumnOrName, comparator?: Lambda2) =>
  new Column(call("array_sort", comparator ? [toExpr(col), lambda(comparator as (...xs: Column[]) => Column, 2)] : [toExpr(col)]));
