/**
 * `Dataset.show()` text, byte for byte as Spark 4 prints it (Dataset.getRows + showString), and
 * the cell text of ToPrettyString.
 *
 * Cell rules (ToPrettyString): NULL → `NULL` (also nested), structs `{a, b}`, arrays `[a, b]`,
 * maps `{k -> v, k2 -> v2}`, binary as upper-case hex bytes `[01 A2]` (Spark 4's default
 * `spark.sql.binaryOutputStyle` unset → SparkStringUtils.getHexString; `[]` when empty),
 * booleans `true`/`false`, doubles as Java's Double.toString, timestamps in the session zone
 * with a trimmed fraction, dates `yyyy-MM-dd`, day-time intervals in ANSI form.
 *
 * Table rules (showString): escape meta characters, truncate data cells (not headers) to
 * `truncate` chars, width = max(3, widest) in half-width units, right-align when truncating,
 * left-align otherwise, footer when more rows exist.
 */
import type { DataType } from "../types/datatypes.js";
import { formatUnscaled } from "../types/decimal.js";
import { formatDayTimeInterval } from "../types/interval-text.js";
import { formatDate, formatTimestamp, MILLIS_PER_DAY, microsFromDate } from "./datetime/index.js";

/**
 * Java's Double.toString: plain decimal for 1e-3 <= |d| < 1e7 (always with a fraction digit,
 * `1.0`), otherwise computerized scientific notation (`1.0E10`, `1.234E-5`).
 * Digits are the shortest that round-trip, as JS and JDK 19+ (JDK-4511638) produce; the JDK 17
 * algorithm occasionally printed a longer digit string — not reproduced.
 */
