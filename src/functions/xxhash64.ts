/**
 * xxhash64(...cols): Spark's XxHash64 (seed 42), bit for bit: each argument folds into the
 * running 64-bit hash (a NULL leaves it unchanged) with Spark's XXH64 hashInt / hashLong /
 * hashUnsafeBytes, over the same per-type values as hash() (murmur3-hash.ts). 64-bit
 * arithmetic in BigInt, wrapped to 64 bits after each step as Java's long does.
 */
import { canonical } from "../columnar/int64.js";
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { arityError } from "../common/errors.js";
import { LongType } from "../types/datatypes.js";
import { type Hasher, hashValueWith, refuseMaps } from "./murmur3-hash.js";
import { register, type ScalarFunction } from "./registry.js";

const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

const u64 = (x: bigint) => BigInt.asUintN(64, x);
const mul = (a: bigint, b: bigint) => u64(a * b);
const rotl = (x: bigint, r: number) => u64((x << BigInt(r)) | (x >> BigInt(64 - r)));

function fmix(h: bigint): bigint {
  h ^= h >> 33n;
  h = mul(h, P2);
  h ^= h >> 29n;
  h = mul(h, P3);
  return h ^ (h >> 32n);
}

export function xxhInt(v: number, seed: bigint): bigint {
  let h = u64(seed + P5 + 4n);
  h ^= mul(BigInt(v >>> 0), P1);
  return fmix(u64(mul(rotl(h, 23), P2) + P3));
}

export function xxhLong(v: bigint, seed: bigint): bigint {
  let h = u64(seed + P5 + 8n);
  h ^= mul(rotl(mul(u64(v), P2), 31), P1);
  return fmix(u64(mul(rotl(h, 27), P1) + P4));
}

/** One 32-byte stripe lane: acc += word * P2, rotated by 31, times P1. */
const round = (acc: bigint, word: bigint) => mul(rotl(u64(acc + mul(word, P2)), 31), P1);
const mergeRound = (h: bigint, v: bigint) => u64(mul(h ^ round(0n, v), P1) + P4);

export function xxhBytes(b: Uint8Array, seed: bigint): bigint {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const len = b.length;
  let off = 0;
  let h: bigint;
  if (len >= 32) {
    let v1 = u64(seed + P1 + P2);
    let v2 = u64(seed + P2);
    let v3 = seed;
    let v4 = u64(seed - P1);
    do {
      v1 = round(v1, view.getBigUint64(off, true));
      v2 = round(v2, view.getBigUint64(off + 8, true));
      v3 = round(v3, view.getBigUint64(off + 16, true));
      v4 = round(v4, view.getBigUint64(off + 24, true));
      off += 32;
    } while (off <= len - 32);
    h = u64(rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18));
    for (const v of [v1, v2, v3, v4]) h = mergeRound(h, v);
  } else {
    h = u64(seed + P5);
  }
  h = u64(h + BigInt(len));
  for (; off + 8 <= len; off += 8) {
    h ^= mul(rotl(mul(view.getBigUint64(off, true), P2), 31), P1);
    h = u64(mul(rotl(h, 27), P1) + P4);
  }
  if (off + 4 <= len) {
    h ^= mul(BigInt(view.getUint32(off, true)), P1);
    h = u64(mul(rotl(h, 23), P2) + P3);
    off += 4;
  }
  for (; off < len; off++) {
    h ^= mul(BigInt(b[off]!), P5);
    h = mul(rotl(h, 11), P1);
  }
  return fmix(h);
}

const xxh64: Hasher<bigint> = { int: xxhInt, long: xxhLong, bytes: xxhBytes };

const xxhash64: ScalarFunction = {
  kind: "scalar",
  name: "xxhash64",
  resolve(args, types, call) {
    if (args.length === 0) throw arityError("xxhash64", "> 0", 0);
    refuseMaps("xxhash64", types, call);
    return { args, type: LongType };
  },
  kernel: (args, n) => hashRows(args, n),
};

function hashRows(args: readonly Vector[], n: number): Vector {
  const hashes = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    let h = 42n;
    for (const a of args) h = hashValueWith(xxh64, getValue(a, i), a.type, h);
    hashes[i] = canonical(BigInt.asIntN(64, h));
  }
  return vectorFromValues(LongType, hashes);
}

register(xxhash64);
