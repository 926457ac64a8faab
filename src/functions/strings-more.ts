/**
 * More string functions: levenshtein (with an optional threshold), soundex, split_part, btrim,
 * octet_length / bit_length, character_length, regexp_like, url_encode / url_decode and
 * overlay. Lengths and positions count code points, as Spark's UTF8String does.
 */
import "./strings.js"; // registers the functions aliased below
import "./predicates.js"; // registers the functions aliased below
import { ArusError } from "../common/errors.js";
import { BinaryType, type DataType, IntegerType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, registerAlias, type ScalarFunction, typeMismatch } from "./registry.js";
import { exactSignature, stringFn } from "./strings.js";

const codePoints = (s: string): string[] => Array.from(s);
const utf8 = new TextEncoder();

/** Levenshtein distance over code points, two rows of the table at a time. */
export function levenshtein(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length]!;
}

const levenshteinFn: ScalarFunction = {
  kind: "scalar",
  name: "levenshtein",
  resolve(args, types) {
    checkArity("levenshtein", args, 2, 3);
    const threshold = args[2] ? [castTo(args[2], types[2]!, IntegerType)] : [];
    return { args: [castTo(args[0]!, types[0]!, StringType), castTo(args[1]!, types[1]!, StringType), ...threshold], type: IntegerType };
  },
  // With a threshold, a distance above it is -1.
  kernel: (args, n) =>
    mapRows(IntegerType, args, n, (a, b, t) => {
      const d = levenshtein(a as string, b as string);
      return t !== undefined && d > (t as number) ? -1 : d;
    }),
};

const SOUNDEX_CODES = "01230127022455012623017202"; // A..Z; 7 = H and W, skipped

/** Spark's UTF8String.soundex: text not starting with an ASCII letter comes back unchanged. */
export function soundex(s: string): string {
  if (s.length === 0) return s;
  const letter = (c: string): number => {
    const k = c.toUpperCase().charCodeAt(0);
    return c.length === 1 && c.charCodeAt(0) < 128 && k >= 65 && k <= 90 ? k - 65 : -1;
  };
  const first = letter(s[0]!);
  if (first < 0) return s;
  const out = [String.fromCharCode(65 + first)];
  let last = SOUNDEX_CODES[first]!;
  // Spark walks UTF-8 bytes: a non-ASCII character is a run of non-letters.
  for (const ch of s.slice(1)) {
    const k = letter(ch);
    if (k < 0) {
      last = "0";
      continue;
    }
    const code = SOUNDEX_CODES[k]!;
    if (code === "7") continue;
    if (code !== "0" && code !== last) {
      out.push(code);
      if (out.length > 3) break;
    }
    last = code;
  }
  while (out.length < 4) out.push("0");
  return out.join("");
}

/** split_part(str, delimiter, part): part counts from 1, negative from the end; 0 is an error. */
const splitPart: ScalarFunction = {
  kind: "scalar",
  name: "split_part",
  resolve(args, types) {
    checkArity("split_part", args, 3);
    return {
      args: [castTo(args[0]!, types[0]!, StringType), castTo(args[1]!, types[1]!, StringType), castTo(args[2]!, types[2]!, IntegerType)],
      type: StringType,
    };
  },
  kernel: (args, n) =>
    mapRows(StringType, args, n, (s, d, p) => {
      const k = p as number;
      if (k === 0)
        throw new ArusError(
          "INVALID_INDEX_OF_ZERO",
          "[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).",
        );
      const parts = (d as string) === "" ? [s as string] : (s as string).split(d as string);
      const i = k > 0 ? k - 1 : parts.length + k;
      return i >= 0 && i < parts.length ? parts[i]! : "";
    }),
};

/** btrim(str[, chars]): trim() of both ends, by spaces or by any of `chars`. */
const btrim: ScalarFunction = {
  kind: "scalar",
  name: "btrim",
  resolve(args, types) {
    checkArity("btrim", args, 1, 2);
    return { args: args.map((a, i) => castTo(a, types[i]!, StringType)), type: StringType };
  },
  kernel: (args, n) =>
    mapRows(StringType, args, n, (s, chars) => {
      const set = new Set(codePoints(chars === undefined ? " " : (chars as string)));
      const cps = codePoints(s as string);
      let a = 0;
      let b = cps.length;
      while (a < b && set.has(cps[a]!)) a++;
      while (b > a && set.has(cps[b - 1]!)) b--;
      return cps.slice(a, b).join("");
    }),
};