export function javaDoubleToString(d: number): string {
  if (Number.isNaN(d)) return "NaN";
  if (d === Number.POSITIVE_INFINITY) return "Infinity";
  if (d === Number.NEGATIVE_INFINITY) return "-Infinity";
  if (d === 0) return Object.is(d, -0) ? "-0.0" : "0.0";
  const sign = d < 0 ? "-" : "";
  const abs = Math.abs(d);
  let [mant, expText] = abs.toExponential().split("e") as [string, string];
  if (mant.length === 1) {
    // Java never prints fewer than 2 digits: it takes the 2-digit decimal closest to the value
    // (differs from the 1-digit shortest form only for subnormals, e.g. 4.9E-324).
    const two = abs.toExponential(1);
    if (Number(two) === abs) [mant, expText] = two.split("e") as [string, string];
  }
  const digits = mant.replace(".", "").replace(/0$/, "") || "0";
  const exp = Number(expText);
  if (abs >= 1e-3 && abs < 1e7) {
    if (exp >= 0) {
      const int = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
      const frac = digits.slice(exp + 1);
      return `${sign}${int}.${frac || "0"}`;
    }
    return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || "0"}E${exp}`;
}

/**
 * Java's Float.toString: the shortest digits that identify the float among floats (JDK 19+),
 * in Double.toString's layout (`1.1`, `3.4028235E38`).
 */
export function javaFloatToString(f: number): string {
  if (!Number.isFinite(f) || f === 0) return javaDoubleToString(f);
  for (let k = 1; k <= 9; k++) {
    const d = Number(f.toPrecision(k));
    if (Math.fround(d) === f) return javaDoubleToString(d);
  }
  return javaDoubleToString(f);
}

/** BINARY as Spark prints it in show() and CSV: `[01 0A FF]`. */
export function hexBytes(b: Uint8Array): string {
  let out = "[";
  for (let i = 0; i < b.length; i++) {
    if (i > 0) out += " ";
    out += b[i]!.toString(16).toUpperCase().padStart(2, "0");
  }
  return `${out}]`;
}

function timestampMicros(v: unknown): number | bigint {
  return v instanceof Date ? microsFromDate(v) : typeof v === "bigint" ? v : Number(v);
}

function dateDays(v: unknown): number {
  return v instanceof Date ? Math.floor(v.getTime() / MILLIS_PER_DAY) : Number(v);
}

/** Cell text for a non-null value, nested values included (ToStringBase with ToPrettyString's options). */
function pretty(value: unknown, type: DataType, tz: string): string {
  switch (type.kind) {
    case "null":
      return "NULL";
    case "boolean":
      return value === true || value === 1 ? "true" : "false";
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
      return typeof value === "bigint" ? value.toString() : String(value);
    case "double":
      return javaDoubleToString(Number(value));
    case "float":
      return javaFloatToString(Number(value));
    case "decimal":
      // Plain notation with the scale's digits (`1.50`); collect()'s Decimal prints the same.
      return typeof value === "object" ? String(value) : formatUnscaled(value as number | bigint, type.scale);
    case "string":
      return String(value);
    case "timestamp":
      return formatTimestamp(timestampMicros(value), tz);
    case "date":
      return formatDate(dateDays(value));
    case "binary":
      return hexBytes(value as Uint8Array);
    case "interval":
      return formatDayTimeInterval(Number(value), type);
    case "array": {
      const parts = (value as readonly unknown[]).map((e) => formatCell(e, type.elementType, tz));
      return `[${parts.join(", ")}]`;
    }
    case "map": {
      const entries: Iterable<[unknown, unknown]> = value instanceof Map ? value : Object.entries(value as Record<string, unknown>);
      const parts: string[] = [];
      for (const [k, v] of entries) {
        parts.push(`${formatCell(k, type.keyType, tz)} -> ${formatCell(v, type.valueType, tz)}`);
      }
      return `{${parts.join(", ")}}`;
    }
    case "struct": {
      const row = value as Record<string, unknown>;
      return `{${type.fields.map((f) => formatCell(row[f.name], f.type, tz)).join(", ")}}`;
    }
  }
}

/** ToPrettyString: the text show() prints for one internal value (null/undefined → `NULL`). */
export function formatCell(value: unknown, type: DataType, tz: string): string {
  return value === null || value === undefined ? "NULL" : pretty(value, type, tz);
}

/** Escapes of the control characters SchemaUtils.escapeMetaCharacters replaces, by char code
 * (\n \r \t \f \b \v \a). */
const META: Readonly<Record<number, string>> = {
  10: "\\n",
  13: "\\r",
  9: "\\t",
  12: "\\f",
  8: "\\b",
  11: "\\v",
  7: "\\a",
};

/** SchemaUtils.escapeMetaCharacters: control characters that would break the table, as `\n` etc. */
export function escapeMetaCharacters(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x0d) continue;
    const e = META[c];
    if (e === undefined) continue;
    out += s.slice(from, i) + e;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/**
 * Display width in half-width units, as Spark's Utils.stringHalfWidth: UTF-16 length plus one
 * for each char in Spark's full-width ranges (Hangul Jamo, CJK, Hangul, compatibility
 * ideographs, full-width forms). Same ranges as Spark so column widths match exactly.
 */
export function stringHalfWidth(s: string): number {
  let w = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x1100) continue;
    if (
      c <= 0x115f ||
      (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe10 && c <= 0xfe19) ||
      (c >= 0xfe30 && c <= 0xfe6f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6)
    ) {
      w++;
    }
  }
  return w;
}

/** Cell as getRows makes it: escaped, then cut to `truncate` chars (`...` when truncate >= 4). */
function truncateCell(cell: string, truncate: number): string {
  const s = escapeMetaCharacters(cell);
  if (truncate > 0 && s.length > truncate) return truncate < 4 ? s.slice(0, truncate) : `${s.slice(0, truncate - 3)}...`;
  return s;
}

/**
 * Spark's `showString(numRows, truncate)` for the horizontal layout.
 *
 * @param headers column names (escaped, never truncated)
 * @param rows cells already formatted with formatCell; only the first `numRows` are printed
 *   (callers fetch numRows + 1 rows to learn whether more exist)
 * @param truncate 0 = no truncation and left alignment; t > 0 cuts cells to t characters and
 *   right-aligns (Spark's `truncate=true` is 20)
 * @param hasMoreRows prints `only showing top N rows` after the table
 * @returns text ending in "\n". Spark's show() prints it with println, so the console shows one
 *   more newline (a blank line after each table): callers of show() add "\n" themselves.
 */
export function showString(headers: string[], rows: string[][], numRows: number, truncate: number, hasMoreRows: boolean): string {
  const n = Math.max(0, numRows);
  const table: string[][] = [headers.map(escapeMetaCharacters), ...rows.slice(0, n).map((r) => r.map((c) => truncateCell(c, truncate)))];
  const widths = headers.map(() => 3);
  for (const row of table) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i]!, stringHalfWidth(cell));
    });
  }
  const pad = (cell: string, i: number): string => {
    const fill = " ".repeat(Math.max(0, widths[i]! - stringHalfWidth(cell)));
    return truncate > 0 ? fill + cell : cell + fill;
  };
  const sep = `+${widths.map((w) => "-".repeat(w)).join("+")}+\n`;
  const line = (row: string[]) => `|${row.map(pad).join("|")}|\n`;
  let out = sep + line(table[0]!) + sep;
  for (let r = 1; r < table.length; r++) out += line(table[r]!);
  out += sep;
  if (hasMoreRows) out += `only showing top ${n} ${n === 1 ? "row" : "rows"}\n`;
  return out;
}

/**
 * `show(n, truncate, vertical=true)`: one block per row (Spark's extended display mode),
 * `-RECORD i` padded with dashes to the block's width, ` name | value ` lines, `(0 rows)` when
 * empty, the same footer as the table otherwise.
 */
export function showVerticalString(headers: string[], rows: string[][], numRows: number, truncate: number, hasMoreRows: boolean): string {
  const n = Math.max(0, numRows);
  const names = headers.map(escapeMetaCharacters);
  const data = rows.slice(0, n).map((r) => r.map((c) => truncateCell(c, truncate)));
  const nameWidth = names.reduce((w, h) => Math.max(w, stringHalfWidth(h)), 3);
  const dataWidth = data.reduce((w, r) => Math.max(w, ...r.map(stringHalfWidth)), 3);
  const padRight = (s: string, w: number) => s + " ".repeat(Math.max(0, w - stringHalfWidth(s)));
  let out = "";
  data.forEach((row, i) => {
    out += `${`-RECORD ${i}`.padEnd(nameWidth + dataWidth + 5, "-")}\n`;
    for (let j = 0; j < row.length; j++) out += ` ${padRight(names[j]!, nameWidth)} | ${padRight(row[j]!, dataWidth)} \n`;
  });
  if (data.length === 0) out += "(0 rows)\n";
  else if (hasMoreRows) out += `only showing top ${n} ${n === 1 ? "row" : "rows"}\n`;
  return out;
}
