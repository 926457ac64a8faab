/**
 * format_number (Java's DecimalFormat, HALF_EVEN on the exact value) and format_string / printf
 * (Java's Formatter, over the values Spark hands it). Numbers are carried as an exact decimal
 * (unscaled BigInt and scale) so rounding never goes through a binary double.
 */

import { AnalysisException, IllegalArgumentException } from "../common/errors.js";
import { formatDouble } from "../common/number-format.js";
import { javaFloatToString } from "../common/show.js";
import { type DataType, IntegerType, isAtomic, isIntegral, isNumeric, StringType } from "../types/datatypes.js";
import { formatUnscaled } from "../types/decimal.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction, typeMismatch } from "./registry.js";

const S = StringType;

/** An exact decimal: value = (neg ? -1 : 1) * unscaled / 10^scale. */
interface Dec {
  neg: boolean;
  unscaled: bigint;
  scale: number;
}

/** The exact value of a double (every double is a finite decimal). */
function exactOfDouble(x: number): Dec {
  let m = Math.abs(x);
  let k = 0;
  while (!Number.isInteger(m)) {
    m *= 2; // exact: only the exponent changes
    k++;
  }
  return { neg: x < 0, unscaled: BigInt(m) * 5n ** BigInt(k), scale: k };
}

/** The shortest decimal that reads back as x (Java's Double.toString digits), as Formatter uses. */
function shortestOfDouble(x: number): Dec {
  const [mant, exp] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mant.replace(".", "");
  const scale = digits.length - 1 - Number(exp);
  return scale >= 0
    ? { neg: x < 0, unscaled: BigInt(digits), scale }
    : { neg: x < 0, unscaled: BigInt(digits) * 10n ** BigInt(-scale), scale: 0 };
}

/** `d` rounded to `places` fraction digits, HALF_EVEN or HALF_UP; the result has scale `places`. */
function roundTo(d: Dec, places: number, mode: "even" | "up"): Dec {
  if (d.scale <= places) return { ...d, unscaled: d.unscaled * 10n ** BigInt(places - d.scale), scale: places };
  const div = 10n ** BigInt(d.scale - places);
  let q = d.unscaled / div;
  const twice = (d.unscaled % div) * 2n;
  if (twice > div || (twice === div && (mode === "up" || q % 2n === 1n))) q++;
  return { neg: d.neg, unscaled: q, scale: places };
}

function group(intDigits: string, size: number): string {
  if (size <= 0) return intDigits;
  let out = "";
  for (let i = intDigits.length; i > 0; i -= size) out = intDigits.slice(Math.max(0, i - size), i) + (out ? `,${out}` : "");
  return out;
}

/** Digits of a Dec with scale `places` as "int.frac", the integer part at least `minInt` digits. */
function plain(d: Dec, groupSize: number, minInt = 1): string {
  const s = d.unscaled.toString().padStart(d.scale + minInt, "0");
  const int = group(s.slice(0, s.length - d.scale), groupSize);
  return d.scale > 0 ? `${int}.${s.slice(s.length - d.scale)}` : int;
}

