/**
 * More string functions: locate / position, translate, repeat, left, right, ascii, chr,
 * base64 / unbase64, hex / unhex and the digests (md5, sha1, sha2, crc32). Positions and
 * lengths count characters (code points), as Spark's UTF8String does; hex, base64 and the
 * digests read a string's UTF-8 bytes.
 */
import { createHash } from "node:crypto";
import { IllegalArgumentException } from "../common/errors.js";
import { crc32 } from "../state/codec.js";
import { BinaryType, type DataType, IntegerType, isAtomic, isNumeric, LongType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import {
  castTo,
  checkArity,
  type Resolved,
  register,
  registerAlias,
  requireBinaryInput,
  type ScalarFunction,
  typeMismatch,
} from "./registry.js";
import { sqlSubstring, stringFn } from "./strings.js";

const S = StringType;
const I = IntegerType;

/** The UTF-16 offset of code point `cp` of `s` (s.length when past the end). */
function unitOffset(s: string, cp: number): number {
  let u = 0;
  for (let k = 0; k < cp && u < s.length; k++) u += s.codePointAt(u)! > 0xffff ? 2 : 1;
  return u;
}

/** The number of code points in s[0, unit). */
function codePointIndex(s: string, unit: number): number {
  let cp = unit;
  for (let k = 0; k < unit; k++) if ((s.charCodeAt(k) & 0xfc00) === 0xdc00) cp--;
  return cp;
}

/**
 * locate(substr, str[, pos = 1]) (also position): the 1-based character position of substr in
 * str at or after pos; 0 when absent or pos < 1; an empty substr is found at 1. A NULL pos
 * gives 0, not NULL, as Spark's StringLocate.
 */
const locate: ScalarFunction = {
  kind: "scalar",
  name: "locate",
  resolve(args, types, call): Resolved {
    checkArity("locate", args, 2, 3);
    types.forEach((t, i) => {
      if (!isAtomic(t)) throw typeMismatch(call, i, i === 2 ? '"INT"' : '"STRING"', args[i]!, t);
    });
    const target = [S, S, I];
    return { args: args.map((a, i) => castTo(a, types[i]!, target[i]!)), type: I };
  },
  kernel: (args, n) =>
    mapRows(
      I,
      args,
      n,
      (sub, str, pos = 1) => {
        if (pos === null) return 0;
        if (sub === null || str === null) return null;
        if ((pos as number) < 1) return 0;
        if (sub === "") return 1;
        const s = str as string;
        const at = s.indexOf(sub as string, unitOffset(s, (pos as number) - 1));
        return at < 0 ? 0 : codePointIndex(s, at) + 1;
      },
      false,
    ),
};

/** translate(str, from, to): each character of `from` becomes the one at its index in `to`, or is deleted. */
function translate(s: string, from: string, to: string): string {
  const map = new Map<string, string>();
  const toCps = Array.from(to);
  Array.from(from).forEach((c, i) => {
    if (!map.has(c)) map.set(c, toCps[i] ?? "");
  });
  let out = "";
  for (const c of s) out += map.get(c) ?? c;
  return out;
}

/** chr(n): '' below 0, else the character n mod 256 (Latin-1), as Spark's Chr. */
function chr(n: number): string {
  return n < 0 ? "" : String.fromCharCode(Number(BigInt.asUintN(8, BigInt(n))));
}

/** unhex: an odd length gets a leading 0 nibble; a non-hex digit gives NULL. */
export function unhex(s: string): Uint8Array | null {
  if (!/^[0-9a-fA-F]*$/.test(s)) return null;
  return Buffer.from(s.length % 2 ? `0${s}` : s, "hex");
}

/**
 * unbase64 as Java's MIME decoder (Spark's): characters outside the alphabet are skipped, but
 * padding must end a 4-character unit and nothing may follow it.
 */
export function unbase64(s: string): Uint8Array {
  const clean = s.replace(/[^A-Za-z0-9+/=]/g, "");
  const pad = clean.indexOf("=");
  const data = pad < 0 ? clean : clean.slice(0, pad);
  const rem = data.length % 4;
  if (pad >= 0) {
    const needed = rem === 2 ? 2 : 1;
    if (rem < 2 || !clean.startsWith("=".repeat(needed), pad)) {
      throw new IllegalArgumentException("Input byte array has wrong 4-byte ending unit");
    }
    if (clean.length > pad + needed) throw new IllegalArgumentException(`Input byte array has incorrect ending byte at ${pad + needed}`);
  } else if (rem === 1) throw new IllegalArgumentException("Last unit does not have enough valid bits");
  return new Uint8Array(Buffer.from(data, "base64"));
}

const toBytes = (v: unknown): Uint8Array => (typeof v === "string" ? Buffer.from(v, "utf8") : (v as Uint8Array));
const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");

/** A function of BINARY argument 0 (a STRING is its UTF-8 bytes; nothing else is cast, as Spark's). */
function bytesFn(name: string, rest: DataType[], result: DataType, fn: (b: Uint8Array, ...more: never[]) => unknown): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1 + rest.length);
      const t = types[0]!;
      requireBinaryInput(call, args, types, 0);
      const first = t.kind === "null" ? castTo(args[0]!, t, BinaryType) : args[0]!;
      return { args: [first, ...rest.map((r, i) => castTo(args[i + 1]!, types[i + 1]!, r))], type: result };
    },
    kernel: (args, n) => mapRows(result, args, n, (v, ...more) => (fn as (...a: unknown[]) => unknown)(toBytes(v), ...more)),
  };
}

