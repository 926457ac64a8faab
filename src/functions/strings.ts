/**
 * String functions. Strings are JS strings in a `string[]` (a UTF-8 STRING vector decodes to one;
 * length, startswith, endswith, contains and instr also have byte paths); positions are 1-based
 * characters (code points) as in SQL.
 */

import { constantVector, type Vector } from "../columnar/vector.js";
import type { Expr } from "../plan/expressions.js";
import { widerTypeOfAll } from "../types/coercion.js";
import { ArrayOf, BooleanType, type DataType, IntegerType, isAtomic, isNumeric, StringType, sqlTypeName } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import {
  castTo,
  checkArity,
  diffTypes,
  exactArg,
  type Resolved,
  register,
  registerAlias,
  type ScalarFunction,
  stringArg,
  typeMismatch,
} from "./registry.js";
import { utf8Affix, utf8Contains, utf8Length } from "./utf8-kernels.js";

/** Resolve with every argument cast to the given types (STRING args accept any atomic type). */
export function signature(name: string, argTypes: DataType[], result: DataType, minArgs = argTypes.length) {
  return (args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved => {
    checkArity(name, args, minArgs, argTypes.length);
    types.forEach((t, i) => {
      // Only atomic values are implicitly cast (Spark never turns an ARRAY into a STRING), and
      // into a number only numbers and strings (Spark never turns a DATE or a BOOLEAN into one).
      const to = argTypes[i]!;
      if (!isAtomic(t) || (isNumeric(to) && !isNumeric(t) && t.kind !== "string" && t.kind !== "null"))
        throw typeMismatch(call, i, `"${sqlTypeName(to)}"`, args[i]!, t);
    });
    return { args: args.map((a, i) => castTo(a, types[i]!, argTypes[i]!)), type: result };
  };
}

/** A signature checked as Spark's `ExpectsInputTypes` without implicit casts: each argument of its type or NULL (registry.ts `exactArg`). */
export function exactSignature(name: string, argTypes: DataType[], result: DataType, minArgs = argTypes.length) {
  return (args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved => {
    checkArity(name, args, minArgs, argTypes.length);
    return { args: args.map((_, i) => exactArg(call, args, types, i, argTypes[i]!)), type: result };
  };
}

/** `bytes`: a byte path for UTF-8 STRING columns (utf8-kernels.ts), null when it does not apply. */
export function stringFn(
  name: string,
  argTypes: DataType[],
  result: DataType,
  fn: (...vals: never[]) => unknown,
  minArgs?: number,
  bytes?: (args: readonly Vector[], n: number) => Vector | null,
): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve: signature(name, argTypes, result, minArgs),
    kernel: (args, n) => bytes?.(args, n) ?? mapRows(result, args, n, fn as (...v: unknown[]) => unknown),
  };
}

const S = StringType;
const I = IntegerType;

/** reverse(s): the characters (code points) reversed; reverse(array): the elements reversed. */
const reverse: ScalarFunction = {
  kind: "scalar",
  name: "reverse",
  resolve(args, types, call) {
    checkArity("reverse", args, 1);
    const t = types[0]!;
    if (t.kind === "array") return { args, type: t };
    if (t.kind === "null" || isAtomic(t)) return { args: [castTo(args[0]!, t, S)], type: S };
    throw typeMismatch(call, 0, '("STRING" or "ARRAY")', args[0]!, t);
  },
  kernel: (args, n) =>
    args[0]!.type.kind === "array"
      ? mapRows(args[0]!.type, args, n, (a) => [...(a as unknown[])].reverse())
      : mapRows(S, args, n, (s) =>
          Array.from(s as string)
            .reverse()
            .join(""),
        ),
};

/** Code points, not UTF-16 units: SQL lengths and positions count characters. */
const codePoints = (s: string): string[] => Array.from(s);

/** Spark's substring: pos is 1-based, 0 acts as 1, negative counts from the end. */
export function sqlSubstring(s: string, pos: number, len = Number.MAX_SAFE_INTEGER): string {
  const cps = Array.from(s);
  let start = pos > 0 ? pos - 1 : pos < 0 ? cps.length + pos : 0;
  let end = start + len;
  if (start < 0) start = 0;
  if (len <= 0 || end <= 0) return "";
  if (end > cps.length) end = cps.length;
  return cps.slice(start, end).join("");
}

/** Spark's instr: the 1-based position in characters (code points, not UTF-16 units) of the first match, 0 for none. */
function pad(left: boolean) {
  return (s: string, len: number, p = " "): string => {
    const cps = codePoints(s);
    if (len <= cps.length) return cps.slice(0, Math.max(0, len)).join("");
    const padCps = codePoints(p);
    if (padCps.length === 0) return s;
    // Repeat the pad by characters: a pad of astral characters is two UTF-16 units each.
    const missing = len - cps.length;
    const fill = Array.from({ length: missing }, (_, k) => padCps[k % padCps.length]).join("");
    return left ? fill + s : s + fill;
  };
}

