/**
 * Bit functions on integers: `~` (bitwise_not), `&` / `|` / `^`, shiftleft / shiftright / shiftrightunsigned,
 * bit_count and bit_get / getbit. Java semantics throughout: the shift distance is taken modulo
 * the width (shiftleft(1, 33) is 2), and bit_count counts the bits of the value widened to a
 * long, so bit_count(-1) is 64 whatever the input type.
 */
import { canonical } from "../columnar/int64.js";
import { AnalysisException, ArusError } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { ByteType, type DataType, IntegerType, isIntegral, LongType, ShortType, sqlTypeName, typesEqual } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, numberArg, register, type ScalarFunction, typeMismatch } from "./registry.js";

const MASK64 = (1n << 64n) - 1n;
const toBig = (x: unknown): bigint => BigInt(x as number | bigint);
/** A bigint as a signed 64-bit value in arus' canonical form (a number while safe). */
const asLong = (x: bigint) => canonical(BigInt.asIntN(64, x));

/** `~x`: the bitwise complement, in the integral type of x. */
const bitwiseNot: ScalarFunction = {
  kind: "scalar",
  name: "~",
  resolve(args, types, call) {
    checkArity("~", args, 1);
    const t = types[0]!;
    if (!isIntegral(t)) throw typeMismatch(call, 0, '"INTEGRAL"', args[0]!, t);
    return { args, type: t };
  },
  kernel: (args, n) => {
    const t = args[0]!.type;
    return mapRows(t, args, n, (x) => (t.kind === "bigint" ? asLong(~toBig(x)) : ~(x as number)));
  },
};

/** A STRING operand is cast to BIGINT (Spark's implicit cast; a malformed one fails as the cast does). */
const INTEGRAL_RANK: Readonly<Record<string, number>> = { null: 0, tinyint: 1, smallint: 2, int: 3, bigint: 4, string: 4 };
const BY_RANK = [IntegerType, ByteType, ShortType, IntegerType, LongType];
const INT32 = (x: unknown): x is number => typeof x === "number" && (x | 0) === x;

/**
 * Spark's BinaryOperator type check (no numeric widening here: the operator takes integers
 * only): types that differ, or one type the operator does not take.
 */
function binaryOpTypeError(call: Expr, a: DataType, b: DataType): AnalysisException {
  const same = typesEqual(a, b);
  const why = same
    ? `the binary operator requires the input type "INTEGRAL", not "${sqlTypeName(a)}".`
    : `the left and right operands of the binary operator have incompatible types ("${sqlTypeName(a)}" and "${sqlTypeName(b)}").`;
  const cls = same ? "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE" : "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES";
  return new AnalysisException(cls, `[${cls}] Cannot resolve "${exprToSql(call)}" due to data type mismatch: ${why}`);
}

/**
 * `a & b`, `a | b`, `a ^ b` (Spark's BitwiseAnd / Or / Xor): both sides widened to the wider
 * integral type, which is the result's; an int64 outside 32 bits goes through BigInt.
 */
function bitwiseBinary(name: "&" | "|" | "^"): ScalarFunction {
  const op32 =
    name === "&" ? (x: number, y: number) => x & y : name === "|" ? (x: number, y: number) => x | y : (x: number, y: number) => x ^ y;
  const op64 =
    name === "&" ? (x: bigint, y: bigint) => x & y : name === "|" ? (x: bigint, y: bigint) => x | y : (x: bigint, y: bigint) => x ^ y;
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      if (types.some((t) => INTEGRAL_RANK[t.kind] === undefined)) throw binaryOpTypeError(call, types[0]!, types[1]!);
      const t = BY_RANK[Math.max(INTEGRAL_RANK[types[0]!.kind]!, INTEGRAL_RANK[types[1]!.kind]!)]!;
      return { args: [castTo(args[0]!, types[0]!, t), castTo(args[1]!, types[1]!, t)], type: t };
    },
    kernel: (args, n) => {
      const t = args[0]!.type;
      return mapRows(t, args, n, (x, y) => (INT32(x) && INT32(y) ? op32(x, y) : asLong(op64(toBig(x), toBig(y)))));
    },
  };
}