/** The DecimalFormat patterns arus reads: `#,##0.00##` shapes (grouping, minimum and maximum digits). */
function parsePattern(p: string): { groupSize: number; minInt: number; minFrac: number; maxFrac: number } {
  if (p === "") return { groupSize: 3, minInt: 1, minFrac: 0, maxFrac: 0 };
  const m = /^([#,0]*)(?:\.([#0]*))?$/.exec(p);
  if (!m) throw new IllegalArgumentException(`format_number: arus reads patterns of '#', '0', ',' and '.', not '${p}'`);
  const int = m[1]!;
  const frac = m[2] ?? "";
  const comma = int.lastIndexOf(",");
  return {
    groupSize: comma < 0 ? 0 : int.length - comma - 1,
    // Java's DecimalFormat: a pattern without any '0' ('#.##') keeps one integer digit ("0.5");
    // otherwise the integer part's zeros are the minimum ('#,###.0' prints ".5").
    minInt: /0/.test(p) ? (int.match(/0/g) ?? []).length : 1,
    minFrac: (frac.match(/0/g) ?? []).length,
    maxFrac: frac.length,
  };
}

function decOf(v: unknown, t: DataType, exact: boolean): Dec {
  if (t.kind === "decimal") {
    const u = BigInt(v as number | bigint);
    return { neg: u < 0n, unscaled: u < 0n ? -u : u, scale: t.scale };
  }
  if (typeof v === "bigint") return { neg: v < 0n, unscaled: v < 0n ? -v : v, scale: 0 };
  return exact ? exactOfDouble(v as number) : shortestOfDouble(v as number);
}

/** format_number(x, d | pattern): `#,###,##0.` with d digits, HALF_EVEN; NULL when d < 0. */
function formatNumber(v: unknown, t: DataType, spec: number | string): string | null {
  if (typeof spec === "number" && spec < 0) return null;
  if (typeof v === "number" && !Number.isFinite(v)) return Number.isNaN(v) ? "NaN" : v < 0 ? "-∞" : "∞";
  const p = typeof spec === "number" ? { groupSize: 3, minInt: 1, minFrac: spec, maxFrac: spec } : parsePattern(spec);
  const d = decOf(v, t, true);
  let r = roundTo(d, p.maxFrac, "even");
  // Trailing zeros past the minimum fraction digits are dropped (`#` digits).
  while (r.scale > p.minFrac && r.unscaled % 10n === 0n) r = { ...r, unscaled: r.unscaled / 10n, scale: r.scale - 1 };
  return (d.neg ? "-" : "") + plain(r, p.groupSize, p.minInt);
}

const formatNumberFn: ScalarFunction = {
  kind: "scalar",
  name: "format_number",
  resolve(args, types, call) {
    checkArity("format_number", args, 2);
    if (!isNumeric(types[0]!) && types[0]!.kind !== "null") throw typeMismatch(call, 0, '"NUMERIC"', args[0]!, types[0]!);
    const t1 = types[1]!;
    if (t1.kind !== "string" && !isIntegral(t1) && t1.kind !== "null") throw typeMismatch(call, 1, '("INT" or "STRING")', args[1]!, t1);
    return { args: [args[0]!, t1.kind === "string" ? args[1]! : castTo(args[1]!, t1, IntegerType)], type: S };
  },
  kernel: (args, n) => mapRows(S, args, n, (v, spec) => formatNumber(v, args[0]!.type, spec as number | string)),
};

// ---- format_string / printf

/** A Java format specifier; a `%` that starts none is Java's UnknownFormatConversionException. */
const SPEC = /%(\d+\$)?([-#+ 0,(<]*)(\d+)?(\.\d+)?([a-zA-Z%])|%/g;
/** Java's conversions: the ones arus does not run are refused by name, the others are unknown to Java too. */
const JAVA_CONVERSIONS = "bBhHsScCdoxXeEfgGaAtTn%";

/** The Java class Spark hands the Formatter for a value of type t (for Java's error text). */
function javaClass(t: DataType): string {
  const classes: Record<string, string> = {
    string: "org.apache.spark.unsafe.types.UTF8String",
    double: "java.lang.Double",
    float: "java.lang.Float",
    decimal: "org.apache.spark.sql.types.Decimal",
    boolean: "java.lang.Boolean",
    tinyint: "java.lang.Byte",
    smallint: "java.lang.Short",
    int: "java.lang.Integer",
    date: "java.lang.Integer",
    bigint: "java.lang.Long",
    timestamp: "java.lang.Long",
  };
  return classes[t.kind] ?? t.kind;
}

const BITS: Record<string, number> = { tinyint: 8, smallint: 16, int: 32, date: 32 };

function javaString(v: unknown, t: DataType): string {
  if (v === null) return "null";
  if (t.kind === "double") return formatDouble(v as number);
  if (t.kind === "float") return javaFloatToString(v as number);
  if (t.kind === "decimal") return formatUnscaled(v as bigint | number, t.scale);
  if (t.kind === "boolean") return v ? "true" : "false";
  return String(v);
}

function applyFlags(body: string, neg: boolean, flags: string, width: number, numeric: boolean): string {
  const sign = neg ? "-" : flags.includes("+") && numeric ? "+" : flags.includes(" ") && numeric ? " " : "";
  let s = sign + body;
  if (s.length >= width) return s;
  if (flags.includes("-")) return s.padEnd(width);
  if (flags.includes("0") && numeric) s = sign + body.padStart(width - sign.length, "0");
  return s.padStart(width);
}

/** One conversion of Java's Formatter: s S d x X o f e E c b B. */
function convert(conv: string, flags: string, width: number, precision: number | undefined, v: unknown, t: DataType): string {
  const bad = () => new IllegalArgumentException(`IllegalFormatConversionException: ${conv} != ${javaClass(t)}`);
  const lower = conv.toLowerCase();
  if (v === null || lower === "s" || lower === "b") {
    let s = lower === "b" ? String(v !== null && (t.kind !== "boolean" || Boolean(v))) : javaString(v, t);
    if (precision !== undefined) s = s.slice(0, precision);
    if (conv !== lower) s = s.toUpperCase();
    return applyFlags(s, false, flags, width, false);
  }
  if (lower === "d" || lower === "x" || lower === "o") {
    if (!isIntegral(t) && t.kind !== "date" && t.kind !== "timestamp") throw bad();
    const b = BigInt(v as number | bigint);
    if (lower === "d") return applyFlags(group((b < 0n ? -b : b).toString(), flags.includes(",") ? 3 : 0), b < 0n, flags, width, true);
    const digits = BigInt.asUintN(BITS[t.kind] ?? 64, b).toString(lower === "x" ? 16 : 8);
    return applyFlags(conv === "X" ? digits.toUpperCase() : digits, false, flags, width, true);
  }
  if (lower === "c") {
    if (!isIntegral(t) || t.kind === "date") throw bad();
    return applyFlags(String.fromCodePoint(Number(v)), false, flags, width, false);
  }
  if (lower === "f" || lower === "e") {
    if (t.kind !== "double" && t.kind !== "float") throw bad();
    const x = v as number;
    if (!Number.isFinite(x)) return applyFlags(Number.isNaN(x) ? "NaN" : "Infinity", x < 0, flags, width, false);
    const d = shortestOfDouble(x);
    const places = precision ?? 6;
    if (lower === "f") return applyFlags(plain(roundTo(d, places, "up"), flags.includes(",") ? 3 : 0), d.neg, flags, width, true);
    let exp = d.unscaled === 0n ? 0 : d.unscaled.toString().length - 1 - d.scale;
    let r = roundTo(d, places - exp, "up");
    if (r.unscaled.toString().length > places + 1) r = roundTo({ ...d }, places - ++exp, "up");
    const mant = r.unscaled.toString().padStart(places + 1, "0");
    const e = `${conv}${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
    return applyFlags(`${mant[0]}${places > 0 ? `.${mant.slice(1)}` : ""}${e}`, d.neg, flags, width, true);
  }
  throw new IllegalArgumentException(
    `format_string: arus does not support the conversion '%${conv}' (supported: %s %S %d %x %X %o %f %e %E %c %b %B %n %%)`,
  );
}

/** Java's String.format over Spark's values. */
export function formatString(fmt: string, values: readonly unknown[], types: readonly DataType[]): string {
  let next = 0;
  return fmt.replace(
    SPEC,
    (whole, index: string | undefined, flags = "", width: string | undefined, prec: string | undefined, conv: string | undefined) => {
      if (conv === undefined || !JAVA_CONVERSIONS.includes(conv)) {
        throw new IllegalArgumentException(`UnknownFormatConversionException: Conversion = '${conv ?? "%"}'`);
      }
      if (conv === "%") return applyFlags("%", false, flags, Number(width ?? 0), false);
      if (conv === "n") return "\n";
      if (flags.includes("#") || flags.includes("(") || flags.includes("<")) {
        throw new IllegalArgumentException(`format_string: arus does not support the flags of '${whole}'`);
      }
      const at = index ? Number(index.slice(0, -1)) - 1 : next++;
      if (at >= values.length) throw new IllegalArgumentException(`MissingFormatArgumentException: Format specifier '${whole}'`);
      const precision = prec === undefined ? undefined : Number(prec.slice(1));
      return convert(conv, flags, Number(width ?? 0), precision, values[at] ?? null, types[at]!);
    },
  );
}

function formatStringFn(name: string): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types) {
      checkArity(name, args, 1, Infinity);
      types.forEach((t, i) => {
        if (!isAtomic(t)) {
          throw new AnalysisException(
            "UNSUPPORTED_FEATURE",
            `[UNSUPPORTED_FEATURE] ${name}: arus formats atomic values only, not the ${t.kind} argument ${i + 1}.`,
          );
        }
      });
      return { args: [castTo(args[0]!, types[0]!, S), ...args.slice(1)], type: S };
    },
    kernel: (args, n) =>
      mapRows(
        S,
        args,
        n,
        (fmt, ...values) =>
          fmt === null
            ? null
            : formatString(
                fmt as string,
                values,
                args.slice(1).map((a) => a.type),
              ),
        false,
      ),
  };
}

register(formatNumberFn, formatStringFn("format_string"), formatStringFn("printf"));
