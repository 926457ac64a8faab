/**
 * hash(...cols): Spark's Murmur3Hash (seed 42), bit for bit, so `hash(k) % n` buckets as Spark
 * does. Each argument folds into the running hash (a NULL leaves it unchanged): INT-sized values
 * by hashInt, BIGINT / TIMESTAMP / doubles' bits by hashLong, strings and binaries by Spark's
 * hashUnsafeBytes (whole 4-byte words, then each remaining byte on its own — not standard
 * murmur3's tail), DECIMAL(p ≤ 18) by its unscaled long, arrays, maps and structs element by
 * element. -0.0 hashes as 0.0 (Spark normalizes it).
 */
import { getValue, makeVector, type Vector } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { type DataType, IntegerType } from "../types/datatypes.js";
import { checkArity, register, type ScalarFunction } from "./registry.js";

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function mixK1(k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, C2);
}
function mixH1(h: number, k: number): number {
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}
function fmix(h: number, length: number): number {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
export const hashInt = (v: number, seed: number): number => fmix(mixH1(seed, mixK1(v | 0)), 4);
export function hashLong(v: bigint, seed: number): number {
  const low = Number(BigInt.asIntN(32, v));
  const high = Number(BigInt.asIntN(32, v >> 32n));
  return fmix(mixH1(mixH1(seed, mixK1(low)), mixK1(high)), 8);
}
export function hashBytes(b: Uint8Array, seed: number): number {
  const aligned = b.length - (b.length % 4);
  let h = seed;
  for (let i = 0; i < aligned; i += 4) h = mixH1(h, mixK1(b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)));
  for (let i = aligned; i < b.length; i++) h = mixH1(h, mixK1((b[i]! << 24) >> 24)); // a signed byte, as Java's
  return fmix(h, b.length);
}

const f64 = new Float64Array(1);
const f64Bits = new BigInt64Array(f64.buffer);
const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);
const utf8 = new TextEncoder();

/** The three primitives a Spark HashExpression folds values with; `S` is its running hash. */
export interface Hasher<S> {
  int(v: number, seed: S): S;
  long(v: bigint, seed: S): S;
  bytes(b: Uint8Array, seed: S): S;
}

const murmur3: Hasher<number> = { int: hashInt, long: hashLong, bytes: hashBytes };

/** Spark's HashExpression.computeHash of one internal value of type `t` (NULL leaves the seed). */
export function hashValueWith<S>(h: Hasher<S>, v: unknown, t: DataType, seed: S): S {
  if (v === null || v === undefined) return seed;
  switch (t.kind) {
    case "boolean":
      return h.int(v === true || v === 1 ? 1 : 0, seed);
    case "tinyint":
    case "smallint":
    case "int":
    case "date":
      return h.int(v as number, seed);
    case "bigint":
    case "timestamp":
    case "interval":
      return h.long(BigInt(v as number | bigint), seed);
    case "float":
      f32[0] = (v as number) === 0 ? 0 : (v as number);
      return h.int(Number.isNaN(v) ? 0x7fc00000 : f32Bits[0]!, seed);
    case "double":
      f64[0] = (v as number) === 0 ? 0 : (v as number);
      return h.long(Number.isNaN(v) ? 0x7ff8000000000000n : f64Bits[0]!, seed);
    case "string":
      return h.bytes(typeof v === "string" ? utf8.encode(v) : (v as Uint8Array), seed);
    case "binary":
      return h.bytes(v as Uint8Array, seed);
    case "decimal":
      if (t.precision <= 18) return h.long(BigInt(v as number | bigint), seed);
      return h.bytes(bigIntBytes(BigInt(v as number | bigint)), seed);
    case "array": {
      let acc = seed;
      for (const e of v as unknown[]) acc = hashValueWith(h, e, t.elementType, acc);
      return acc;
    }
    case "map": {
      let acc = seed;
      for (const [k, x] of v as Map<unknown, unknown>) acc = hashValueWith(h, x, t.valueType, hashValueWith(h, k, t.keyType, acc));
      return acc;
    }
    case "struct": {
      let acc = seed;
      const o = v as Record<string, unknown>;
      for (const f of t.fields) acc = hashValueWith(h, o[f.name], f.type, acc);
      return acc;
    }
    default:
      return seed;
  }
}

/** BigInteger.toByteArray: two's complement, big-endian, shortest form. */
function bigIntBytes(x: bigint): Uint8Array {
  const out: number[] = [];
  let v = x;
  for (;;) {
    const byte = Number(v & 0xffn);
    out.unshift(byte);
    v >>= 8n;
    if ((v === 0n && (byte & 0x80) === 0) || (v === -1n && (byte & 0x80) !== 0)) break;
  }
  return Uint8Array.from(out);
}

/** Does a value of `t` hold a MAP anywhere (Spark refuses to hash maps)? */
function holdsMap(t: DataType): boolean {
  if (t.kind === "map") return true;
  if (t.kind === "array") return holdsMap(t.elementType);
  if (t.kind === "struct") return t.fields.some((f) => holdsMap(f.type));
  return false;
}

/** Spark's HASH_MAP_TYPE: no hash expression takes a MAP. */
export function refuseMaps(name: string, types: readonly DataType[], call: Expr): void {
  if (types.some(holdsMap)) {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.HASH_MAP_TYPE",
      `[DATATYPE_MISMATCH.HASH_MAP_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Input to the function \`${name}\` cannot contain elements of the "MAP" type. In Spark, same maps may have different hashcode, thus hash expressions are prohibited on "MAP" elements. To restore previous behavior set "spark.sql.legacy.allowHashOnMapType" to "true".`,
    );
  }
}

const hash: ScalarFunction = {
  kind: "scalar",
  name: "hash",
  resolve(args, types, call) {
    checkArity("hash", args, 1, Infinity);
    refuseMaps("hash", types, call);
    return { args, type: IntegerType };
  },
  kernel(args, n) {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      let h = 42;
      for (const a of args as Vector[]) h = hashValueWith(murmur3, getValue(a, i), a.type, h);
      out[i] = h;
    }
    return makeVector(IntegerType, out, null, n);
  },
};

register(hash);