type Shift = "left" | "right" | "unsigned";

function shiftFunction(name: string, how: Shift): ScalarFunction {
  return {
    kind: "scalar",
    name,
    // Spark's inputs: (INT or BIGINT, INT); narrower and fractional numbers are cast to INT.
    resolve(args, types, call) {
      checkArity(name, args, 2);
      const t = types[0]!.kind === "bigint" ? LongType : IntegerType;
      return { args: [numberArg(call, args, types, 0, t), numberArg(call, args, types, 1, IntegerType)], type: t };
    },
    kernel: (args, n) => {
      const long = args[0]!.type.kind === "bigint";
      return mapRows(long ? LongType : IntegerType, args, n, (x, s) => {
        const d = s as number;
        if (!long) {
          const v = x as number;
          return how === "left" ? v << d : how === "right" ? v >> d : (v >>> d) | 0;
        }
        const v = toBig(x);
        const k = BigInt(d & 63);
        if (how === "left") return asLong(v << k);
        if (how === "right") return asLong(v >> k);
        return asLong((v & MASK64) >> k);
      });
    },
  };
}

/** bit_count: the one bits of an integral (widened to a long) or a boolean, as INT. */
const bitCount: ScalarFunction = {
  kind: "scalar",
  name: "bit_count",
  resolve(args, types, call) {
    checkArity("bit_count", args, 1);
    const t = types[0]!;
    if (!isIntegral(t) && t.kind !== "boolean" && t.kind !== "null") throw typeMismatch(call, 0, '("INTEGRAL" or "BOOLEAN")', args[0]!, t);
    return { args, type: IntegerType };
  },
  kernel: (args, n) =>
    mapRows(IntegerType, args, n, (x) => {
      if (typeof x === "boolean") return x ? 1 : 0;
      if (args[0]!.type.kind === "boolean") return x ? 1 : 0;
      let v = toBig(x) & MASK64;
      let c = 0;
      while (v !== 0n) {
        c += Number(v & 1n);
        v >>= 1n;
      }
      return c;
    }),
};

const WIDTH: Readonly<Record<string, number>> = { tinyint: 8, smallint: 16, int: 32, bigint: 64 };

function bitPositionError(name: string, pos: number, width: number): ArusError {
  return new ArusError(
    "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE",
    `[INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE] The value of parameter(s) \`pos\` in \`${name}\` is invalid: expects an integer value in [0, ${width}), but got ${pos}.`,
  );
}

/** bit_get(x, pos): bit `pos` (0 = least significant) of x as a TINYINT; pos outside the width is an error. */
function bitGet(name: string): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      const t = types[0]!;
      if (!isIntegral(t) && t.kind !== "null") throw typeMismatch(call, 0, '"INTEGRAL"', args[0]!, t);
      return { args: [args[0]!, castTo(args[1]!, types[1]!, IntegerType)], type: ByteType };
    },
    kernel: (args, n) => {
      const width = WIDTH[(args[0]!.type as DataType).kind] ?? 32;
      return mapRows(ByteType, args, n, (x, p) => {
        const pos = p as number;
        if (pos < 0 || pos >= width) throw bitPositionError(name, pos, width);
        return Number((toBig(x) >> BigInt(pos)) & 1n);
      });
    },
  };
}

register(
  bitwiseNot,
  bitwiseBinary("&"),
  bitwiseBinary("|"),
  bitwiseBinary("^"),
  shiftFunction("shiftleft", "left"),
  shiftFunction("shiftright", "right"),
  shiftFunction("shiftrightunsigned", "unsigned"),
  bitCount,
  bitGet("bit_get"),
  bitGet("getbit"),
);
