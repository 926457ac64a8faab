/**
 * Arithmetic operators: + - * / % div and unary minus, including timestamp ± interval and
 * date ± days. INT results wrap like Java's int unless ANSI mode flags the overflow.
 */
import { makeVector, physicalOf, type Vector } from "../columnar/vector.js";
import { AnalysisException, ArusError } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerNumeric } from "../types/coercion.js";
import {
  DAY_TIME_FIELDS,
  type DataType,
  DateType,
  type DayTimeField,
  DayTimeIntervalOf,
  type DecimalType,
  DoubleType,
  dayTimeFields,
  IntegerType,
  IntervalType,
  isIntegral,
  isNumeric,
  LongType,
  sqlTypeName,
  TimestampType,
} from "../types/datatypes.js";
import { type DecimalOp, decimalResultType, getDecimalPrecisionLoss } from "../types/decimal.js";
import { byZero, plainOverflow } from "./arithmetic-errors.js";
import { decimalIntDivide, decimalKernel, negateDecimal, resolveDecimalArithmetic } from "./decimal-arithmetic.js";
import { DAY_INTERVAL, resolveIntervalScaling, scaleIntervals, subtractDates } from "./interval-arithmetic.js";
import { andValidity, mapBinary, mapUnary, nums } from "./kernel-util.js";
import { longBinary, longDivide, longNegate } from "./long-ops.js";
import {
  castTo,
  checkArity,
  type EvalContext,
  type Resolved,
  register,
  registerAlias,
  type ScalarFunction,
  typeMismatch,
} from "./registry.js";
import { isSmallNumeric, smallArithmetic, smallNegate } from "./small-numeric.js";

