/**
 * SQL's special call syntax for strings: `POSITION(substr IN str)` (locate) and
 * `TRIM([BOTH | LEADING | TRAILING] [chars] FROM str)` (trim / ltrim / rtrim with the
 * characters first, as Spark's two-argument forms take them), `EXTRACT(field FROM source)`
 * (date_part with the field as text), `SUBSTRING(str FROM pos [FOR len])` and
 * `OVERLAY(str PLACING repl FROM pos [FOR len])`.
 */
import { call, type Expr, literal } from "../plan/expressions.js";
import { StringType } from "../types/datatypes.js";
import type { Cursor } from "./cursor.js";

/** Functions taking a date-time unit as a bare word first, and the function they are. */
const UNIT_CALLS: Readonly<Record<string, string>> = {
  timestampadd: "timestampadd",
  dateadd: "timestampadd",
  date_add: "timestampadd",
  timestampdiff: "timestampdiff",
  datediff: "timestampdiff",
  date_diff: "timestampdiff",
};
const DATETIME_UNITS = new Set(
  "YEAR QUARTER MONTH WEEK DAY DAYOFYEAR HOUR MINUTE SECOND MILLISECOND MICROSECOND".split(" ").flatMap((u) => [u, `SQL_TSI_${u}`]),
);

/**
 * The call when the tokens after `name(` use the special syntax, else null with the cursor
 * where it was. `readValue` reads an expression without predicates (Spark's valueExpression).
 */
export function readStringSyntax(cur: Cursor, name: string, readValue: (c: Cursor) => Expr): Expr | null {
  const start = cur.index;
  // none of these forms is empty: `substr()` is a plain call, refused for its argument count
  if (cur.isOp(")")) return null;
  if (name === "position") {
    const substr = readValue(cur);
    if (cur.acceptKeyword("IN")) {
      const str = readValue(cur);
      cur.expectOp(")");
      return call("locate", [substr, str]);
    }
  } else if (UNIT_CALLS[name] && cur.isIdentifier() && cur.isOp(",", 1) && DATETIME_UNITS.has(cur.peek().value.toUpperCase())) {
    // timestampadd(HOUR, n, ts), datediff(DAY, a, b): the unit is a bare word, made a string
    // here; only with exactly three arguments (date_add(day, 1) is a column named day)
    const unit = literal(cur.identifier().toUpperCase(), StringType);
    const rest: Expr[] = [];
    while (cur.acceptOp(",")) rest.push(readValue(cur));
    if (rest.length === 2 && cur.acceptOp(")")) return call(UNIT_CALLS[name]!, [unit, ...rest]);
  } else if (name === "extract" && cur.isIdentifier() && cur.isKeyword("FROM", 1)) {
    const field = cur.identifier();
    cur.expectKeyword("FROM");
    const source = readValue(cur);
    cur.expectOp(")");
    return call("extract", [literal(field, StringType), source]);
  } else if (name === "substring" || name === "substr" || name === "overlay") {
    // substring(str FROM pos [FOR len]); overlay(str PLACING repl FROM pos [FOR len])
    const str = readValue(cur);
    const placing = name === "overlay" && cur.acceptKeyword("PLACING") ? readValue(cur) : null;
    if ((name !== "overlay" || placing !== null) && cur.acceptKeyword("FROM")) {
      const args = placing === null ? [str, readValue(cur)] : [str, placing, readValue(cur)];
      if (cur.acceptKeyword("FOR")) args.push(readValue(cur));
      cur.expectOp(")");
      return call(name === "overlay" ? "overlay" : "substring", args);
    }
  } else if (name === "trim") {
    const side = cur.acceptKeyword("BOTH")
      ? "trim"
      : cur.acceptKeyword("LEADING")
        ? "ltrim"
        : cur.acceptKeyword("TRAILING")
          ? "rtrim"
          : null;
    if (side !== null && cur.acceptKeyword("FROM")) return trimCall(cur, side, null, readValue);
    if (!cur.isOp(")")) {
      const chars = readValue(cur);
      if (cur.acceptKeyword("FROM")) return trimCall(cur, side ?? "trim", chars, readValue);
      if (side !== null) throw cur.error();
    }
  }
  cur.reset(start);
  return null;
}

function trimCall(cur: Cursor, fn: string, chars: Expr | null, readValue: (c: Cursor) => Expr): Expr {
  const str = readValue(cur);
  cur.expectOp(")");
  return call(fn, chars === null ? [str] : [chars, str]);
}
