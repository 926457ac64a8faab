/**
 * Math functions: abs, round (HALF_UP like Spark), bround, floor, ceil, sqrt, pow, exp, log,
 * greatest, least.
 */

import { stringOrderOf } from "../columnar/string-order.js";
import type { Vector } from "../columnar/vector.js";
import { AnalysisException, ArusError, arityError } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { widerTypeOfAll } from "../types/coercion.js";
import { type DataType, type DecimalType, DoubleType, IntegerType, isIntegral, isNumeric, LongType } from "../types/datatypes.js";
import { bounded, DecimalOf, decimalForIntegral } from "../types/decimal.js";
import { plainOverflow } from "./arithmetic-errors.js";
import { absDecimal, decimalFloorCeilType, decimalRoundType, roundDecimal } from "./decimal-math.js";
import { mapBinary, mapRows, mapUnary } from "./kernel-util.js";
import { doublesToLongVector, longAbs } from "./long-ops.js";
import { compareValues } from "./predicates.js";
import {
  castTo,
  checkArity,
  diffTypes,
  numberArg,
  type Resolved,
  register,
  registerAlias,
  type ScalarFunction,
  typeMismatch,
} from "./registry.js";

function numericArg(_name: string, args: readonly Expr[], types: readonly DataType[], call: Expr, i = 0): DataType {
  const t = types[i]!;
  if (t.kind === "string") return DoubleType;
  if (t.kind === "null") return DoubleType;
  if (!isNumeric(t)) throw typeMismatch(call, i, '"NUMERIC"', args[i]!, t);
  return t;
}

/** Round half away from zero at `d` decimal places (Spark's HALF_UP on decimals). */
export function roundHalfUp(x: number, d: number): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** d;
  const y = Math.abs(x) * f;
  // Nudge by a relative epsilon so 2.675 (stored as 2.67499..) rounds like a decimal would.
  // Past 2^52 every double is an integer already: no rounding to do.
  if (y >= 2 ** 52) return x;
  const r = Math.floor(y + 0.5 + y * Number.EPSILON) / f;
  return Math.sign(x) * r;
}

function roundHalfEven(x: number, d: number): number {
  const f = 10 ** d;
  const y = x * f;
  const r = Math.round(y);
  return (Math.abs(y % 1) === 0.5 ? 2 * Math.round(y / 2) : r) / f;
}

function roundFn(name: string, fn: (x: number, d: number) => number): ScalarFunction {
  const mode = name === "round" ? "half_up" : "half_even";
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1, 2);
      const t = numericArg(name, args, types, call);
      const scaleArg = args[1] ? [castTo(args[1], types[1]!, IntegerType)] : [];
      if (t.kind === "decimal") {
        const k = args[1]?.kind === "literal" ? Number(args[1].value ?? 0) : 0;
        return { args: [args[0]!, ...scaleArg], type: decimalRoundType(t, k) };
      }
      return { args: [castTo(args[0]!, types[0]!, t), ...scaleArg], type: t };
    },
    kernel(args, n, ctx) {
      const [a, s] = args as [Vector, Vector | undefined];
      const d = s ? ((s.values as Int32Array)[0] ?? 0) : 0;
      const t = a.type.kind;
      if (t === "decimal") return roundDecimal(a, d, mode, decimalRoundType(a.type, d));
      // FLOAT: Spark rounds the float's double value as a decimal, then narrows it to a float again
      if (t === "float") return mapUnary(a.type, a, n, (x) => Math.fround(fn(x, d)));
      if (t !== "double" && d >= 0) return a;
      const range = INTEGRAL_RANGE[t];
      if (range === undefined) return mapUnary(a.type, a, n, (x) => fn(x, d));
      // TINYINT / SMALLINT / INT to a negative scale can leave the type (round(125Y, -1) = 130):
      // an error under ANSI, else wrapped as Java's narrowing does (Spark's RoundBase)
      const [lo, hi, wrap] = range;
      return mapUnary(a.type, a, n, (x) => {
        const r = fn(x, d);
        if (r >= lo && r <= hi) return r;
        if (ctx.ansi) throw roundOverflow();
        return wrap(r);
      });
    },
  };
}

