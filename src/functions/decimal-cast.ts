/**
 * Casts to and from DECIMAL(p, s) (Spark's Cast on DecimalType): HALF_UP rounding when digits
 * drop, overflow → NULL (legacy) or NUMERIC_VALUE_OUT_OF_RANGE (ANSI); decimal → integral
 * truncates toward zero (CAST_OVERFLOW in ANSI mode, wraps otherwise); decimal → double is the
 * nearest double. Number-lane columns (p <= 15) cast without a bigint per row.
 */
import { allocValues, makeVector, type Vector } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import type { DataType, DecimalType } from "../types/datatypes.js";
import { sqlTypeName } from "../types/datatypes.js";
import {
  fitsPrecision,
  formatUnscaled,
  fromDouble,
  javaBigDecimalString,
  POW10_NUM,
  parseDecimal,
  rescale,
  toDouble,
  toLane,
  truncToInteger,
  unscaledOf,
  usesNumberLane,
} from "../types/decimal.js";
import type { EvalContext } from "./registry.js";

/** Spark's NUMERIC_VALUE_OUT_OF_RANGE for a value that does not fit DECIMAL(p, s). */
export function decimalOverflow(text: string, t: DecimalType): ArusError {
  return new ArusError(
    "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
    `[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION]  ${text} cannot be represented as Decimal(${t.precision}, ${t.scale}). ` +
      `If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error, and return NULL instead.`,
  );
}

