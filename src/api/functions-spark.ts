/** The most frequent value; ties: the first seen (Spark: unspecified), or with `deterministic` the smallest. */
export const mode = (c: ColumnOrName, deterministic?: boolean) =>
  deterministic === undefined ? fn("mode", toExpr(c)) : fn("mode", toExpr(c), literal(deterministic, BooleanType));