/** The integral types a negative-scale round can overflow: their range and Java's narrowing. */
const INTEGRAL_RANGE: Readonly<Record<string, readonly [number, number, (x: number) => number]>> = {
  tinyint: [-128, 127, (x) => (x << 24) >> 24],
  smallint: [-32768, 32767, (x) => (x << 16) >> 16],
  int: [-2147483648, 2147483647, (x) => x | 0],
};

function roundOverflow(): ArusError {
  return new ArusError(
    "ARITHMETIC_OVERFLOW",
    '[ARITHMETIC_OVERFLOW] Overflow. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.',
  );
}

function unaryDouble(name: string, fn: (x: number) => number): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      numericArg(name, args, types, call); // type check only
      return { args: [castTo(args[0]!, types[0]!, DoubleType)], type: DoubleType };
    },
    kernel: (args, n) => mapRows(DoubleType, args, n, (x) => fn(x as number)),
  };
}

/** The decimal a number becomes before ceil / floor to a scale (Spark's implicit cast to DECIMAL). */
function asDecimal(t: DataType): DecimalType {
  if (t.kind === "decimal") return t;
  if (t.kind === "double") return DecimalOf(30, 15);
  if (t.kind === "float") return DecimalOf(14, 7);
  if (t.kind === "null") return DecimalOf(38, 18); // Spark's DecimalType.SYSTEM_DEFAULT
  return decimalForIntegral(t) ?? DecimalOf(30, 15);
}

/** ceil / floor of DECIMAL `d` at `k` digits: one more integer digit, the scale clamped to [0, d's scale]. */
function scaledFloorCeilType(d: DecimalType, k: number): DecimalType {
  const scale = Math.max(0, Math.min(k, d.scale));
  return bounded(d.precision - d.scale + 1 + scale, scale);
}

/** ceil(x, scale) / floor(x, scale): x as a DECIMAL rounded up / down at `scale` digits (negative: tens, hundreds, ...). */
function resolveWithScale(name: string, args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved {
  const k = args[1]!;
  if (k.kind !== "literal" || typeof k.value !== "number" || !Number.isInteger(k.value)) {
    throw new AnalysisException(
      "NON_FOLDABLE_ARGUMENT",
      `[NON_FOLDABLE_ARGUMENT] The function \`${name}\` requires the parameter \`scale\` to be a foldable expression of the type "INT", but the actual argument is a non-foldable.`,
    );
  }
  const t = types[0]!.kind === "null" ? types[0]! : numericArg(name, args, types, call);
  const d = asDecimal(t);
  return { args: [castTo(args[0]!, types[0]!, d), k], type: scaledFloorCeilType(d, k.value) };
}

function floorCeil(name: string, fn: (x: number) => number): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      // Spark's builders for ceil and floor report "2" whatever the count given
      if (args.length < 1 || args.length > 2) throw arityError(name, "2", args.length);
      if (args.length === 2) return resolveWithScale(name, args, types, call);
      const t = numericArg(name, args, types, call);
      if (t.kind === "decimal") return { args, type: decimalFloorCeilType(t) };
      // a whole number is a BIGINT whatever its width, as Spark's Floor / Ceil
      return { args: [castTo(args[0]!, types[0]!, isIntegral(t) ? LongType : t)], type: LongType };
    },
    kernel: (args, n, ctx) => {
      const a = args[0]!;
      const mode = name === "floor" ? "floor" : "ceil";
      if (args.length === 2) {
        const k = args[1]!.values[0] as number;
        return roundDecimal(a, k, mode, scaledFloorCeilType(a.type as DecimalType, k));
      }
      if (a.type.kind === "decimal") return roundDecimal(a, 0, mode, decimalFloorCeilType(a.type));
      if (a.type.kind === "int") return mapUnary(IntegerType, a, n, fn);
      if (a.type.kind === "bigint") return a; // an integer already, on either lane
      // The double result as a long: ANSI overflow error or Java's saturating cast (long-ops.ts).
      return doublesToLongVector(LongType, mapUnary(DoubleType, a, n, fn), n, ctx.ansi);
    },
  };
}