/**
 * trim / ltrim / rtrim: one argument trims spaces (only U+0020, as Spark); two are Spark's
 * `(trimStr, str)`, trimStr FIRST, the characters (code points) to strip from str. SQL's
 * `TRIM(LEADING 'x' FROM s)` parses to `ltrim('x', s)`.
 */
function trimFn(name: string, leading: boolean, trailing: boolean): ScalarFunction {
  const spaces = new RegExp(leading && trailing ? "^ +| +$" : leading ? "^ +" : " +$", "g");
  const strip = (s: string, chars: string): string => {
    const set = new Set(codePoints(chars));
    const cps = codePoints(s);
    let a = 0;
    let b = cps.length;
    if (leading) while (a < b && set.has(cps[a]!)) a++;
    if (trailing) while (b > a && set.has(cps[b - 1]!)) b--;
    return cps.slice(a, b).join("");
  };
  return stringFn(name, [S, S], S, (x: string, y?: string) => (y === undefined ? x.replace(spaces, "") : strip(y, x)), 1);
}

/** concat of strings (others cast to STRING), or of arrays when every argument is one (Spark's Concat). */
const concat: ScalarFunction = {
  kind: "scalar",
  name: "concat",
  resolve: (args, types, call) => {
    if (types.some((t) => t.kind === "array")) {
      // arrays concatenate only with arrays (Spark: DATA_DIFF_TYPES, a NULL literal included)
      const t = types.every((x) => x.kind === "array") ? widerTypeOfAll(types) : null;
      if (!t) throw diffTypes(call, "concat", types);
      return { args: args.map((a, i) => castTo(a, types[i]!, t)), type: t };
    }
    return { args: args.map((a, i) => castTo(a, types[i]!, S)), type: S };
  },
  kernel: (args, n) =>
    args.length === 0
      ? constantVector(S, "", n) // concat() is the empty string, as in Spark
      : args[0]!.type.kind === "array"
        ? mapRows(args[0]!.type, args, n, (...v) => (v as unknown[][]).flat(1))
        : mapRows(S, args, n, (...v) => v.join("")),
};

const concatWs: ScalarFunction = {
  kind: "scalar",
  name: "concat_ws",
  resolve: (args, types, call) => {
    checkArity("concat_ws", args, 1, Infinity);
    // the separator is a STRING (an ARRAY is taken after it only); the rest STRINGs or ARRAYs of them
    const sep = stringArg(call, args, types, 0);
    // an ARRAY's elements cast to STRING as Spark's implicit cast does (1.0D is '1.0', a DATE its
    // text); an ARRAY of ARRAYs, MAPs or STRUCTs Spark refuses
    const toText = (a: Expr, t: DataType, i: number) => {
      if (t.kind === "array" && !isAtomic(t.elementType)) throw typeMismatch(call, i, '("ARRAY<STRING>" or "STRING")', a, t);
      return castTo(a, t, t.kind === "array" ? ArrayOf(S) : S);
    };
    return { args: [sep, ...args.slice(1).map((a, i) => toText(a, types[i + 1]!, i + 1))], type: S };
  },
  kernel: (args, n) =>
    mapRows(
      S,
      args,
      n,
      (sep, ...v) =>
        sep == null
          ? null
          : v
              .flatMap((x) => (Array.isArray(x) ? x : [x]))
              .filter((x) => x != null)
              .join(sep as string),
      false,
    ),
};

register(
  stringFn("upper", [S], S, (s: string) => s.toUpperCase()),
  stringFn("lower", [S], S, (s: string) => s.toLowerCase()),
  stringFn(
    "length",
    [S],
    I,
    (s: string) => Array.from(s).length,
    undefined,
    (a, n) => utf8Length(a[0]!, n),
  ),
  stringFn("substring", [S, I, I], S, (s: string, p: number, l?: number) => sqlSubstring(s, p, l ?? Number.MAX_SAFE_INTEGER), 2),
  trimFn("trim", true, true),
  trimFn("ltrim", true, false),
  trimFn("rtrim", false, true),
  stringFn(
    "contains",
    [S, S],
    BooleanType,
    (s: string, t: string) => s.includes(t),
    undefined,
    (a, n) => utf8Contains(a[0]!, a[1]!, n),
  ),
  stringFn(
    "startswith",
    [S, S],
    BooleanType,
    (s: string, t: string) => s.startsWith(t),
    undefined,
    (a, n) => utf8Affix(a[0]!, a[1]!, n, false),
  ),
  stringFn(
    "endswith",
    [S, S],
    BooleanType,
    (s: string, t: string) => s.endsWith(t),
    undefined,
    (a, n) => utf8Affix(a[0]!, a[1]!, n, true),
  ),
  stringFn("lpad", [S, I, S], S, pad(true), 2),
  stringFn("rpad", [S, I, S], S, pad(false), 2),
  stringFn("replace", [S, S, S], S, (s: string, a: string, b = "") => (a === "" ? s : s.split(a).join(b)), 2),
  reverse,
  stringFn("initcap", [S], S, (s: string) => s.toLowerCase().replace(/(^|\s)(\S)/g, (_m, a: string, b: string) => a + b.toUpperCase())),
  concat,
  concatWs,
);
registerAlias("substr", "substring");
registerAlias("char_length", "length");
