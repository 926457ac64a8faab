/**
 * Semantic equality of resolved expressions: the same computation over the same attributes,
 * whatever the aliases. Used to match `groupBy(expr)` with the same `expr` in `select`.
 */
import type { Expr } from "./expressions.js";

export function semanticKey(e: Expr): string {
  switch (e.kind) {
    case "attribute":
      return `#${e.exprId}`;
    case "lambdaVar":
      return `λ${e.resolved ? e.exprId : e.name}`;
    case "alias":
    case "multiAlias":
      return semanticKey(e.child);
    case "literal":
      // A BIGINT beyond ±2^53 − 1 is a bigint (columnar/int64.ts), which JSON cannot write.
      return `lit(${e.type.kind}:${typeof e.value === "bigint" ? `${e.value}n` : JSON.stringify(e.value)})`;
    case "column":
      return `col(${e.nameParts.join(".")})`;
    case "star":
      return `*${e.qualifier ?? ""}`;
    case "cast":
      return `cast(${semanticKey(e.child)}:${JSON.stringify(e.to)})`;
    case "sortOrder":
      return `sort(${semanticKey(e.child)},${e.ascending},${e.nullsFirst})`;
    case "caseWhen":
      return `case(${e.branches.map(([c, v]) => `${semanticKey(c)}=>${semanticKey(v)}`).join(";")};${e.otherwise ? semanticKey(e.otherwise) : ""})`;
    case "windowExpr":
      return `over(${semanticKey(e.fn)};${e.partitionBy.map(semanticKey).join(",")};${e.orderBy.map(semanticKey).join(",")};${JSON.stringify(e.frame)})`;
    case "call":
      return `${e.name}${e.distinct ? "!d" : ""}(${e.args.map(semanticKey).join(",")})`;
  }
}

export function semanticEquals(a: Expr, b: Expr): boolean {
  return semanticKey(a) === semanticKey(b);
}