function byteLength(name: string, bitsPerByte: number): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = types[0]!;
      if (t.kind === "binary") return { args, type: IntegerType };
      if (t.kind === "array" || t.kind === "map" || t.kind === "struct") throw typeMismatch(call, 0, '("STRING" or "BINARY")', args[0]!, t);
      return { args: [castTo(args[0]!, t, StringType)], type: IntegerType };
    },
    kernel: (args, n) =>
      mapRows(IntegerType, args, n, (v) => bitsPerByte * (typeof v === "string" ? utf8.encode(v).length : (v as Uint8Array).length)),
  };
}

// Java's URLEncoder: letters, digits and . - * _ stay; space is '+'; the rest %XX of the UTF-8 bytes.
function urlEncode(s: string): string {
  let out = "";
  for (const ch of s) {
    if (/^[A-Za-z0-9.\-*_]$/.test(ch)) out += ch;
    else if (ch === " ") out += "+";
    else for (const b of utf8.encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function cannotDecode(s: string): ArusError {
  return new ArusError(
    "CANNOT_DECODE_URL",
    `[CANNOT_DECODE_URL] The provided URL cannot be decoded: ${s}. Please ensure that the URL is properly formatted and try again.`,
  );
}

// Java's URLDecoder: '+' is a space, %XX sequences are UTF-8 bytes; a bad escape is an error.
function urlDecode(s: string): string {
  const bytes: number[] = [];
  let out = "";
  const flush = () => {
    if (bytes.length) out += new TextDecoder().decode(Uint8Array.from(bytes.splice(0)));
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "%") {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw cannotDecode(s);
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
      continue;
    }
    flush();
    out += c === "+" ? " " : c;
  }
  flush();
  return out;
}

/** try_url_decode (Spark 4.0): url_decode, NULL where it fails. */
function tryUrlDecode(s: string): string | null {
  try {
    return urlDecode(s);
  } catch (e) {
    if (e instanceof ArusError) return null;
    throw e;
  }
}

/** overlay(input, replace, pos[, len]): len code points from pos replaced; a negative len is replace's length. */
const overlay: ScalarFunction = {
  kind: "scalar",
  name: "overlay",
  resolve(args, types) {
    checkArity("overlay", args, 3, 4);
    const t: DataType = types[0]!.kind === "binary" && types[1]!.kind === "binary" ? BinaryType : StringType;
    const ints = args.slice(2).map((a, i) => castTo(a, types[i + 2]!, IntegerType));
    return { args: [castTo(args[0]!, types[0]!, t), castTo(args[1]!, types[1]!, t), ...ints], type: t };
  },
  kernel: (args, n) =>
    mapRows(StringType, args, n, (s, r, p, l) => {
      const input = codePoints(s as string);
      const repl = r as string;
      const len = l === undefined || (l as number) < 0 ? codePoints(repl).length : (l as number);
      const pos = p as number;
      const head = input.slice(0, Math.max(0, pos - 1)).join("");
      const tail = input.slice(Math.max(0, pos - 1 + len)).join("");
      return head + repl + tail;
    }),
};

register(
  levenshteinFn,
  // Spark's SoundEx takes a STRING only (no implicit cast: soundex(1) is refused)
  { ...stringFn("soundex", [StringType], StringType, soundex), resolve: exactSignature("soundex", [StringType], StringType) },
  splitPart,
  btrim,
  byteLength("octet_length", 1),
  byteLength("bit_length", 8),
  stringFn("url_encode", [StringType], StringType, urlEncode),
  stringFn("url_decode", [StringType], StringType, urlDecode),
  stringFn("try_url_decode", [StringType], StringType, tryUrlDecode),
  overlay,
);
registerAlias("character_length", "length");
registerAlias("regexp_like", "rlike");
registerAlias("regexp", "rlike");
