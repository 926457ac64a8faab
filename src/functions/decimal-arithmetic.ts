/**
 * DECIMAL arithmetic (Spark's Add/Subtract/Multiply/Divide/Remainder/Pmod on DecimalType):
 * operand types from Spark's DecimalPrecision rules (an integral operand becomes its decimal
 * form, an integral literal the narrowest decimal that holds it), the result type from
 * `decimalResultType`, exact evaluation on unscaled integers, HALF_UP rounding to the result
 * scale, and overflow → NULL or NUMERIC_VALUE_OUT_OF_RANGE in ANSI mode.
 *
 * Hot path: when both operands and the result live in the number lane (p <= 15) and the
 * result's scale needs no rounding, + - * run on the Float64Arrays directly — every value is an
 * integer below 10^15, so doubles are exact and the result type leaves no room for overflow.
 */
import { allocValues, makeVector, type Vector } from "../columnar/vector.js";
import type { Expr } from "../plan/expressions.js";
import type { DataType, DecimalType } from "../types/datatypes.js";
import { LongType } from "../types/datatypes.js";
import {
  DecimalOf,
  type DecimalOp,
  decimalForIntegral,
  decimalResultType,
  digitCount,
  divHalfUp,
  fitsPrecision,
  formatUnscaled,
  getDecimalPrecisionLoss,
  MAX_PRECISION,
  MAX_SCALE,
  POW10_NUM,
  pow10,
  rescale,
  toLane,
  unscaledOf,
  usesNumberLane,
} from "../types/decimal.js";
import { byZero, divideByZero } from "./arithmetic-errors.js";
import { decimalOverflow } from "./decimal-cast.js";
import { castTo, type EvalContext, type Resolved } from "./registry.js";

/** The decimal an operand takes part in decimal arithmetic as; null for non-decimal-compatible types. */
function operandDecimal(e: Expr, t: DataType): DecimalType | null {
  if (t.kind === "decimal") return t;
  if (e.kind === "literal" && (t.kind === "int" || t.kind === "bigint") && e.value !== null) {
    // DecimalType.fromLiteral: the digits of the value itself (spark.sql.legacy.literal.pickMinimumPrecision).
    const v = BigInt(e.value as number);
    return DecimalOf(Math.max(digitCount(v), 1), 0);
  }
  return decimalForIntegral(t);
}

/**
 * Resolve `a op b` when one side is DECIMAL and the other DECIMAL or integral (`types` already
 * have strings as DOUBLE and NULL as the other side). Null when this is not decimal arithmetic.
 */
export function resolveDecimalArithmetic(
  op: DecimalOp,
  args: readonly Expr[],
  types: readonly DataType[],
  ta: DataType,
  tb: DataType,
): Resolved | null {
  if (ta.kind !== "decimal" && tb.kind !== "decimal") return null;
  const da = operandDecimal(args[0]!, ta);
  const db = operandDecimal(args[1]!, tb);
  if (!da || !db) return null; // DOUBLE with DECIMAL: plain double arithmetic
  const type = decimalResultType(op, da, db, getDecimalPrecisionLoss());
  return { args: [castTo(args[0]!, types[0]!, da), castTo(args[1]!, types[1]!, db)], type };
}

/** Round to Spark's MathContext(38, HALF_UP): at most 38 significant digits. Returns [unscaled, scale]. */
function roundTo38Digits(u: bigint, scale: number): [bigint, number] {
  const d = digitCount(u);
  if (d <= MAX_PRECISION) return [u, scale];
  const drop = d - MAX_PRECISION;
  return [divHalfUp(u, pow10(drop)), scale - drop];
}

/** The exact result of one operation on unscaled values, at a scale; null = division by zero. */
function exact(op: DecimalOp | "pmod", x: bigint, sx: number, y: bigint, sy: number): [bigint, number] | null {
  switch (op) {
    case "+":
    case "-": {
      const s = Math.max(sx, sy);
      const a = rescale(x, sx, s);
      const b = rescale(y, sy, s);
      return [op === "+" ? a + b : a - b, s];
    }
    case "*":
      return roundTo38Digits(x * y, sx + sy);
    case "/": {
      if (y === 0n) return null;
      // BigDecimal.divide(y, 38, HALF_UP): the quotient rounded at 38 fraction digits.
      const shift = MAX_SCALE + sy - sx;
      const q = shift >= 0 ? divHalfUp(x * pow10(shift), y) : divHalfUp(x, y * pow10(-shift));
      return [q, MAX_SCALE];
    }
    case "%":
    case "pmod": {
      if (y === 0n) return null;
      const s = Math.max(sx, sy);
      const a = rescale(x, sx, s);
      const b = rescale(y, sy, s);
      let r = a % b; // sign of the dividend, as Java's BigDecimal.remainder
      if (op === "pmod" && r < 0n) r = (r + b) % b;
      return [r, s];
    }
  }
}

