/**
 * More math: log(base, x) beside the one-argument log, log2, log1p, expm1, cbrt, hypot, rint,
 * factorial, bin, conv and mod. Logarithms give NULL (not NaN) at and below their asymptote, as
 * Spark's; conv follows Spark's NumberConverter, an unsigned 64-bit conversion.
 */
import "./arithmetic.js"; // registers the functions aliased below
import { canonical } from "../columnar/int64.js";
import { ArusError } from "../common/errors.js";
import { DoubleType, IntegerType, LongType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, numberArg, register, type ScalarFunction } from "./registry.js";
import { doubleArg, doubleFunction, doubleFunction2 } from "./trig-functions.js";

/** Spark's Logarithm: log(x) is log(e(), x); a base or value <= 0 gives NULL. */
const log: ScalarFunction = {
  kind: "scalar",
  name: "log",
  resolve(args, types, call) {
    checkArity("log", args, 1, 2);
    if (args.length === 1) return { args: [doubleArg(args, types, call, 0)], type: DoubleType };
    return { args: [doubleArg(args, types, call, 0), doubleArg(args, types, call, 1)], type: DoubleType };
  },
  kernel: (args, n) =>
    args.length === 1
      ? mapRows(DoubleType, args, n, (x) => ((x as number) <= 0 ? null : Math.log(x as number)))
      : mapRows(DoubleType, args, n, (b, x) =>
          (b as number) <= 0 || (x as number) <= 0 ? null : Math.log(x as number) / Math.log(b as number),
        ),
};

/** Java's Math.rint: the nearest integer, ties to even, the sign of zero kept. */
function rint(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.floor(x);
  const d = x - f;
  const r = d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
  return r === 0 ? (x < 0 || Object.is(x, -0) ? -0 : 0) : r;
}

const word = new DataView(new ArrayBuffer(8));
function highWord(x: number): number {
  word.setFloat64(0, x);
  return word.getInt32(0);
}
/** x with its high 32 bits replaced (and the low ones kept), or zeroed when `keepLow` is false. */
function withHighWord(x: number, hi: number, keepLow = true): number {
  word.setFloat64(0, x);
  word.setInt32(0, hi);
  if (!keepLow) word.setInt32(4, 0);
  return word.getFloat64(0);
}

/**
 * fdlibm's hypot (Java's StrictMath.hypot), step for step: JS's Math.hypot and even a correctly
 * rounded hypot differ from it in the last bit for many inputs. The trick: split the larger
 * operand at its high word so the squares are formed without rounding error.
 */
export function hypot(x: number, y: number): number {
  let a = Math.abs(x);
  let b = Math.abs(y);
  let ha = highWord(a) & 0x7fffffff;
  let hb = highWord(b) & 0x7fffffff;
  if (hb > ha) [a, b, ha, hb] = [b, a, hb, ha];
  if (ha - hb > 0x3c00000) return a + b; // a / b > 2^60
  let k = 0;
  if (ha > 0x5f300000) {
    // a > 2^500
    if (ha >= 0x7ff00000) return a === Infinity || b === Infinity ? Infinity : a + b;
    ha -= 0x25800000;
    hb -= 0x25800000;
    a = withHighWord(a, ha);
    b = withHighWord(b, hb);
    k += 600;
  }
  if (hb < 0x20b00000) {
    // b < 2^-500
    if (hb <= 0x000fffff) {
      if (b === 0) return a;
      b *= 2 ** 1022;
      a *= 2 ** 1022;
      k -= 1022;
      ha = highWord(a);
      hb = highWord(b);
    } else {
      ha += 0x25800000;
      hb += 0x25800000;
      a = withHighWord(a, ha);
      b = withHighWord(b, hb);
      k -= 600;
    }
  }
  let w = a - b;
  if (w > b) {
    const t1 = withHighWord(0, ha, false);
    const t2 = a - t1;
    w = Math.sqrt(t1 * t1 - (b * -b - t2 * (a + t1)));
  } else {
    a = a + a;
    const y1 = withHighWord(0, hb, false);
    const y2 = b - y1;
    const t1 = withHighWord(0, ha + 0x00100000, false);
    const t2 = a - t1;
    w = Math.sqrt(t1 * y1 - (w * -w - (t1 * y2 + t2 * b)));
  }
  return k === 0 ? w : w * 2 ** k;
}