function castOverflow(text: string, from: DataType, to: DataType): ArusError {
  return new ArusError(
    "CAST_OVERFLOW",
    `[CAST_OVERFLOW] The value ${text} of the type "${sqlTypeName(from)}" cannot be cast to "${sqlTypeName(to)}" due to an overflow. ` +
      `Use \`try_cast\` to tolerate overflow and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}

function invalidDecimalInput(s: string, to: DecimalType): ArusError {
  return new ArusError(
    "CAST_INVALID_INPUT",
    `[CAST_INVALID_INPUT] The value '${s}' of the type "STRING" cannot be cast to "${sqlTypeName(to)}" because it is malformed. ` +
      "Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead.",
  );
}

/** Can a cast between `from` and `to` involve a decimal? (Only called when one side is DECIMAL.) */
export function canCastDecimal(from: DataType, to: DataType): boolean {
  const ok = ["null", "boolean", "int", "bigint", "double", "decimal", "string", "float", "smallint", "tinyint"];
  if (from.kind === "decimal" && to.kind === "timestamp") return true; // seconds since the epoch
  return ok.includes(from.kind) && ok.includes(to.kind);
}

/** One non-null internal value cast to DECIMAL `to`; undefined = malformed, null = overflow. */
export function valueToDecimal(v: unknown, from: DataType, to: DecimalType): bigint | null | undefined {
  switch (from.kind) {
    case "decimal": {
      const u = rescale(unscaledOf(v), from.scale, to.scale);
      return fitsPrecision(u, to.precision) ? u : null;
    }
    case "string":
      return parseDecimal(v as string, to.precision, to.scale);
    case "boolean":
      return rescale(v ? 1n : 0n, 0, to.scale);
    case "double":
    case "float":
      return fromDouble(v as number, to.precision, to.scale);
    default: {
      // Integral types.
      const u = rescale(unscaledOf(v), 0, to.scale);
      return fitsPrecision(u, to.precision) ? u : null;
    }
  }
}

function sourceText(v: unknown, from: DataType): string {
  if (from.kind === "decimal") return formatUnscaled(unscaledOf(v), from.scale);
  return String(v);
}

/** CAST(v AS DECIMAL(p, s)); `onError: "null"` is TRY_CAST. */
export function castToDecimal(v: Vector, to: DecimalType, n: number, ctx: EvalContext, onError: "throw" | "null"): Vector {
  const from = v.type;
  const raise = ctx.ansi && onError === "throw";
  const out = allocValues(to, n);
  let validity: Uint8Array | null = v.validity ? v.validity.slice(0, n) : null;
  const setNull = (i: number) => {
    validity ??= new Uint8Array(n).fill(1);
    validity[i] = 0;
  };
  // Fast path: integers (or a number-lane decimal with a smaller scale) into a number lane.
  // BIGINT values are doubles holding integers; below 10^15 their product with 10^s is exact.
  const intLike =
    from.kind === "int" ||
    from.kind === "smallint" ||
    from.kind === "tinyint" ||
    (from.kind === "bigint" && v.values instanceof Float64Array);
  if (usesNumberLane(to) && (intLike || (from.kind === "decimal" && usesNumberLane(from) && from.scale <= to.scale))) {
    const f = POW10_NUM[to.scale - (from.kind === "decimal" ? from.scale : 0)]!;
    const lim = POW10_NUM[to.precision]!;
    const src = v.values as Float64Array | Int32Array;
    const dst = out as Float64Array;
    for (let i = 0; i < n; i++) {
      if (validity !== null && validity[i] === 0) continue;
      const u = src[i]! * f;
      if (u >= lim || u <= -lim) {
        if (raise) throw decimalOverflow(sourceText(src[i], from), to);
        setNull(i);
      } else dst[i] = u;
    }
    return makeVector(to, out, validity, n);
  }
  const vals = v.values as ArrayLike<unknown>;
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    const x = from.kind === "boolean" ? (vals as Uint8Array)[i] === 1 : vals[i];
    const u = valueToDecimal(x, from, to);
    if (u === undefined || u === null) {
      if (u === undefined && onError === "throw" && ctx.ansi) throw invalidDecimalInput(String(x), to);
      if (u === null && raise) throw decimalOverflow(sourceText(x, from), to);
      setNull(i);
    } else (out as unknown[])[i] = toLane(u, to);
  }
  return makeVector(to, out, validity, n);
}

const INT_RANGE: Readonly<Record<string, [bigint, bigint, number]>> = {
  tinyint: [-128n, 127n, 8],
  smallint: [-32768n, 32767n, 16],
  int: [-2147483648n, 2147483647n, 32],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n, 64],
};

/** One non-null decimal value cast to a non-decimal type; undefined = overflow. */
export function decimalToValue(v: unknown, from: DecimalType, to: DataType, ansi: boolean): unknown {
  const u = unscaledOf(v);
  switch (to.kind) {
    case "string":
      // Spark's ToStringBase: plain text in ANSI mode, BigDecimal.toString otherwise.
      return ansi ? formatUnscaled(u, from.scale) : javaBigDecimalString(u, from.scale);
    case "double":
      return toDouble(typeof v === "number" ? v : u, from.scale);
    case "float":
      return Math.fround(toDouble(u, from.scale));
    case "boolean":
      return u !== 0n ? 1 : 0;
    case "timestamp": {
      // seconds since the epoch, exactly: microseconds truncated toward zero (BigDecimal.longValue)
      const micros = (BigInt(u) * 1_000_000n) / 10n ** BigInt(from.scale);
      if (micros > BigInt(Number.MAX_SAFE_INTEGER) || micros < -BigInt(Number.MAX_SAFE_INTEGER)) {
        throw new ArusError(
          "UNSUPPORTED_FEATURE.EXACT_64_BIT",
          `[UNSUPPORTED_FEATURE.EXACT_64_BIT] CAST(${formatUnscaled(u, from.scale)}BD AS TIMESTAMP) is beyond the timestamps arus computes exactly (±2^53 µs).`,
        );
      }
      return Number(micros);
    }
    default: {
      const range = INT_RANGE[to.kind];
      if (!range) return undefined;
      const t = truncToInteger(u, from.scale);
      if (t < range[0] || t > range[1]) {
        if (ansi) throw castOverflow(`${formatUnscaled(u, from.scale)}BD`, from, to);
        return Number(BigInt.asIntN(range[2], t));
      }
      return Number(t);
    }
  }
}

/** CAST(decimal AS t) for a non-decimal t. */
export function castFromDecimal(v: Vector, to: DataType, n: number, ctx: EvalContext, onError: "throw" | "null"): Vector {
  const from = v.type as DecimalType;
  const out = allocValues(to, n);
  let validity: Uint8Array | null = v.validity ? v.validity.slice(0, n) : null;
  const vals = v.values as ArrayLike<unknown>;
  if (to.kind === "double" && usesNumberLane(from)) {
    const d = POW10_NUM[from.scale]!;
    const src = v.values as Float64Array;
    const dst = out as Float64Array;
    for (let i = 0; i < n; i++) dst[i] = src[i]! / d;
    return makeVector(to, out, validity, n);
  }
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    let r: unknown;
    try {
      r = decimalToValue(vals[i], from, to, ctx.ansi);
    } catch (e) {
      if (onError === "throw") throw e;
      r = undefined;
    }
    if (r === undefined) {
      validity ??= new Uint8Array(n).fill(1);
      validity[i] = 0;
    } else if (out instanceof Uint8Array) out[i] = r ? 1 : 0;
    else (out as unknown[])[i] = r;
  }
  return makeVector(to, out, validity, n);
}
