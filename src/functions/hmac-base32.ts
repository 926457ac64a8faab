/**
 * hmac(expr, key[, algorithm = 'SHA-256']) (BINARY; SHA-224/256/384/512, SHA-1, MD5) and
 * to_base32 / from_base32 (RFC 4648's alphabet with '=' padding; decoding as lenient as Spark's).
 */
import { createHmac } from "node:crypto";
import { AnalysisException } from "../common/errors.js";
import { BinaryType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, requireBinaryInput, type ScalarFunction } from "./registry.js";

const ALGORITHMS: Readonly<Record<string, string>> = {
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
  "SHA-1": "sha1",
  SHA1: "sha1",
  MD5: "md5",
};
const utf8 = new TextEncoder();
const bytes = (v: unknown) => (typeof v === "string" ? utf8.encode(v) : (v as Uint8Array));
const bytesOrString = (t: { kind: string }) => (t.kind === "binary" ? BinaryType : StringType);

const hmac: ScalarFunction = {
  kind: "scalar",
  name: "hmac",
  resolve(args, types, call) {
    checkArity("hmac", args, 2, 3);
    requireBinaryInput(call, args, types, 0);
    requireBinaryInput(call, args, types, 1);
    const a = args.slice(0, 2).map((x, i) => castTo(x, types[i]!, bytesOrString(types[i]!)));
    return { args: args[2] ? [...a, castTo(args[2], types[2]!, StringType)] : a, type: BinaryType };
  },
  kernel: (args, n) =>
    mapRows(BinaryType, args, n, (v, key, algorithm) => {
      const name = String(algorithm ?? "SHA-256").toUpperCase();
      const algo = ALGORITHMS[name];
      if (!algo)
        throw new AnalysisException(
          "INVALID_PARAMETER_VALUE.HMAC_ALGORITHM",
          `[INVALID_PARAMETER_VALUE] Unsupported hmac algorithm: ${name}.`,
        );
      // Spark 4.x keys the MAC with the first argument and hashes the second (checked against PySpark)
      return new Uint8Array(createHmac(algo, bytes(v)).update(bytes(key)).digest());
    }),
};

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function toBase32(b: Uint8Array): string {
  let out = "";
  let bits = 0;
  let acc = 0;
  for (const byte of b) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(acc << (5 - bits)) & 31];
  return out + "=".repeat((8 - (out.length % 8)) % 8);
}

/** Each Base32 digit's value, upper and lower case. */
const DIGIT = new Map<string, number>(
  [...ALPHABET].flatMap((c, i) => [[c, i] as [string, number], [c.toLowerCase(), i] as [string, number]]),
);
const WORK = 2 ** 45; // the last nine digits' bits: all any byte below reads

/**
 * from_base32 as Spark decodes (Apache commons-codec's lenient Base32): characters outside the
 * alphabet are skipped, the first '=' ends the input, and a last partial group of 1–7 digits
 * still gives its bytes — read from the decoder's running bit buffer, which keeps the bits of the
 * group before (so `MZXW6YTBO` ends in 0x0B, and one digit `M` gives 0x03, as in Spark).
 */
export function fromBase32(s: string): Uint8Array {
  const out: number[] = [];
  let work = 0;
  let digits = 0;
  for (const ch of s) {
    if (ch === "=") break;
    const v = DIGIT.get(ch);
    if (v === undefined) continue;
    work = (work * 32 + v) % WORK;
    digits = (digits + 1) % 8;
    if (digits === 0) bytesOf(out, work, 5);
  }
  // commons-codec's end of input: the group's bits, the extra low bits dropped (1 digit as 2)
  if (digits === 1 || digits === 2) bytesOf(out, Math.floor(work / 4), 1);
  else if (digits === 3) bytesOf(out, Math.floor(work / 128), 1);
  else if (digits === 4) bytesOf(out, Math.floor(work / 16), 2);
  else if (digits === 5) bytesOf(out, Math.floor(work / 2), 3);
  else if (digits === 6) bytesOf(out, Math.floor(work / 64), 3);
  else if (digits === 7) bytesOf(out, Math.floor(work / 8), 4);
  return Uint8Array.from(out);
}

/** The low `n` bytes of `x` (a non-negative integer), highest first. */
function bytesOf(out: number[], x: number, n: number): void {
  for (let k = n - 1; k >= 0; k--) out.push(Math.floor(x / 256 ** k) % 256);
}

const toBase32Fn: ScalarFunction = {
  kind: "scalar",
  name: "to_base32",
  resolve(args, types, call) {
    checkArity("to_base32", args, 1);
    requireBinaryInput(call, args, types, 0);
    return { args: [castTo(args[0]!, types[0]!, bytesOrString(types[0]!))], type: StringType };
  },
  kernel: (args, n) => mapRows(StringType, args, n, (v) => toBase32(bytes(v))),
};

const fromBase32Fn: ScalarFunction = {
  kind: "scalar",
  name: "from_base32",
  resolve(args, types) {
    checkArity("from_base32", args, 1);
    return { args: [castTo(args[0]!, types[0]!, StringType)], type: BinaryType };
  },
  kernel: (args, n) => mapRows(BinaryType, args, n, (s) => fromBase32(s as string)),
};

register(hmac, toBase32Fn, fromBase32Fn);
