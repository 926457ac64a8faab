/**
 * UNION resolution: unionByName's matching of columns by name (allowMissingColumns' NULLs, Spark's
 * refusals), the column count check, and each column widened to the inputs' common type.
 */
import { AnalysisException } from "../common/errors.js";
import { castTo, ordinalNumber } from "../functions/registry.js";
import { type Attribute, alias } from "../plan/expressions.js";
import { type LogicalPlan, Plans } from "../plan/logical.js";
import { widerType } from "../types/coercion.js";
import { sqlTypeName, typesEqual } from "../types/datatypes.js";
import { outputOf } from "./types.js";

/**
 * unionByName's inputs, each projected to the output's columns by name. With
 * allowMissingColumns the output is the first input's columns, then every other column of
 * the later inputs in order, NULL where an input lacks one (Spark's); without, an input
 * lacking a column is UNRESOLVED_COLUMN_AMONG_FIELD_NAMES and one with more is
 * NUM_COLUMNS_MISMATCH (below).
 */
function byNameChildren(p: LogicalPlan & { kind: "union" }): readonly LogicalPlan[] {
  const same = (a: Attribute, b: Attribute) => a.name.toLowerCase() === b.name.toLowerCase();
  for (const c of p.children) {
    const out = outputOf(c);
    const twice = out.find((a, i) => out.findIndex((b) => same(a, b)) !== i);
    if (twice) {
      throw new AnalysisException(
        "COLUMN_ALREADY_EXISTS",
        `[COLUMN_ALREADY_EXISTS] The column \`${twice.name.toLowerCase()}\` already exists. Choose another name or rename the existing column.`,
      );
    }
  }
  const columns = [...outputOf(p.children[0]!)];
  if (p.allowMissingColumns)
    for (const c of p.children.slice(1)) for (const a of outputOf(c)) if (!columns.some((x) => same(x, a))) columns.push(a);
  return p.children.map((c, ci) => {
    const out = outputOf(c);
    if (ci === 0 && columns.length === out.length) return c;
    const list = columns.map((a) => {
      const hit = out.find((b) => same(a, b));
      if (hit) return hit;
      if (p.allowMissingColumns) return alias({ kind: "literal", value: null, type: a.type }, a.name);
      throw new AnalysisException(
        "UNRESOLVED_COLUMN_AMONG_FIELD_NAMES",
        `[UNRESOLVED_COLUMN_AMONG_FIELD_NAMES] Cannot resolve column name "${a.name}" among (${out.map((b) => b.name).join(", ")}).`,
      );
    });
    // more columns than the first input: the count check below names both (Spark's)
    return out.length > columns.length ? c : Plans.project(list, c);
  });
}

export function resolveUnion(p: LogicalPlan & { kind: "union" }): LogicalPlan {
  let children = p.children;
  if (p.byName) children = byNameChildren(p);
  const first = outputOf(children[0]!);
  const outs = children.map(outputOf);
  outs.forEach((o, i) => {
    if (o.length !== first.length) {
      throw new AnalysisException(
        "NUM_COLUMNS_MISMATCH",
        `[NUM_COLUMNS_MISMATCH] UNION can only be performed on inputs with the same number of columns, but the first input has ${first.length} columns and the ${ordinalNumber(i)} input has ${o.length} columns.`,
      );
    }
  });
  const types = first.map((a, c) => {
    let t = a.type;
    for (const o of outs) {
      const w = widerType(t, o[c]!.type);
      if (!w) {
        throw new AnalysisException(
          "INCOMPATIBLE_COLUMN_TYPE",
          `[INCOMPATIBLE_COLUMN_TYPE] UNION can only be performed on inputs with compatible column types. The ${ordinalNumber(c)} column of an input is "${sqlTypeName(o[c]!.type)}" type which is not compatible with "${sqlTypeName(t)}".`,
        );
      }
      t = w;
    }
    return t;
  });
  children = children.map((c, i) =>
    outs[i]!.every((a, k) => typesEqual(a.type, types[k]!))
      ? c
      : Plans.project(
          outs[i]!.map((a, k) => (typesEqual(a.type, types[k]!) ? a : alias(castTo(a, a.type, types[k]!), a.name))),
          c,
        ),
  );
  return Plans.union(children, false, false);
}
