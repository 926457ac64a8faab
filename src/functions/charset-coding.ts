/**
 * encode(str, charset) → BINARY and decode(bin, charset) → STRING with Spark 4's charsets
 * (us-ascii, iso-8859-1, utf-8, utf-16be, utf-16le, utf-16 (big-endian, a BOM written and read),
 * utf-32 (big-endian)); a character a charset cannot hold, or bytes that are not valid in it, fail
 * with MALFORMED_CHARACTER_CODING, as Spark 4 does by default. decode with three or more
 * arguments is Spark's other decode, a CASE over its first argument.
 */

import type { Vector } from "../columnar/vector.js";
import { ArusError, arityError, IllegalArgumentException } from "../common/errors.js";
import { comparisonType, widerTypeOfAll } from "../types/coercion.js";
import { BinaryType, StringType } from "../types/datatypes.js";
import { castVector } from "./cast.js";
import { mapRows } from "./kernel-util.js";
import { compareValues } from "./predicates.js";
import { castTo, checkArity, diffTypes, register, requireBinaryInput, type ScalarFunction } from "./registry.js";

const CHARSETS = ["iso-8859-1", "us-ascii", "utf-16", "utf-16be", "utf-16le", "utf-32", "utf-8"];

function charsetOf(fn: string, v: unknown): string {
  const c = String(v).toLowerCase();
  if (!CHARSETS.includes(c)) {
    throw new IllegalArgumentException(
      `[INVALID_PARAMETER_VALUE.CHARSET] The value of parameter(s) \`charset\` in \`${fn}\` is invalid: expects one of the ${CHARSETS.join(", ")}, but got ${String(v)}.`,
    );
  }
  return c;
}

const malformed = (fn: string, charset: string) =>
  new ArusError(
    "MALFORMED_CHARACTER_CODING",
    `[MALFORMED_CHARACTER_CODING] Invalid value found when performing \`${fn}\` with ${charset.toUpperCase()}`,
  );

function encodeText(s: string, charset: string): Uint8Array {
  const cps = Array.from(s, (ch) => ch.codePointAt(0)!);
  switch (charset) {
    case "utf-8":
      return new TextEncoder().encode(s);
    case "us-ascii":
    case "iso-8859-1": {
      const max = charset === "us-ascii" ? 0x7f : 0xff;
      if (cps.some((c) => c > max)) throw malformed("encode", charset);
      return Uint8Array.from(cps);
    }
    case "utf-32": {
      const out = new Uint8Array(cps.length * 4);
      const view = new DataView(out.buffer);
      for (let i = 0; i < cps.length; i++) view.setUint32(i * 4, cps[i]!);
      return out;
    }
    default: {
      // UTF-16: code units; Java's "UTF-16" writes a big-endian BOM first
      const bom = charset === "utf-16" ? 2 : 0;
      const out = new Uint8Array(bom + s.length * 2);
      const view = new DataView(out.buffer);
      if (bom) view.setUint16(0, 0xfeff);
      for (let i = 0; i < s.length; i++) view.setUint16(bom + i * 2, s.charCodeAt(i), charset === "utf-16le");
      return out;
    }
  }
}

function decodeBytes(b: Uint8Array, charset: string): string {
  switch (charset) {
    case "us-ascii":
      if (b.some((x) => x > 0x7f)) throw malformed("decode", charset);
      return String.fromCharCode(...b);
    case "iso-8859-1":
      return Array.from(b, (x) => String.fromCharCode(x)).join("");
    case "utf-32": {
      if (b.length % 4 !== 0) throw malformed("decode", charset);
      const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      let s = "";
      for (let i = 0; i < b.length; i += 4) {
        const c = view.getUint32(i);
        if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) throw malformed("decode", charset);
        s += String.fromCodePoint(c);
      }
      return s;
    }
    default: {
      // utf-8 / utf-16 (BOM-aware, big-endian without one) / utf-16be / utf-16le, strictly
      let label = charset;
      let bytes = b;
      if (charset === "utf-16") {
        const le = b.length >= 2 && b[0] === 0xff && b[1] === 0xfe;
        const be = b.length >= 2 && b[0] === 0xfe && b[1] === 0xff;
        label = le ? "utf-16le" : "utf-16be";
        if (le || be) bytes = b.subarray(2);
      }
      try {
        return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        throw malformed("decode", charset);
      }
    }
  }
}

const encode: ScalarFunction = {
  kind: "scalar",
  name: "encode",
  resolve(args, types) {
    checkArity("encode", args, 2);
    return { args: [castTo(args[0]!, types[0]!, StringType), castTo(args[1]!, types[1]!, StringType)], type: BinaryType };
  },
  kernel: (args, n) => mapRows(BinaryType, args, n, (s, c) => encodeText(s as string, charsetOf("encode", c))),
};

/**
 * decode(bin, charset); with three or more arguments Spark's other decode, a CASE over its first
 * argument: decode(x, search1, result1, ..., [default]), NULL-safe (a NULL x matches a NULL search).
 */
const decode: ScalarFunction = {
  kind: "scalar",
  name: "decode",
  resolve(args, types, call) {
    // Spark's Decode asks for "2" parameters whatever the form, not "> 1"
    if (args.length < 2) throw arityError("decode", "2", args.length);
    if (args.length === 2) {
      requireBinaryInput(call, args, types, 0);
      return { args: [castTo(args[0]!, types[0]!, BinaryType), castTo(args[1]!, types[1]!, StringType)], type: StringType };
    }
    const results = args.map((_, i) => i).filter((i) => i >= 2 && (i % 2 === 0 || i === args.length - 1));
    const t = widerTypeOfAll(results.map((i) => types[i]!));
    if (!t)
      throw diffTypes(
        call,
        "decode",
        results.map((i) => types[i]!),
      );
    for (let i = 1; i + 1 < args.length; i += 2) {
      if (!comparisonType(types[0]!, types[i]!)) throw diffTypes(call, "decode", [types[0]!, types[i]!]);
    }
    return { args: args.map((a, i) => (results.includes(i) ? castTo(a, types[i]!, t) : a)), type: t };
  },
  kernel(args, n, ctx) {
    if (args.length === 2) return mapRows(StringType, args, n, (b, c) => decodeBytes(b as Uint8Array, charsetOf("decode", c)));
    // each search compared with x as = compares them (both cast to their comparison type)
    const pairs: [Vector, Vector][] = [];
    for (let i = 1; i + 1 < args.length; i += 2) {
      const ct = comparisonType(args[0]!.type, args[i]!.type)!;
      pairs.push([castVector(args[0]!, ct, n, ctx), castVector(args[i]!, ct, n, ctx)]);
    }
    const type = args[2]!.type;
    const hasDefault = args.length % 2 === 0;
    const k = args.length;
    // the cast (x, search) pairs ride along as extra arguments: v[k + 2p] is x, v[k + 2p + 1] the search
    return mapRows(
      type,
      [...args, ...pairs.flat()],
      n,
      (...v) => {
        for (let p = 0; p < pairs.length; p++) {
          const x = v[k + 2 * p];
          const s = v[k + 2 * p + 1];
          if ((x == null && s == null) || (x != null && s != null && compareValues(x, s) === 0)) return v[2 + 2 * p];
        }
        return hasDefault ? v[k - 1] : null;
      },
      false,
    );
  },
};

register(encode, decode);
