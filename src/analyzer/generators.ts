/**
 * Generators in a query (Spark's ExtractGenerator and ResolveGenerate): a generator at the top of
 * a SELECT item (`select(id, explode(arr).alias("x"))`) becomes a Generate node under the
 * Project, the item its output columns; several generators stack one Generate per generator, the
 * first outermost in the row order (each row of the first is repeated for every row of the
 * next), as Spark 4 does. In `groupBy(...).agg(...)` one generator runs over the aggregated rows.
 * A generator anywhere else is an error with Spark's class.
 */

import { AnalysisException } from "../common/errors.js";
import { generatorOf, isGeneratorCall } from "../functions/generators.js";
import {
  type Alias,
  type Attribute,
  alias,
  anyExpr,
  attribute,
  type Call,
  type Expr,
  type MultiAlias,
  multiAlias,
  withChildren,
} from "../plan/expressions.js";
import { type Aggregate, type Generate, type LogicalPlan, Plans } from "../plan/logical.js";
import { exprToSql } from "../plan/sql-text.js";
import { outputOf, typeOf } from "./types.js";
import { hasAggregateOutsideWindow } from "./window-rules.js";

type ResolveExpr = (e: Expr, input: readonly Attribute[]) => Expr;

/** The generator and the names given to it, when `e` is a SELECT item that is one. */
function generatorItem(e: Expr): { gen: Call; names: readonly string[] } | null {
  if (isGeneratorCall(e)) return { gen: e as Call, names: [] };
  if (e.kind === "alias" && isGeneratorCall(e.child)) return { gen: e.child as Call, names: [e.name] };
  if (e.kind === "multiAlias") {
    if (isGeneratorCall(e.child)) return { gen: e.child as Call, names: e.names };
    throw new AnalysisException(
      "MULTI_ALIAS_WITHOUT_GENERATOR",
      `[MULTI_ALIAS_WITHOUT_GENERATOR] Multi part aliasing (${e.names.join(", ")}) is not supported with "${exprToSql(e.child)}" as it is not a generator function.`,
    );
  }
  return null;
}

const hasGenerator = (e: Expr) => anyExpr(e, (x) => isGeneratorCall(x) || x.kind === "multiAlias");

function nestedError(e: Expr): AnalysisException {
  const shown = e.kind === "alias" ? e.child : e;
  return new AnalysisException(
    "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS",
    `[UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS] The generator is not supported: nested in expressions "${exprToSql(shown)}".`,
  );
}

/** A generator call met outside a SELECT item (WHERE, ORDER BY, GROUP BY, a join condition). */
export function generatorOutsideSelect(e: Call): AnalysisException {
  return new AnalysisException(
    "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT",
    `[UNSUPPORTED_GENERATOR.OUTSIDE_SELECT] The generator is not supported: outside the SELECT clause, found: ${exprToSql(e)}.`,
  );
}

/**
 * A SELECT list (stars expanded) over `child`: null when it holds no generator, else the Project
 * over the Generate nodes, its other items resolved against `child` (so a generated column
 * named like a child column cannot capture them).
 */
export function liftGenerators(items: readonly Expr[], child: LogicalPlan, resolveExpr: ResolveExpr): LogicalPlan | null {
  if (!items.some(hasGenerator)) return null;
  // `select(explode(a), count(x))` is a global aggregate first, as in Spark (which then finds `a` ungrouped).
  if (items.some((e) => !generatorItem(e) && hasAggregateOutsideWindow(e))) return Plans.aggregate([], items, child);
  const input = outputOf(child);
  let plan = child;
  // Each generator item's columns, the Generates chained in item order.
  const generated = new Map<number, readonly Attribute[]>();
  items.forEach((e, i) => {
    const g = generatorItem(e);
    if (g) {
      // Its arguments see the SELECT's input too, not the columns an earlier generator added.
      for (const a of g.gen.args) if (hasGenerator(a)) throw nestedError(g.gen);
      const bound = withChildren(
        g.gen,
        g.gen.args.map((a) => resolveExpr(a, input)),
      ) as Call;
      const gen = resolveGenerate(Plans.generate(bound, false, g.names, null, null, plan), resolveExpr);
      generated.set(i, gen.generatorOutput!);
      plan = gen;
    } else if (hasGenerator(e)) throw nestedError(e);
  });
  // The other items see the generators' columns too, wherever they stand (`explode(a) AS e, e + 1`,
  // as Spark's ExtractGenerator resolves them over the Generate); a name the input has stays its.
  const inputNames = new Set(input.map((a) => a.name.toLowerCase()));
  const extra = [...generated.values()].flat().filter((a) => !inputNames.has(a.name.toLowerCase()));
  const scope = extra.length === 0 ? input : [...input, ...extra];
  const list = items.flatMap((e, i): Expr[] => [...(generated.get(i) ?? [resolveExpr(e, scope)])]);
  return Plans.project(list, plan);
}

