/**
 * Filters a streaming json/csv scan takes (Spark's FileSourceStrategy: each conjunct of the
 * Filter right above the relation that DataSourceStrategy.translateFilter can translate into a
 * data source filter, applied by JsonFilters / CSVFilters while parsing). Rows a pushed filter
 * removes never leave the scan, so progress `numInputRows` does not count them.
 *
 * Translatable, as in Spark: column vs literal comparisons (=, <=>, <, <=, >, >=, either side;
 * a literal cast to a timestamp or date counts as a literal, see literalOf),
 * `!=`/`<>` (a Not of EqualTo), IS [NOT] NULL, IN over literals, startswith / endswith /
 * contains with a literal (what LikeSimplification makes of `LIKE 'ab%'` etc.), a BOOLEAN
 * column on its own (EqualTo(col, true)), and AND / OR / NOT of translatable parts.
 */

import { constantVector, getValue } from "../columnar/vector.js";
import { formatDate } from "../common/datetime/index.js";
import { javaDoubleToString } from "../common/show.js";
import { castVector } from "../functions/index.js";
import { conjuncts, type Expr, type Literal, literal } from "../plan/expressions.js";

const FLIP: Record<string, string> = { "=": "=", "<=>": "<=>", "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
const NAMES: Record<string, string> = {
  "=": "EqualTo",
  "<=>": "EqualNullSafe",
  "<": "LessThan",
  "<=": "LessThanOrEqual",
  ">": "GreaterThan",
  ">=": "GreaterThanOrEqual",
};
const STRING_PREDICATES: Record<string, string> = {
  startswith: "StringStartsWith",
  endswith: "StringEndsWith",
  contains: "StringContains",
};

/** Scala's toString of the value Spark hands the reader (CatalystTypeConverters.convertToScala). */
function scalaValue(l: Literal): string {
  const v = l.value;
  if (v === null || v === undefined) return "null";
  switch (l.type.kind) {
    case "double":
      return javaDoubleToString(v as number);
    case "boolean":
      return v ? "true" : "false";
    case "timestamp": {
      // java.sql.Timestamp.toString in the JVM zone (UTC here): fraction without trailing zeros.
      const micros = v as number;
      const ms = Math.floor(micros / 1000);
      const iso = new Date(ms).toISOString();
      const frac =
        String(((micros % 1_000_000) + 1_000_000) % 1_000_000)
          .padStart(6, "0")
          .replace(/0+$/, "") || "0";
      return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${frac}`;
    }
    case "date":
      return formatDate(v as number);
    default:
      return String(v);
  }
}

/**
 * A literal operand: a literal, or a literal cast to TIMESTAMP / DATE (`TIMESTAMP '2024-01-01
 * 00:00:10'`, `lit(s).cast('timestamp')`, a string compared with a timestamp column), which Spark
 * folds into a literal before it translates the filter. ConstantFolding leaves those casts alone
 * when they depend on the session time zone, which the planner does not know: the pushed
 * expression keeps the cast (the scan evaluates it in the session zone), and the explain text
 * shows its value read in UTC, the wall-clock time written when the JVM and session zones agree.
 */
function literalOf(e: Expr): Literal | null {
  if (e.kind === "literal") return e;
  if (e.kind !== "cast" || e.child.kind !== "literal" || !["timestamp", "date"].includes(e.to.kind)) return null;
  const c = e.child;
  try {
    const ctx = { timeZone: "UTC", batchTimestampMs: 0, watermarkMs: 0, ansi: false };
    return literal(getValue(castVector(constantVector(c.type, c.value, 1), e.to, 1, ctx), 0), e.to);
  } catch {
    return null;
  }
}

/** The data source filter Spark translates `e` into (its toString, as explain prints it), or null. */
export function translateFilter(e: Expr): string | null {
  if (e.kind === "attribute") return e.type.kind === "boolean" ? `EqualTo(${e.name},true)` : null;
  if (e.kind === "literal" && e.type.kind === "boolean" && e.value !== null) return e.value ? "AlwaysTrue()" : "AlwaysFalse()";
  if (e.kind !== "call") return null;
  const [a, b] = e.args;
  if (NAMES[e.name] && a && b) {
    const [la, lb] = [literalOf(a), literalOf(b)];
    if (a.kind === "attribute" && lb) return `${NAMES[e.name]}(${a.name},${scalaValue(lb)})`;
    if (la && b.kind === "attribute") return `${NAMES[FLIP[e.name]!]}(${b.name},${scalaValue(la)})`;
    return null;
  }
  switch (e.name) {
    case "!=": {
      const inner = a && b ? translateFilter({ ...e, name: "=" }) : null;
      return inner ? `Not(${inner})` : null;
    }
    case "isnull":
      return a?.kind === "attribute" ? `IsNull(${a.name})` : null;
    case "isnotnull":
      return a?.kind === "attribute" ? `IsNotNull(${a.name})` : null;
    case "in": {
      const list = e.args.slice(1).map(literalOf);
      if (a?.kind !== "attribute" || !list.every((x) => x !== null)) return null;
      // Spark sorts the formatted values for a deterministic string.
      const values = [...new Set(list.map((x) => scalaValue(x as Literal)))].sort();
      return `In(${a.name}, [${values.join(",")}])`;
    }
    case "startswith":
    case "endswith":
    case "contains":
      return a?.kind === "attribute" && b?.kind === "literal" && b.type.kind === "string"
        ? `${STRING_PREDICATES[e.name]}(${a.name},${b.value as string})`
        : null;
    case "and":
    case "or": {
      const parts = e.args.map(translateFilter);
      if (parts.some((x) => x === null)) return null;
      const op = e.name === "and" ? "And" : "Or";
      return parts.reduce((x, y) => `${op}(${x},${y})`) as string;
    }
    case "not": {
      const inner = a ? translateFilter(a) : null;
      return inner ? `Not(${inner})` : null;
    }
    default:
      return null;
  }
}

/** The conjuncts of a scan's filter condition Spark pushes, with their explain text. */
export function pushedConjuncts(condition: Expr): { expr: Expr; text: string }[] {
  const out: { expr: Expr; text: string }[] = [];
  for (const c of conjuncts(condition)) {
    const text = translateFilter(c);
    if (text !== null) out.push({ expr: c, text });
  }
  return out;
}