/** `a op b` over two decimal vectors into `type` (a DECIMAL, or BIGINT for `div`). */
export function decimalKernel(
  op: DecimalOp | "pmod",
  a: Vector,
  b: Vector,
  type: DecimalType,
  n: number,
  ctx: EvalContext,
  tryMode = false,
): Vector {
  const ta = a.type as DecimalType;
  const tb = b.type as DecimalType;
  const fast = fastKernel(op, a, b, type, n);
  if (fast) return fast;
  const out = allocValues(type, n);
  let validity: Uint8Array | null = null;
  const av = a.values as ArrayLike<number | bigint>;
  const bv = b.values as ArrayLike<number | bigint>;
  const va = a.validity;
  const vb = b.validity;
  const setNull = (i: number) => {
    validity ??= new Uint8Array(n).fill(1);
    validity[i] = 0;
  };
  for (let i = 0; i < n; i++) {
    if ((va !== null && va[i] === 0) || (vb !== null && vb[i] === 0)) {
      setNull(i);
      continue;
    }
    const r = exact(op, unscaledOf(av[i]), ta.scale, unscaledOf(bv[i]), tb.scale);
    if (r === null) {
      if (ctx.ansi && !tryMode) throw byZero(op);
      setNull(i);
      continue;
    }
    const u = rescale(r[0], r[1], type.scale);
    if (!fitsPrecision(u, type.precision)) {
      if (ctx.ansi && !tryMode) throw decimalOverflow(formatUnscaled(r[0], Math.max(r[1], 0)), type);
      setNull(i);
      continue;
    }
    (out as unknown[] | Float64Array)[i] = toLane(u, type) as number;
  }
  return makeVector(type, out, validity, n);
}

/** + - * on number lanes when exact and overflow-free by construction; null when not applicable. */
function fastKernel(op: DecimalOp | "pmod", a: Vector, b: Vector, type: DecimalType, n: number): Vector | null {
  const ta = a.type as DecimalType;
  const tb = b.type as DecimalType;
  if (!usesNumberLane(ta) || !usesNumberLane(tb) || !usesNumberLane(type)) return null;
  const av = a.values as Float64Array;
  const bv = b.values as Float64Array;
  const out = new Float64Array(n);
  const validity = andValid(a.validity, b.validity, n);
  if (op === "+" || op === "-") {
    if (type.scale !== Math.max(ta.scale, tb.scale)) return null;
    const fa = POW10_NUM[type.scale - ta.scale]!;
    const fb = POW10_NUM[type.scale - tb.scale]!;
    if (op === "+") for (let i = 0; i < n; i++) out[i] = av[i]! * fa + bv[i]! * fb;
    else for (let i = 0; i < n; i++) out[i] = av[i]! * fa - bv[i]! * fb;
    return makeVector(type, out, validity, n);
  }
  if (op === "*") {
    if (type.scale !== ta.scale + tb.scale) return null;
    for (let i = 0; i < n; i++) out[i] = av[i]! * bv[i]!;
    return makeVector(type, out, validity, n);
  }
  return null;
}

function andValid(a: Uint8Array | null, b: Uint8Array | null, n: number): Uint8Array | null {
  if (a === null) return b === null ? null : b.slice(0, n);
  if (b === null) return a.slice(0, n);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = a[i]! & b[i]!;
  return out;
}

/** Unary minus of a decimal vector (same type; cannot overflow). */
export function negateDecimal(a: Vector, n: number): Vector {
  const t = a.type as DecimalType;
  const out = allocValues(t, n);
  const src = a.values as ArrayLike<number | bigint>;
  if (out instanceof Float64Array) for (let i = 0; i < n; i++) out[i] = -(src[i] as number) || 0;
  else for (let i = 0; i < n; i++) (out as unknown[])[i] = src[i] == null ? null : -(src[i] as bigint);
  return makeVector(t, out, a.validity ? a.validity.slice(0, n) : null, n);
}

/** `a div b` for decimals: the truncated quotient as BIGINT. */
export function decimalIntDivide(a: Vector, b: Vector, n: number, ctx: EvalContext): Vector {
  const ta = a.type as DecimalType;
  const tb = b.type as DecimalType;
  const out = new Float64Array(n);
  let validity = andValid(a.validity, b.validity, n);
  const av = a.values as ArrayLike<number | bigint>;
  const bv = b.values as ArrayLike<number | bigint>;
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    const y = unscaledOf(bv[i]);
    if (y === 0n) {
      if (ctx.ansi) throw divideByZero();
      validity ??= new Uint8Array(n).fill(1);
      validity[i] = 0;
      continue;
    }
    const s = Math.max(ta.scale, tb.scale);
    out[i] = Number(rescale(unscaledOf(av[i]), ta.scale, s) / rescale(y, tb.scale, s));
  }
  return makeVector(LongType, out, validity, n);
}