/** Binds a Generate's arguments and makes its output attributes (names, types, nullability). */
export function resolveGenerate(p: Generate, resolveExpr: ResolveExpr): Generate {
  if (p.generatorOutput) return p;
  const input = outputOf(p.child);
  for (const a of p.generator.args) if (hasGenerator(a)) throw nestedError(p.generator);
  const found = generatorOf(p.generator.name);
  if (!found) {
    throw new AnalysisException(
      "UNSUPPORTED_GENERATOR.NOT_GENERATOR",
      `[UNSUPPORTED_GENERATOR.NOT_GENERATOR] The generator is not supported: \`${p.generator.name}\` is expected to be a generator. However, it is not a generator.`,
    );
  }
  const args = p.generator.args.map((a) => resolveExpr(a, input));
  const r = found.def.resolve(p.generator, args, args.map(typeOf));
  const outer = p.outer || found.outer;
  if (p.names.length > 0 && p.names.length !== r.fields.length) {
    throw new AnalysisException(
      "UDTF_ALIAS_NUMBER_MISMATCH",
      `[UDTF_ALIAS_NUMBER_MISMATCH] The number of aliases supplied in the AS clause does not match the number of columns output by the UDTF. Expected ${r.fields.length} aliases, but got ${p.names.join(", ")}.`,
    );
  }
  const qualifier = p.qualifier ? [p.qualifier] : [];
  const output = r.fields.map((f, i) => attribute(p.names[i] ?? f.name, f.type, f.nullable || outer, { qualifier }));
  const generator = withChildren(p.generator, r.args) as Call;
  return Plans.generate(generator, outer, p.names, p.qualifier, output, p.child, p.unrequiredChildIndex);
}

/**
 * `groupBy(k).agg(explode(collect_list(v)))`: the generator's inputs are aggregated (as
 * `_gen_input_N`) and the generator runs in a Project above, which liftGenerators then lifts.
 * Null when the aggregate list holds no generator.
 */
export function liftAggregateGenerator(p: Aggregate, resolveAggregate: (agg: Aggregate) => LogicalPlan): LogicalPlan | null {
  if (!p.aggregateExprs.some(hasGenerator)) return null;
  const items = p.aggregateExprs.map((e) => ({ e, g: generatorItem(e) }));
  const found = items.filter((x) => x.g !== null);
  if (found.length > 1) {
    throw new AnalysisException(
      "UNSUPPORTED_GENERATOR.MULTI_GENERATOR",
      `[UNSUPPORTED_GENERATOR.MULTI_GENERATOR] The generator is not supported: only one generator allowed per SELECT clause but found ${found.length}: ${found.map((x) => `"${exprToSql(x.g!.gen)}"`).join(", ")}.`,
    );
  }
  // Each item's position in the new aggregate list (a generator: its inputs').
  const aggList: Expr[] = [];
  const at: number[][] = [];
  for (const { e, g } of items) {
    if (!g) {
      if (hasGenerator(e)) throw nestedError(e);
      at.push([aggList.length]);
      aggList.push(e);
      continue;
    }
    at.push(g.gen.args.map((a, i) => (a.kind === "literal" ? -1 : aggList.push(alias(a, `_gen_input_${i}`)) - 1)));
  }
  const agg = resolveAggregate(Plans.aggregate(p.groupingExprs, aggList, p.child));
  const out = outputOf(agg);
  const above = items.map(({ g }, k) => {
    if (!g) return out[at[k]![0]!]!;
    const gen = withChildren(
      g.gen,
      g.gen.args.map((a, i) => (at[k]![i]! < 0 ? a : out[at[k]![i]!]!)),
    );
    return named(gen, g.names);
  });
  return Plans.project(above, agg);
}

function named(gen: Expr, names: readonly string[]): Expr | Alias | MultiAlias {
  if (names.length === 0) return gen;
  return names.length === 1 ? alias(gen, names[0]!) : multiAlias(gen, names);
}