function extremum(name: string, sign: 1 | -1): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call): Resolved {
      checkArity(name, args, 2, Infinity);
      // No STRING promotion here (Spark: greatest(1, '3') is DATA_DIFF_TYPES).
      const t = widerTypeOfAll(types, false);
      if (!t) throw diffTypes(call, name, types);
      return { args: args.map((a, i) => castTo(a, types[i]!, t)), type: t };
    },
    // NULLs are skipped; the result is NULL only when every argument is NULL.
    kernel: (args, n) => {
      // Strings by code point; JS's native order when it is exact for every row (columnar/string-order.ts).
      const compare = (args[0]!.type.kind === "string" ? stringOrderOf(args, n) : compareValues) as (x: unknown, y: unknown) => number;
      return mapRows(
        args[0]!.type,
        args,
        n,
        (...v) => {
          let best: unknown = null;
          for (const x of v) if (x != null && (best === null || sign * compare(x, best) > 0)) best = x;
          return best;
        },
        false,
      );
    },
  };
}

/** The smallest value of each narrow integral type (its absolute value does not fit). */
const INT_MIN: Record<string, number> = { tinyint: -128, smallint: -32768, int: -2147483648 };

const abs: ScalarFunction = {
  kind: "scalar",
  name: "abs",
  resolve(args, types, call) {
    checkArity("abs", args, 1);
    const t = numericArg("abs", args, types, call);
    return { args: [castTo(args[0]!, types[0]!, t)], type: t };
  },
  kernel: (args, n, ctx) =>
    args[0]!.type.kind === "decimal"
      ? absDecimal(args[0]!)
      : args[0]!.type.kind === "bigint"
        ? longAbs(args[0]!, n, ctx)
        : args[0]!.type.kind in INT_MIN
          ? mapUnary(args[0]!.type, args[0]!, n, (x) => {
              // |MIN_VALUE| overflows: Spark's error under ANSI, Java's MIN_VALUE otherwise
              if (x !== INT_MIN[args[0]!.type.kind]) return Math.abs(x);
              if (ctx.ansi) throw plainOverflow();
              return x;
            })
          : mapUnary(args[0]!.type, args[0]!, n, Math.abs),
};

const pow: ScalarFunction = {
  kind: "scalar",
  name: "pow",
  resolve(args, types, call) {
    checkArity("pow", args, 2);
    return { args: args.map((_, i) => numberArg(call, args, types, i, DoubleType)), type: DoubleType };
  },
  kernel: (args, n) => mapBinary(DoubleType, args[0]!, args[1]!, n, (x, y) => x ** y),
};

register(
  abs,
  roundFn("round", roundHalfUp),
  roundFn("bround", roundHalfEven),
  floorCeil("floor", Math.floor),
  floorCeil("ceil", Math.ceil),
  unaryDouble("sqrt", (x) => (x < 0 ? Number.NaN : Math.sqrt(x))),
  unaryDouble("exp", Math.exp),
  unaryDouble("ln", (x) => (x <= 0 ? (null as unknown as number) : Math.log(x))),
  unaryDouble("log10", (x) => (x <= 0 ? (null as unknown as number) : Math.log10(x))),
  // Spark's Signum: a DOUBLE for every numeric input; -0.0 and NaN pass through (Math.signum).
  unaryDouble("signum", Math.sign),
  pow,
  extremum("greatest", 1),
  extremum("least", -1),
);
registerAlias("power", "pow");
registerAlias("sign", "signum");
registerAlias("ceiling", "ceil");
