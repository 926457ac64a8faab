/**
 * Split a join condition into equi-join key pairs (`l.a = r.b` where each side refers to one
 * input only) and a residual condition evaluated on the joined rows.
 */
import { type Attribute, collectAttributes, conjunction, conjuncts, type Expr } from "./expressions.js";

export function extractEquiKeys(
  cond: Expr | null,
  left: readonly Attribute[],
  right: readonly Attribute[],
): { leftKeys: Expr[]; rightKeys: Expr[]; residual: Expr | null } {
  const leftKeys: Expr[] = [];
  const rightKeys: Expr[] = [];
  const rest: Expr[] = [];
  const lIds = new Set(left.map((a) => a.exprId));
  const rIds = new Set(right.map((a) => a.exprId));
  const side = (e: Expr): "l" | "r" | null => {
    const ids = collectAttributes(e).map((a) => a.exprId);
    if (ids.length === 0) return null;
    if (ids.every((i) => lIds.has(i))) return "l";
    if (ids.every((i) => rIds.has(i))) return "r";
    return null;
  };
  for (const c of cond ? conjuncts(cond) : []) {
    if (c.kind === "call" && c.name === "=") {
      const [a, b] = c.args as [Expr, Expr];
      const sa = side(a);
      const sb = side(b);
      if (sa === "l" && sb === "r") {
        leftKeys.push(a);
        rightKeys.push(b);
        continue;
      }
      if (sa === "r" && sb === "l") {
        leftKeys.push(b);
        rightKeys.push(a);
        continue;
      }
    }
    rest.push(c);
  }
  const residual = rest.length === 0 ? null : conjunction(rest);
  return { leftKeys, rightKeys, residual };
}
