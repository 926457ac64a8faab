/**
 * Lateral column aliases (Spark 3.4+, `spark.sql.lateralColumnAlias.enableImplicitResolution`,
 * on by default): a SELECT item may name an alias defined to its left in the same list —
 * `SELECT v * 2 AS d, d + 1`, `SELECT k, sum(v) AS s, s * 2 ... GROUP BY k`. A one-part name the
 * input does not have, matching an earlier alias, stands for that alias's expression; a name
 * the input has is the input's column, as in Spark.
 *
 * The expression is substituted (Spark computes it once, in a Project beneath): the same values
 * for every deterministic expression; an alias over a non-deterministic one (`rand() AS r, r * 2`)
 * is refused by name rather than drawn twice. Names a lambda binds (`x -> x + 1`) are the
 * lambda's own.
 */
import { AnalysisException } from "../common/errors.js";
import { isGeneratorCall } from "../functions/generators.js";
import { isNotFoldable } from "../functions/registry.js";
import type { Attribute, Expr } from "../plan/expressions.js";
import { alias, anyExpr, call, exprChildren, isLambda, literal, transformDown, withChildren } from "../plan/expressions.js";
import { StringType } from "../types/datatypes.js";

const nonDeterministic = (x: Expr): boolean => x.kind === "call" && isNotFoldable(x.name);

type ResolvesIn = (e: Expr, input: readonly Attribute[]) => boolean;

/** `items` with lateral alias references replaced by the aliased expressions; `items` itself when there are none. */
export function withLateralAliases(items: readonly Expr[], input: readonly Attribute[], resolvesIn: ResolvesIn): readonly Expr[] {
  const aliases = new Map<string, Expr | number>(); // a number: how many items share that alias
  let changed = false;
  const substitute = (e: Expr, bound: ReadonlySet<string>): Expr => {
    if (e.kind === "column") {
      const name = e.nameParts[0]!.toLowerCase();
      const aliased = bound.has(name) ? undefined : aliases.get(name);
      if (aliased === undefined || resolvesIn(e, input)) return e;
      if (typeof aliased === "number") {
        throw new AnalysisException(
          "AMBIGUOUS_LATERAL_COLUMN_ALIAS",
          `[AMBIGUOUS_LATERAL_COLUMN_ALIAS] Lateral column alias \`${e.nameParts[0]}\` is ambiguous and has ${aliased} matches.`,
        );
      }
      if (anyExpr(aliased, nonDeterministic)) {
        throw new AnalysisException(
          "UNSUPPORTED_FEATURE",
          `[UNSUPPORTED_FEATURE] The lateral column alias \`${e.nameParts[0]}\` names a non-deterministic expression; arus would compute it twice. Select it in a subquery first.`,
        );
      }
      changed = true;
      // Named in column names as Spark names the reference: `(lateralAliasReference(d) + 1)`
      const ref = alias(aliased, `lateralAliasReference(${e.nameParts[0]})`);
      // `s.a` over `named_struct(...) AS s`: the alias's field, named by the field as a column path
      return e.nameParts
        .slice(1)
        .reduce<Expr>((x, f) => Object.freeze({ ...call("getfield", [x, literal(f, StringType)]), bare: true }), ref);
    }
    const kids = exprChildren(e);
    if (kids.length === 0) return e;
    // A lambda's parameters are columns in its body, bound by it, not aliases.
    const inner = isLambda(e)
      ? new Set([...bound, ...kids.slice(1).map((v) => (v.kind === "lambdaVar" ? v.name.toLowerCase() : ""))])
      : bound;
    const next = kids.map((k) => substitute(k, inner));
    return next.some((k, i) => k !== kids[i]) ? withChildren(e, next) : e;
  };
  const out = items.map((item) => {
    let next = aliases.size === 0 ? item : substitute(item, new Set());
    // an item that is the reference itself is named as written (`SELECT v * 2 AS d, d`: `d`)
    if (next !== item && item.kind === "column" && item.nameParts.length === 1 && next.kind === "alias")
      next = alias(next.child, item.nameParts[0]!);
    if (next.kind === "alias" && !anyExpr(next.child, isGeneratorCall)) {
      const name = next.name.toLowerCase();
      const before = aliases.get(name);
      aliases.set(name, before === undefined ? next.child : typeof before === "number" ? before + 1 : 2);
    }
    return next;
  });
  return changed ? out : items;
}

/**
 * `e` with each one-part name the input lacks, but a SELECT item is named (`aliases`: lowercased
 * name → the item's expression), replaced by that expression: GROUP BY an alias, QUALIFY on an
 * alias. `e` itself when none applies.
 */
export function withSelectAliases(e: Expr, aliases: ReadonlyMap<string, Expr>, input: readonly Attribute[], resolvesIn: ResolvesIn): Expr {
  if (aliases.size === 0) return e;
  return transformDown(e, (x) => {
    if (x.kind !== "column" || x.nameParts.length !== 1) return x;
    const item = aliases.get(x.nameParts[0]!.toLowerCase());
    return item === undefined || resolvesIn(x, input) ? x : item;
  });
}
