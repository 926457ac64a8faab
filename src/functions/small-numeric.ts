/**
 * TINYINT, SMALLINT and FLOAT arithmetic (Spark's Byte/Short/Float operators): the result keeps
 * the operands' type. TINYINT/SMALLINT results wrap like Java's byte/short unless ANSI mode,
 * where an out-of-range result is BINARY_ARITHMETIC_OVERFLOW; FLOAT results are rounded to
 * float precision (Math.fround), as Java's float arithmetic.
 */

import type { Vector } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import type { DataType } from "../types/datatypes.js";
import { plainOverflow } from "./arithmetic-errors.js";
import { mapBinary, mapUnary } from "./kernel-util.js";
import type { EvalContext } from "./registry.js";

export function isSmallNumeric(t: DataType): boolean {
  return t.kind === "tinyint" || t.kind === "smallint" || t.kind === "float";
}

const BITS: Readonly<Record<string, number>> = { tinyint: 8, smallint: 16 };
const TRY_NAME: Readonly<Record<string, string>> = { "+": "try_add", "-": "try_subtract", "*": "try_multiply" };

function binaryOverflow(x: number, op: string, y: number): ArusError {
  // toSQLValue renders both operands as SMALLINT literals, whatever the narrow type.
  return new ArusError(
    "BINARY_ARITHMETIC_OVERFLOW",
    `[BINARY_ARITHMETIC_OVERFLOW] ${x}S ${op} ${y}S caused overflow. Use \`${TRY_NAME[op] ?? "try_add"}\` to ignore overflow problem and return NULL.`,
  );
}

/** Wrap an integer into a signed `bits`-bit range, as Java's (byte) / (short) casts do. */
export function wrapBits(r: number, bits: number): number {
  const shift = 32 - bits;
  return ((r | 0) << shift) >> shift;
}

/** `a op b` for two vectors of one small numeric type. */
export function smallArithmetic(op: "+" | "-" | "*", a: Vector, b: Vector, n: number, ctx: EvalContext): Vector {
  const t = a.type;
  const fn = op === "+" ? (x: number, y: number) => x + y : op === "-" ? (x: number, y: number) => x - y : (x: number, y: number) => x * y;
  if (t.kind === "float") return mapBinary(t, a, b, n, (x, y) => Math.fround(fn(x, y)));
  const bits = BITS[t.kind]!;
  return mapBinary(t, a, b, n, (x, y) => {
    const r = fn(x, y);
    const w = wrapBits(r, bits);
    if (w !== r && ctx.ansi) throw binaryOverflow(x, op, y);
    return w;
  });
}

/** Unary minus: -(-128) wraps to -128 (ANSI: ARITHMETIC_OVERFLOW, as Math.negateExact). */
export function smallNegate(a: Vector, n: number, ctx: EvalContext): Vector {
  const t = a.type;
  if (t.kind === "float") return mapUnary(t, a, n, (x) => -x);
  const bits = BITS[t.kind]!;
  return mapUnary(t, a, n, (x) => {
    const w = wrapBits(-x, bits);
    if (w !== -x && ctx.ansi) throw plainOverflow();
    return w;
  });
}