const FACTORIALS: bigint[] = [1n];
for (let i = 1; i <= 20; i++) FACTORIALS.push(FACTORIALS[i - 1]! * BigInt(i));

/** factorial(n) as BIGINT for n in [0, 20], else NULL (21! overflows a long). */
const factorial: ScalarFunction = {
  kind: "scalar",
  name: "factorial",
  resolve(args, types, call) {
    checkArity("factorial", args, 1);
    return { args: [numberArg(call, args, types, 0, IntegerType)], type: LongType };
  },
  kernel: (args, n) =>
    mapRows(LongType, args, n, (x) => {
      const k = x as number;
      return k < 0 || k > 20 ? null : canonical(FACTORIALS[k]!);
    }),
};

const U64 = (1n << 64n) - 1n;

/** bin(n): the binary digits of a long, two's complement for negatives (Long.toBinaryString). */
const bin: ScalarFunction = {
  kind: "scalar",
  name: "bin",
  resolve(args, types, call) {
    checkArity("bin", args, 1);
    return { args: [numberArg(call, args, types, 0, LongType)], type: StringType };
  },
  kernel: (args, n) => mapRows(StringType, args, n, (x) => (BigInt(x as number | bigint) & U64).toString(2)),
};

function convOverflow(): ArusError {
  return new ArusError(
    "ARITHMETIC_OVERFLOW",
    `[ARITHMETIC_OVERFLOW] Overflow in function conv(). If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}

/**
 * Spark's NumberConverter: the digits valid in `from` (stopping at the first invalid one) read
 * as an unsigned 64-bit number, a leading '-' negating it; a negative `to` prints signed.
 * Overflow is an error under ANSI, else the all-ones value.
 */
export function convert(text: string, from: number, to: number, ansi: boolean): string | null {
  if (from < 2 || from > 36 || Math.abs(to) < 2 || Math.abs(to) > 36) return null;
  const s = text.replace(/^ +| +$/g, "");
  if (s.length === 0) return null;
  let negative = s[0] === "-";
  let v = 0n;
  const radix = BigInt(from);
  for (let i = negative ? 1 : 0; i < s.length; i++) {
    const d = digitOf(s.charCodeAt(i), from);
    if (d < 0) break;
    const next = v * radix + BigInt(d);
    if (next > U64) {
      if (ansi) throw convOverflow();
      v = U64;
      break;
    }
    v = next;
  }
  const signed = (x: bigint) => x >= 1n << 63n; // negative as a Java long
  if (negative && to > 0) v = signed(v) ? U64 : (U64 + 1n - v) & U64;
  if (to < 0 && signed(v)) {
    v = (U64 + 1n - v) & U64;
    negative = true;
  }
  const digits = v.toString(Math.abs(to)).toUpperCase();
  return negative && to < 0 ? `-${digits}` : digits;
}

function digitOf(c: number, radix: number): number {
  const d = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : c >= 97 && c <= 122 ? c - 87 : -1;
  return d < radix ? d : -1;
}

const conv: ScalarFunction = {
  kind: "scalar",
  name: "conv",
  resolve(args, types) {
    checkArity("conv", args, 3);
    return {
      args: [castTo(args[0]!, types[0]!, StringType), castTo(args[1]!, types[1]!, IntegerType), castTo(args[2]!, types[2]!, IntegerType)],
      type: StringType,
    };
  },
  kernel: (args, n, ctx) => mapRows(StringType, args, n, (s, f, t) => convert(s as string, f as number, t as number, ctx.ansi)),
};

register(
  log,
  doubleFunction("log2", (x) => (x <= 0 ? null : Math.log(x) / Math.LN2)),
  doubleFunction("log1p", (x) => (x <= -1 ? null : Math.log1p(x))),
  doubleFunction("expm1", Math.expm1),
  doubleFunction("cbrt", Math.cbrt),
  doubleFunction("rint", rint),
  doubleFunction2("hypot", hypot),
  factorial,
  bin,
  conv,
);
