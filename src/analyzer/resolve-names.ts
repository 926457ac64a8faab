/**
 * Name resolution: binds `column` references to the child plan's output attributes, the way
 * Spark's resolver does (case-insensitive, optional qualifier, nested struct fields), and
 * raises Spark's UNRESOLVED_COLUMN error listing the columns that do exist.
 */
import { AnalysisException } from "../common/errors.js";
import { structFieldIndex } from "../functions/collections.js";
import { type Attribute, call, type Expr, isQualifiedAccessOnly, type LambdaVariable, literal } from "../plan/expressions.js";
import { StringType } from "../types/datatypes.js";

function eq(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function quoteIdent(s: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? `\`${s}\`` : `\`${s.replace(/`/g, "``")}\``;
}

/** Try to resolve name parts against attributes; null if nothing matches. */
export function resolveColumn(nameParts: readonly string[], input: readonly Attribute[]): Expr | null {
  // 1. qualified match: t.a (and t.a.field...)
  if (nameParts.length >= 2) {
    const [q, n] = nameParts as [string, string];
    const hits = input.filter((a) => eq(a.name, n) && a.qualifier.some((x) => eq(x, q)));
    if (hits.length > 0) return nestFields(pick(hits, nameParts.slice(0, 2)), nameParts.slice(2));
  }
  // 2. plain match on the first part, the rest are struct fields (a USING join's hidden key needs its qualifier)
  const hits = input.filter((a) => eq(a.name, nameParts[0]!) && !isQualifiedAccessOnly(a));
  if (hits.length === 0) return null;
  return nestFields(pick(hits, nameParts.slice(0, 1)), nameParts.slice(1));
}

function pick(hits: readonly Attribute[], parts: readonly string[]): Attribute {
  const exact = hits.filter((a, i) => hits.findIndex((b) => b.exprId === a.exprId) === i);
  if (exact.length > 1) {
    throw new AnalysisException(
      "AMBIGUOUS_REFERENCE",
      `[AMBIGUOUS_REFERENCE] Reference ${quoteIdent(parts.join("."))} is ambiguous, could be: [${exact
        .map((a) => quoteIdent([...a.qualifier.slice(0, 1), a.name].join(".")))
        .join(", ")}].`,
    );
  }
  return exact[0]!;
}

/** `base.f1.f2...` as getfield calls, checking each field exists (base: a column or a lambda variable). */
export function nestFields(base: Attribute | LambdaVariable, fields: readonly string[]): Expr {
  let e: Expr = base;
  let t = base.type;
  for (const f of fields) {
    if (t.kind !== "struct" || structFieldIndex(t, f) < 0) {
      throw new AnalysisException(
        "FIELD_NOT_FOUND",
        `[FIELD_NOT_FOUND] No such struct field ${quoteIdent(f)} in ${t.kind === "struct" ? t.fields.map((x) => quoteIdent(x.name)).join(", ") : `column ${quoteIdent(base.name)} of type ${t.kind}`}.`,
      );
    }
    t = t.fields[structFieldIndex(t, f)]!.type;
    // `bare`: named by the field alone, as Spark names a column path (sql-text.ts)
    e = Object.freeze({ ...call("getfield", [e, literal(f, StringType)]), bare: true });
  }
  return e;
}

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length]!;
}

/** Spark's UNRESOLVED_COLUMN error; suggestions are the closest available names. */
export function unresolvedColumn(nameParts: readonly string[], input: readonly Attribute[]): AnalysisException {
  const name = nameParts.map(quoteIdent).join(".");
  if (input.length === 0) {
    return new AnalysisException(
      "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
      `[UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] A column, variable, or function parameter with name ${name} cannot be resolved.`,
    );
  }
  const target = nameParts.join(".").toLowerCase();
  const candidates = input
    .map((a) => [...a.qualifier.slice(0, 1), a.name].map(quoteIdent).join("."))
    .filter((c, i, all) => all.indexOf(c) === i)
    .sort((x, y) => levenshtein(x.toLowerCase(), target) - levenshtein(y.toLowerCase(), target));
  return new AnalysisException(
    "UNRESOLVED_COLUMN.WITH_SUGGESTION",
    `[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with name ${name} cannot be resolved. Did you mean one of the following? [${candidates.slice(0, 5).join(", ")}].`,
  );
}
