/**
 * BIGINT kernels with Spark's LONG semantics over both lanes of columnar/int64.ts: + − × div %
 * pmod and unary minus, and the casts into and out of BIGINT.
 *
 * Fast path: both inputs on the double lane, computed in doubles, kept while every result is a
 * safe integer (a correctly rounded result that is a safe integer is exact, and a true result
 * beyond 2^53 rounds to at least 2^53, so the check cannot miss). Otherwise the batch is
 * recomputed with BigInt: a result outside [−2^63, 2^63 − 1] is ARITHMETIC_OVERFLOW in ANSI mode
 * (Spark 4's default, Math.addExact and friends) and wraps as a Java long otherwise.
 */
import { canonical, exact, type Int64Lane, isSafe, isWide, LONG_MAX, LONG_MIN, MAX_SAFE, narrow } from "../columnar/int64.js";
import { makeVector, type Vector } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import { type DataType, sqlTypeName } from "../types/datatypes.js";
import { byZero, plainOverflow } from "./arithmetic-errors.js";
import { andValidity } from "./kernel-util.js";
import type { EvalContext } from "./registry.js";

export type LongOp = "+" | "-" | "*";

const TRY_NAME: Record<LongOp, string> = { "+": "add", "-": "subtract", "*": "multiply" };

export function longOverflow(tryName: string): ArusError {
  return new ArusError(
    "ARITHMETIC_OVERFLOW",
    `[ARITHMETIC_OVERFLOW] overflow. Use 'try_${tryName}' to tolerate overflow and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}

export function castOverflow(value: number | bigint, from: DataType, to: DataType): ArusError {
  const text = from.kind === "bigint" ? `${value}L` : from.kind === "double" ? javaDouble(value as number) : String(value);
  return new ArusError(
    "CAST_OVERFLOW",
    `[CAST_OVERFLOW] The value ${text} of the type "${sqlTypeName(from)}" cannot be cast to "${sqlTypeName(to)}" due to an overflow. Use \`try_cast\` to tolerate overflow and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}

function javaDouble(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  const a = Math.abs(x);
  return a >= 1e7 || (a < 1e-3 && a !== 0)
    ? x.toExponential().replace("e+", "E").replace("e", "E")
    : Number.isInteger(x)
      ? `${x}.0`
      : String(x);
}

/** Exact value of row i of a lane (valid rows only). */
function at(values: Int64Lane, i: number): bigint {
  return isWide(values) ? values[i]! : BigInt(values[i]!);
}

/** A long result: in range, or the ANSI error, or the Java wrap. */
function fit(r: bigint, ctx: EvalContext, tryName: string): bigint {
  if (r <= LONG_MAX && r >= LONG_MIN) return r;
  if (ctx.ansi) throw longOverflow(tryName);
  return BigInt.asIntN(64, r);
}

/** `a op b` for two BIGINT (or TIMESTAMP ± INTERVAL micros) vectors; result of `type`. */
export function longBinary(type: DataType, op: LongOp, a: Vector, b: Vector, n: number, ctx: EvalContext): Vector {
  const validity = andValidity(a.validity, b.validity, n);
  const av = a.values as Int64Lane;
  const bv = b.values as Int64Lane;
  if (!isWide(av) && !isWide(bv)) {
    const out = new Float64Array(n);
    let ok = true;
    if (op === "+") {
      for (let i = 0; i < n; i++) {
        const r = av[i]! + bv[i]!;
        out[i] = r;
        if (!(r <= MAX_SAFE && r >= -MAX_SAFE)) ok = false;
      }
    } else if (op === "-") {
      for (let i = 0; i < n; i++) {
        const r = av[i]! - bv[i]!;
        out[i] = r;
        if (!(r <= MAX_SAFE && r >= -MAX_SAFE)) ok = false;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const r = av[i]! * bv[i]! + 0; // + 0: a long has no -0 (-1 * 0 is 0)
        out[i] = r;
        if (!(r <= MAX_SAFE && r >= -MAX_SAFE)) ok = false;
      }
    }
    if (ok) return makeVector(type, out, validity, n);
  }
  const out = new BigInt64Array(n);
  const tryName = TRY_NAME[op];
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    const x = at(av, i);
    const y = at(bv, i);
    out[i] = fit(op === "+" ? x + y : op === "-" ? x - y : x * y, ctx, tryName);
  }
  return makeVector(type, narrow(out, n), validity, n);
}

export type LongDivOp = "div" | "%" | "pmod";

/**
 * Integral division, remainder (sign of the dividend, as Java) and pmod of BIGINTs. A zero
 * divisor is DIVIDE_BY_ZERO in ANSI mode, NULL otherwise; Long.MIN_VALUE div −1 overflows.
 */
export function longDivide(op: LongDivOp, a: Vector, b: Vector, n: number, ctx: EvalContext): Vector {
  let validity = andValidity(a.validity, b.validity, n);
  const av = a.values as Int64Lane;
  const bv = b.values as Int64Lane;
  const nullAt = (i: number): void => {
    if (ctx.ansi) throw byZero(op);
    validity ??= new Uint8Array(n).fill(1);
    validity[i] = 0;
  };
  if (!isWide(av) && !isWide(bv)) {
    const out = new Float64Array(n);
    // The common case (Nexmark q2's `auction % 123`): no NULLs, a remainder of safe integers,
    // in a loop with nothing else in it; anything else starts over on the general loop below.
    if (op === "%" && validity === null && remainderOfSafe(av as Float64Array, bv as Float64Array, out, n))
      return makeVector(a.type.kind === "bigint" ? a.type : b.type, out, null, n);
    let ok = true;
    for (let i = 0; i < n && ok; i++) {
      if (validity !== null && validity[i] === 0) continue;
      const x = av[i]!;
      const y = bv[i]!;
      if (y === 0) {
        nullAt(i);
        continue;
      }
      if (!isSafe(x) || !isSafe(y)) {
        ok = false;
        break;
      }
      if (op === "div") {
        // x / y rounds to nearest: the truncated quotient can only be one too far from zero.
        let q = Math.trunc(x / y);
        const r = x - q * y;
        if (r !== 0 && r < 0 !== x < 0) q -= (x < 0 ? -1 : 1) * (y < 0 ? -1 : 1);
        out[i] = q === 0 ? 0 : q;
      } else {
        const r = x % y; // exact for doubles, sign of the dividend
        if (op === "pmod" && r < 0) {
          // r + y may leave the safe range (e.g. -960 + -(2^53 - 1)): then BigInt decides.
          const s = r + y;
          if (!isSafe(s)) {
            ok = false;
            break;
          }
          out[i] = s % y || 0; // never -0
        } else out[i] = r === 0 ? 0 : r;
      }
    }
    if (ok) return makeVector(a.type.kind === "bigint" ? a.type : b.type, out, validity, n);
  }
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    const x = at(av, i);
    const y = at(bv, i);
    if (y === 0n) {
      nullAt(i);
      continue;
    }
    if (op === "div") out[i] = fit(x / y, ctx, "divide");
    else {
      const r = x % y;
      out[i] = op === "pmod" && r < 0n ? (r + y) % y : r;
    }
  }
  return makeVector(a.type, narrow(out, n), validity, n);
}

/** out[i] = a[i] % b[i] (sign of the dividend, never -0) when every operand is safe and no divisor 0; false otherwise. */
function remainderOfSafe(a: Float64Array, b: Float64Array, out: Float64Array, n: number): boolean {
  let i = 0;
  // Operands in int32 range (ids, small divisors) take the CPU's integer division, about three
  // times faster than the double remainder (fmod) below; the first operand outside it hands over.
  for (; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const xi = x | 0;
    const yi = y | 0;
    if (xi !== x || yi !== y || yi === 0) break;
    out[i] = (xi % yi) + 0;
  }
  for (; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    // |x| and |y| below 2^53, y not 0: the double remainder is exact
    if (!(x <= MAX_SAFE && x >= -MAX_SAFE && y <= MAX_SAFE && y >= -MAX_SAFE) || y === 0) return false;
    out[i] = (x % y) + 0;
  }
  return true;
}
/** Unary minus: −Long.MIN_VALUE overflows. */
export function longNegate(a: Vector, n: number, ctx: EvalContext): Vector {
  const av = a.values as Int64Lane;
  const validity = a.validity ? a.validity.slice(0, n) : null;
  if (!isWide(av)) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = 0 - av[i]!;
    return makeVector(a.type, out, validity, n);
  }
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    out[i] = fitUnary(-av[i]!, ctx);
  }
  return makeVector(a.type, narrow(out, n), validity, n);
}

/** Negation and abs of Long.MIN_VALUE: Spark's plain "overflow." (no try_ function), or Java's wrap. */
function fitUnary(r: bigint, ctx: EvalContext): bigint {
  if (r <= LONG_MAX && r >= LONG_MIN) return r;
  if (ctx.ansi) throw plainOverflow();
  return BigInt.asIntN(64, r);
}

/** abs of a BIGINT: |Long.MIN_VALUE| overflows (ANSI error, else Long.MIN_VALUE as Java). */
export function longAbs(a: Vector, n: number, ctx: EvalContext): Vector {
  const av = a.values as Int64Lane;
  const validity = a.validity ? a.validity.slice(0, n) : null;
  if (!isWide(av)) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.abs(av[i]!);
    return makeVector(a.type, out, validity, n);
  }
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    const x = av[i]!;
    out[i] = x < 0n ? fitUnary(-x, ctx) : x;
  }
  return makeVector(a.type, narrow(out, n), validity, n);
}

/**
 * A kernel that only knows doubles met the wide lane (JS refuses to mix BigInt and number):
 * a clear error instead of a TypeError, and never a rounded value.
 */
export function wideLaneUnsupported(fn: string, cause: unknown): ArusError {
  return new ArusError(
    "UNSUPPORTED_FEATURE.EXACT_64_BIT",
    `[UNSUPPORTED_FEATURE.EXACT_64_BIT] ${fn} does not take BIGINT values beyond ±2^53 - 1 or TIMESTAMP values after 2255-06-05 yet; arus refuses rather than round them (docs/differences.md).`,
    { cause },
  );
}

// ------------------------------------------------------------------------------------------
// Casts

const TWO_63 = 2 ** 63;

/**
 * DOUBLE → BIGINT: ANSI refuses NaN, ±Infinity and values outside the long range
 * (CAST_OVERFLOW); otherwise Java's (long) cast: truncation, saturation, NaN → 0.
 */
export function doubleToLong(x: number, ansi: boolean, from: DataType, to: DataType): number | bigint {
  if (Number.isNaN(x) || x >= TWO_63 || x < -TWO_63) {
    if (ansi) throw castOverflow(x, from, to);
    return Number.isNaN(x) ? 0 : x > 0 ? LONG_MAX : LONG_MIN;
  }
  const t = Math.trunc(x);
  return isSafe(t) ? (t === 0 ? 0 : t) : BigInt(t);
}

/** DOUBLE → INT: ANSI refuses what does not fit; otherwise Java's (int) cast (saturating). */
export function doubleToInt(x: number, ansi: boolean, from: DataType, to: DataType): number {
  if (Number.isNaN(x) || Math.floor(x) > 2147483647 || Math.ceil(x) < -2147483648) {
    if (ansi) throw castOverflow(x, from, to);
    return Number.isNaN(x) ? 0 : x > 0 ? 2147483647 : -2147483648;
  }
  return Math.trunc(x) | 0;
}

/** BIGINT → INT: ANSI refuses what does not fit; otherwise Java's wrap to 32 bits. */
export function longToInt(x: number | bigint, ansi: boolean, from: DataType, to: DataType): number {
  if (typeof x === "number" && x >= -2147483648 && x <= 2147483647) return x;
  if (ansi) throw castOverflow(x, from, to);
  return Number(BigInt.asIntN(32, exact(x)));
}

/** Seconds (a BIGINT) → TIMESTAMP micros, saturating as Java's TimeUnit.SECONDS.toMicros. */
export function secondsToMicros(x: number | bigint): number | bigint {
  const m = exact(x) * 1_000_000n;
  return canonical(m > LONG_MAX ? LONG_MAX : m < LONG_MIN ? LONG_MIN : m);
}

/** TIMESTAMP micros → whole seconds (floor), as Spark's Math.floorDiv. */
export function microsToSeconds(m: number | bigint): number | bigint {
  if (typeof m === "number") return Math.floor(m / 1_000_000);
  const q = m / 1_000_000n;
  return canonical(m < 0n && q * 1_000_000n !== m ? q - 1n : q);
}

const ANSI_LONG = /^[+-]?\d+$/;
const LEGACY_LONG = /^([+-]?\d*)(?:\.\d*)?$/;

/**
 * STRING → BIGINT, exact: ANSI takes integer syntax only; the legacy cast also takes a
 * fraction and truncates it. Out of the long range → undefined (malformed: error or NULL).
 */
export function stringToLong(t: string, ansi: boolean): number | bigint | undefined {
  let digits: string;
  if (ansi) {
    if (!ANSI_LONG.test(t)) return undefined;
    digits = t;
  } else {
    const m = LEGACY_LONG.exec(t);
    if (!m || !/\d/.test(t)) return undefined;
    digits = m[1]!;
    if (digits === "" || digits === "+" || digits === "-") digits = "0";
  }
  const b = BigInt(digits);
  if (b > LONG_MAX || b < LONG_MIN) return undefined;
  return canonical(b);
}

/**
 * A column of integral doubles (floor/ceil results) as a BIGINT lane, values beyond ±2^53 − 1
 * on the wide lane. Outside the long range (and NaN): ARITHMETIC_OVERFLOW in ANSI mode (what
 * Spark 4.3 does for floor(1e20)), Java's saturating (long) cast otherwise (NaN → 0).
 */
export function doublesToLongVector(type: DataType, v: Vector, n: number, ansi: boolean): Vector {
  const src = v.values as Float64Array;
  let fine = true;
  for (let i = 0; i < n; i++) {
    const x = src[i]!;
    if (!(x <= MAX_SAFE && x >= -MAX_SAFE)) {
      fine = false;
      break;
    }
  }
  if (fine) return { ...v, type };
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    if (v.validity !== null && v.validity[i] === 0) continue;
    const x = src[i]!;
    const inRange = x < TWO_63 && x >= -TWO_63;
    // NaN is no overflow: Spark's range check is false for it, and Java's (long) NaN is 0
    if (!inRange && ansi && !Number.isNaN(x)) {
      throw new ArusError(
        "ARITHMETIC_OVERFLOW",
        '[ARITHMETIC_OVERFLOW] overflow. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.',
      );
    }
    out[i] = inRange ? BigInt(x) : Number.isNaN(x) ? 0n : x > 0 ? LONG_MAX : LONG_MIN;
  }
  return makeVector(type, narrow(out, n), v.validity, n);
}