const digest = (algorithm: string) => (b: Uint8Array) => createHash(algorithm).update(b).digest("hex");
const SHA2_BITS: Record<number, string> = { 0: "sha256", 224: "sha224", 256: "sha256", 384: "sha384", 512: "sha512" };

/** hex(x): of a number, its 64-bit two's complement digits; of a STRING or BINARY, its bytes. Upper case. */
const hex: ScalarFunction = {
  kind: "scalar",
  name: "hex",
  resolve(args, types, call) {
    checkArity("hex", args, 1);
    const t = types[0]!;
    if (!isAtomic(t)) throw typeMismatch(call, 0, '("BIGINT" or "BINARY" or "STRING")', args[0]!, t);
    const target = isNumeric(t) ? LongType : t.kind === "binary" ? BinaryType : S;
    return { args: [castTo(args[0]!, t, target)], type: S };
  },
  kernel: (args, n) =>
    mapRows(S, args, n, (v) =>
      typeof v === "number" || typeof v === "bigint"
        ? BigInt.asUintN(64, BigInt(v)).toString(16).toUpperCase()
        : hexOf(toBytes(v)).toUpperCase(),
    ),
};

/**
 * Spark's substring_index: the part of `s` before the `count`-th `delim` from the left
 * (count > 0), or after the `count`-th from the right (count < 0); all of `s` when it has fewer.
 * Occurrences may overlap (`substring_index('aaaa', 'aa', 2)` is 'a'), as in Spark.
 */
function substringIndex(s: string, delim: string, count: number): string {
  if (count === 0 || delim === "") return "";
  // Occurrences may overlap: each search starts one character after the last match, as Spark's.
  if (count > 0) {
    let at = -1;
    for (let k = 0; k < count; k++) {
      at = s.indexOf(delim, at + 1);
      if (at < 0) return s;
    }
    return s.slice(0, at);
  }
  let at = s.length - delim.length + 1;
  for (let k = 0; k < -count; k++) {
    at = at - 1 < 0 ? -1 : s.lastIndexOf(delim, at - 1);
    if (at < 0) return s;
  }
  return s.slice(at + delim.length);
}

register(
  locate,
  stringFn("translate", [S, S, S], S, translate),
  stringFn("repeat", [S, I], S, (s: string, k: number) => (k > 0 ? s.repeat(k) : "")),
  stringFn("left", [S, I], S, (s: string, k: number) => (k <= 0 ? "" : sqlSubstring(s, 1, k))),
  stringFn("right", [S, I], S, (s: string, k: number) => (k <= 0 ? "" : sqlSubstring(s, -k, k))),
  stringFn("substring_index", [S, S, I], S, substringIndex),
  stringFn("ascii", [S], I, (s: string) => s.codePointAt(0) ?? 0),
  stringFn("chr", [LongType], S, chr),
  stringFn("unhex", [S], BinaryType, unhex),
  stringFn("unbase64", [S], BinaryType, unbase64),
  hex,
  bytesFn("base64", [], S, (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64")),
  bytesFn("md5", [], S, digest("md5")),
  bytesFn("sha1", [], S, digest("sha1")),
  bytesFn("sha2", [I], S, (b, bits: number) => (SHA2_BITS[bits] ? digest(SHA2_BITS[bits])(b) : null)),
  bytesFn("crc32", [], LongType, (b) => crc32(b)),
);
registerAlias("position", "locate");
registerAlias("char", "chr");
registerAlias("sha", "sha1");