function overflow(op: string): ArusError {
  return new ArusError(
    "ARITHMETIC_OVERFLOW",
    `[ARITHMETIC_OVERFLOW] overflow. Use 'try_${op}' to tolerate overflow and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}

/** What each operator's BINARY_OP_WRONG_TYPE says it takes (Spark's inputType). */
const OPERAND_TYPES: Readonly<Record<string, string>> = {
  "+": '("NUMERIC" or "INTERVAL DAY TO SECOND" or "INTERVAL YEAR TO MONTH" or "INTERVAL")',
  "-": '("NUMERIC" or "INTERVAL DAY TO SECOND" or "INTERVAL YEAR TO MONTH" or "INTERVAL")',
  "/": '("DOUBLE" or "DECIMAL")',
  div: '("BIGINT" or "DECIMAL" or "INTERVAL YEAR TO MONTH" or "INTERVAL DAY TO SECOND")',
};

/**
 * A STRING operand, as Spark 4's ANSI coercion takes it (docs/types.md): cast to BIGINT beside an
 * integral type, to DOUBLE beside a fractional one (`'1' + 2` is the BIGINT 3, `'1.5' + 2` a
 * CAST_INVALID_INPUT); beside another STRING or a NULL there is no numeric type to take.
 */
function stringOperand(s: DataType, other: DataType, call: Expr): DataType {
  if (s.kind !== "string") return s;
  if (isIntegral(other)) return LongType;
  if (isNumeric(other)) return DoubleType;
  const wrong = other.kind === "null" || other.kind === "string" || other.kind === "interval" ? s : other;
  const name = call.kind === "call" ? call.name : "+";
  throw new AnalysisException(
    "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE",
    `[DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: the binary operator requires the input type ${OPERAND_TYPES[name] ?? '"NUMERIC"'}, not "${sqlTypeName(wrong)}".`,
  );
}

function resolveNumericPair(args: readonly Expr[], types: readonly DataType[], call: Expr, op?: DecimalOp): Resolved {
  checkArity("arithmetic", args, 2);
  const [a, b] = types as [DataType, DataType];
  // NULL takes the other side's type (two NULLs: DOUBLE, as Spark)
  const na = a.kind === "null" ? (b.kind === "null" ? DoubleType : b) : a;
  const nb = b.kind === "null" ? na : b;
  const ta = stringOperand(na, b, call);
  const tb = stringOperand(nb, a, call);
  if (!isNumeric(ta)) throw typeMismatch(call, 0, '"NUMERIC"', args[0]!, a);
  if (!isNumeric(tb)) throw typeMismatch(call, 1, '"NUMERIC"', args[1]!, b);
  const dec = op ? resolveDecimalArithmetic(op, args, types, ta, tb) : null;
  if (dec) return dec;
  const t = widerNumeric(ta, tb)!;
  return { args: [castTo(args[0]!, a, t), castTo(args[1]!, b, t)], type: t };
}

/** The result type of decimal `a op b`, recomputed at run time from the operand types (as resolve did). */
function decimalResult(op: DecimalOp, a: Vector, b: Vector): DecimalType {
  return decimalResultType(op, a.type as DecimalType, b.type as DecimalType, getDecimalPrecisionLoss());
}

function resolveAdditive(sign: 1 | -1) {
  return (args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved => {
    const [a, b] = types as [DataType, DataType];
    if (a.kind === "timestamp" && b.kind === "interval") return { args, type: TimestampType };
    if (sign === 1 && a.kind === "interval" && b.kind === "timestamp") return { args: [args[1]!, args[0]!], type: TimestampType };
    if (a.kind === "date" && isIntegral(b)) return { args: [args[0]!, castTo(args[1]!, b, IntegerType)], type: DateType };
    if (a.kind === "date" && b.kind === "interval") return { args: [castTo(args[0]!, a, TimestampType), args[1]!], type: TimestampType };
    if (a.kind === "interval" && b.kind === "interval") return { args, type: widerIntervalFields(a, b) };
    if (sign === -1 && a.kind === "timestamp" && b.kind === "timestamp") return { args, type: IntervalType };
    if (sign === -1 && a.kind === "date" && b.kind === "date") return { args, type: DAY_INTERVAL };
    return resolveNumericPair(args, types, call, sign === 1 ? "+" : "-");
  };
}

/** Two day-time intervals' sum or difference keeps the fields of both (DAY + HOUR: DAY TO HOUR), as Spark's. */
function widerIntervalFields(a: DataType, b: DataType): DataType {
  const [sa, ea] = dayTimeFields(a);
  const [sb, eb] = dayTimeFields(b);
  const at = (f: DayTimeField) => DAY_TIME_FIELDS.indexOf(f);
  return DayTimeIntervalOf(at(sa) <= at(sb) ? sa : sb, at(ea) >= at(eb) ? ea : eb);
}

function intCheck(ctx: EvalContext, op: string, fn: (x: number, y: number) => number) {
  return (x: number, y: number): number => {
    const r = fn(x, y);
    const w = r | 0;
    if (w !== r && ctx.ansi) throw overflow(op);
    return w;
  };
}

function additiveKernel(sign: 1 | -1, op: string) {
  return (args: readonly Vector[], n: number, ctx: EvalContext): Vector => {
    const [a, b] = args as [Vector, Vector];
    if (a.type.kind === "date" && b.type.kind === "date") return subtractDates(a, b, n);
    if (a.type.kind === "date") {
      // date ± days
      return mapBinary(DateType, a, b, n, (x, y) => x + sign * y);
    }
    if (a.type.kind === "timestamp" && b.type.kind === "timestamp") return mapBinary(IntervalType, a, b, n, (x, y) => x - y);
    if (a.type.kind === "decimal") return decimalKernel(sign === 1 ? "+" : "-", a, b, decimalResult(sign === 1 ? "+" : "-", a, b), n, ctx);
    if (isSmallNumeric(a.type)) return smallArithmetic(sign === 1 ? "+" : "-", a, b, n, ctx);
    const t = a.type.kind === "interval" && b.type.kind === "interval" ? widerIntervalFields(a.type, b.type) : a.type;
    // BIGINT and TIMESTAMP ± INTERVAL: exact 64-bit (long-ops.ts).
    if (t.kind === "bigint" || t.kind === "timestamp") return longBinary(t, sign === 1 ? "+" : "-", a, b, n, ctx);
    if (t.kind === "int")
      return mapBinary(
        IntegerType,
        a,
        b,
        n,
        intCheck(ctx, op, (x, y) => x + sign * y),
      );
    return mapBinary(t, a, b, n, sign === 1 ? (x, y) => x + y : (x, y) => x - y);
  };
}

const plus: ScalarFunction = { kind: "scalar", name: "+", resolve: resolveAdditive(1), kernel: additiveKernel(1, "add") };
const minus: ScalarFunction = { kind: "scalar", name: "-", resolve: resolveAdditive(-1), kernel: additiveKernel(-1, "subtract") };

const times: ScalarFunction = {
  kind: "scalar",
  name: "*",
  resolve: (args, types, call) => resolveIntervalScaling("*", args, types) ?? resolveNumericPair(args, types, call, "*"),
  kernel(args, n, ctx) {
    const [a, b] = args as [Vector, Vector];
    if (a.type.kind === "interval" || b.type.kind === "interval") return scaleIntervals("*", args, n);
    if (a.type.kind === "decimal") return decimalKernel("*", a, b, decimalResult("*", a, b), n, ctx);
    if (isSmallNumeric(a.type)) return smallArithmetic("*", a, b, n, ctx);
    if (a.type.kind === "int") {
      return mapBinary(IntegerType, a, b, n, (x, y) => {
        const r = x * y;
        if (r === (r | 0)) return r;
        if (ctx.ansi) throw overflow("multiply");
        return Math.imul(x, y);
      });
    }
    if (a.type.kind === "bigint") return longBinary(a.type, "*", a, b, n, ctx);
    return mapBinary(a.type, a, b, n, (x, y) => x * y);
  },
};

/** Division and remainder: a zero divisor gives NULL, or an error in ANSI mode. */
function zeroAware(
  type: DataType,
  a: Vector,
  b: Vector,
  n: number,
  ctx: EvalContext,
  fn: (x: number, y: number) => number,
  op = "/",
): Vector {
  const out = physicalOf(type) === "i32" ? new Int32Array(n) : new Float64Array(n);
  const av = nums(a);
  const bv = nums(b);
  let validity = andValidity(a.validity, b.validity, n);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    const y = bv[i]!;
    if (y === 0) {
      if (ctx.ansi) throw byZero(op);
      validity ??= new Uint8Array(n).fill(1);
      validity[i] = 0;
      continue;
    }
    out[i] = fn(av[i]!, y);
  }
  return makeVector(type, out, validity, n);
}

const divide: ScalarFunction = {
  kind: "scalar",
  name: "/",
  resolve(args, types, call) {
    const scaled = resolveIntervalScaling("/", args, types);
    if (scaled) return scaled;
    const r = resolveNumericPair(args, types, call, "/");
    if (r.type.kind === "decimal") return r;
    return { args: r.args.map((e) => castTo(e, r.type, DoubleType)), type: DoubleType };
  },
  kernel: (args, n, ctx) =>
    args[0]!.type.kind === "interval"
      ? scaleIntervals("/", args, n)
      : args[0]!.type.kind === "decimal"
        ? decimalKernel("/", args[0]!, args[1]!, decimalResult("/", args[0]!, args[1]!), n, ctx)
        : zeroAware(DoubleType, args[0]!, args[1]!, n, ctx, (x, y) => x / y),
};

const intDivide: ScalarFunction = {
  kind: "scalar",
  name: "div",
  resolve(args, types, call) {
    // Decimal operands keep their own types (the quotient is computed exactly, then truncated).
    const r = resolveNumericPair(args, types, call, "/");
    return { args: r.args, type: LongType };
  },
  kernel: (args, n, ctx) =>
    args[0]!.type.kind === "decimal"
      ? decimalIntDivide(args[0]!, args[1]!, n, ctx)
      : args[0]!.type.kind === "bigint"
        ? longDivide("div", args[0]!, args[1]!, n, ctx)
        : zeroAware(LongType, args[0]!, args[1]!, n, ctx, (x, y) => Math.trunc(x / y)),
};

const remainder: ScalarFunction = {
  kind: "scalar",
  name: "%",
  resolve: (args, types, call) => resolveNumericPair(args, types, call, "%"),
  // JS % has Java's sign rule (sign of the dividend).
  kernel: (args, n, ctx) =>
    args[0]!.type.kind === "decimal"
      ? decimalKernel("%", args[0]!, args[1]!, decimalResult("%", args[0]!, args[1]!), n, ctx)
      : args[0]!.type.kind === "bigint"
        ? longDivide("%", args[0]!, args[1]!, n, ctx)
        : zeroAware(args[0]!.type, args[0]!, args[1]!, n, ctx, (x, y) => x % y, "%"),
};

const pmod: ScalarFunction = {
  kind: "scalar",
  name: "pmod",
  resolve: (args, types, call) => resolveNumericPair(args, types, call, "%"),
  kernel: (args, n, ctx) =>
    args[0]!.type.kind === "decimal"
      ? decimalKernel("pmod", args[0]!, args[1]!, decimalResult("%", args[0]!, args[1]!), n, ctx)
      : args[0]!.type.kind === "bigint"
        ? longDivide("pmod", args[0]!, args[1]!, n, ctx)
        : zeroAware(
            args[0]!.type,
            args[0]!,
            args[1]!,
            n,
            ctx,
            (x, y) => {
              const r = x % y;
              return r < 0 ? (r + y) % y : r;
            },
            "pmod",
          ),
};

const negative: ScalarFunction = {
  kind: "scalar",
  name: "negative",
  resolve(args, types, call) {
    checkArity("negative", args, 1);
    const t = types[0]!;
    // a STRING or a NULL is taken as a DOUBLE, as Spark's UnaryMinus / UnaryPositive
    if (t.kind === "string" || t.kind === "null") return { args: [castTo(args[0]!, t, DoubleType)], type: DoubleType };
    if (!isNumeric(t) && t.kind !== "interval") throw typeMismatch(call, 0, '"NUMERIC"', args[0]!, t);
    return { args, type: t };
  },
  kernel: (args, n, ctx) =>
    args[0]!.type.kind === "decimal"
      ? negateDecimal(args[0]!, n)
      : args[0]!.type.kind === "bigint"
        ? longNegate(args[0]!, n, ctx)
        : isSmallNumeric(args[0]!.type)
          ? smallNegate(args[0]!, n, ctx)
          : args[0]!.type.kind === "int"
            ? mapUnary(args[0]!.type, args[0]!, n, (x) => {
                // -Integer.MIN_VALUE overflows: Spark's error under ANSI, Java's wrap otherwise
                if (x === -2147483648 && ctx.ansi) throw plainOverflow();
                return -x | 0;
              })
            : mapUnary(args[0]!.type, args[0]!, n, (x) => -x),
};

register(plus, minus, times, divide, intDivide, remainder, pmod, negative);
registerAlias("mod", "%");
register({ ...negative, name: "positive", kernel: (args) => args[0]! });
