/**
 * Join resolution: the ON condition is bound against both sides; `join(other, ["k"])` (USING)
 * becomes an equi-join plus a projection that keeps one `k` column, as Spark does (the left
 * key for inner/left joins, the right key for right joins, coalesce(l.k, r.k) for full joins);
 * a NATURAL JOIN is USING the columns both sides have. The keys merged away stay reachable:
 * SQL's as hidden output columns (`t2.k`), the DataFrame API's as its projection's hidden ones.
 */
import { AnalysisException } from "../common/errors.js";
import { type Attribute, alias, call, conjunction, type Expr, withAccessMark } from "../plan/expressions.js";
import { type Join, type LogicalPlan, Plans } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { sqlTypeName } from "../types/datatypes.js";
import { refuseAmbiguousSelfJoin, selfJoinEqualities, withoutSharedAttributes } from "./dedup-relations.js";
import { resolveColumn } from "./resolve-names.js";
import { outputOf, typeOf } from "./types.js";

type ResolveExpr = (e: Expr, input: readonly Attribute[]) => Expr;

export function resolveJoin(join: Join, resolveExpr: ResolveExpr): LogicalPlan {
  const p = deduplicated(join);
  const l = outputOf(p.left);
  const r = outputOf(p.right);
  if (p.natural) {
    // the columns both sides have, in the left's order; none: every pair of rows (Spark's too)
    const common = l.filter((a) => r.some((b) => b.name.toLowerCase() === a.name.toLowerCase())).map((a) => a.name);
    if (common.length === 0) return Plans.join(p.left, p.right, p.joinType, null);
    return resolveUsing(Plans.join(p.left, p.right, p.joinType, null, common, false, p.hiddenUsingKeys === true), l, r, resolveExpr);
  }
  if (p.usingColumns) return resolveUsing(p, l, r, resolveExpr);
  if (!p.condition) return p;
  const cond = resolveExpr(p.condition, [...l, ...r]);
  const t = typeOf(cond);
  if (t.kind !== "boolean") {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
      `[JOIN_CONDITION_IS_NOT_BOOLEAN_TYPE] The join condition ${exprToSql(cond)} has the invalid type "${sqlTypeName(t)}", expected "BOOLEAN".`,
    );
  }
  return Plans.rejoin(p, p.left, p.right, cond);
}

/** A plan joined with itself: its right side read under fresh attribute ids (dedup-relations.ts). */
function deduplicated(p: Join): Join {
  const { plan: right, renamed } = withoutSharedAttributes(p.right, outputOf(p.left));
  if (renamed.size === 0) return p;
  const condition = p.condition === null ? null : selfJoinEqualities(p.condition, renamed);
  if (condition !== null) refuseAmbiguousSelfJoin(condition, renamed);
  return Plans.rejoin(p, p.left, right, condition);
}

function resolveUsing(p: Join, l: readonly Attribute[], r: readonly Attribute[], resolveExpr: ResolveExpr): LogicalPlan {
  const pairs = p.usingColumns!.map((name) => {
    const lk = resolveColumn([name], l);
    const rk = resolveColumn([name], r);
    if (lk?.kind !== "attribute") {
      throw new AnalysisException(
        "UNRESOLVED_USING_COLUMN_FOR_JOIN",
        `[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column \`${name}\` cannot be resolved on the left side of the join. The left-side columns: [${l.map((a) => `\`${a.name}\``).join(", ")}].`,
      );
    }
    if (rk?.kind !== "attribute") {
      throw new AnalysisException(
        "UNRESOLVED_USING_COLUMN_FOR_JOIN",
        `[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column \`${name}\` cannot be resolved on the right side of the join. The right-side columns: [${r.map((a) => `\`${a.name}\``).join(", ")}].`,
      );
    }
    return [lk, rk] as const;
  });
  const cond = conjunction(pairs.map(([a, b]) => call("=", [a, b]) as Expr));
  const resolvedCond = resolveExpr(cond, [...l, ...r]);
  const join = Plans.join(p.left, p.right, p.joinType, resolvedCond);
  const lIds = new Set(pairs.map(([a]) => a.exprId));
  const rIds = new Set(pairs.map(([, b]) => b.exprId));
  const keys: Expr[] = pairs.map(([a, b]) => {
    switch (p.joinType) {
      case "right_outer":
        return b;
      case "full_outer":
        return resolveExpr(alias(call("coalesce", [a, b]), a.name), [...l, ...r]);
      default:
        return a;
    }
  });
  const semi = p.joinType === "left_semi" || p.joinType === "left_anti";
  // SQL keeps the key each side loses as a hidden column in its side's place (`t2.*` is t2's columns)
  const hide = p.hiddenUsingKeys === true && !semi;
  const side = (attrs: readonly Attribute[], keyIds: ReadonlySet<number>, keyShown: boolean): Attribute[] =>
    attrs.flatMap((a) => (!keyIds.has(a.exprId) ? [a] : hide && !keyShown ? [withAccessMark(a)] : []));
  const leftShown = p.joinType !== "right_outer" && p.joinType !== "full_outer";
  const rightShown = p.joinType === "right_outer";
  const restL = side(l, lIds, leftShown);
  const restR = side(r, rIds, rightShown);
  const list = semi ? [...keys, ...restL] : [...keys, ...restL, ...restR];
  if (hide || semi) return Plans.project(list, join);
  // the DataFrame API's USING join keeps them out of the output, reachable by each side's own
  // column (`b.col("k")`, `b.col("*")`) as Spark's hidden output (analyzer/hidden-columns.ts)
  const lost = [...(leftShown ? [] : pairs.map(([a]) => a)), ...(rightShown ? [] : pairs.map(([, b]) => b))];
  const joined = new Map(outputOf(join).map((a) => [a.exprId, a]));
  return Plans.projectHiding(
    list,
    join,
    lost.map((a) => withAccessMark(joined.get(a.exprId) ?? a)),
  );
}
