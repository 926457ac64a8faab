/**
 * LIKE and ILIKE (Spark's Like / ILike): `_` one character, `%` any run, and an escape character
 * (`\` unless `ESCAPE 'c'` or the functions' third argument says otherwise) that makes the next
 * `_`, `%` or itself literal. Spark refuses a pattern where the escape precedes anything else or
 * ends it (INVALID_FORMAT), as here. ILIKE is LIKE on both sides lowercased, the escape as given.
 */
import { constantString, type Vector } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { BooleanType, type DataType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { checkArity, type Resolved, register, type ScalarFunction, stringArg } from "./registry.js";
import { utf8Like } from "./utf8-kernels.js";

const DEFAULT_ESCAPE = "\\";
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

/** A SQL LIKE pattern as a RegExp, `escapeChar` making the next `_`, `%` or itself literal. */
export function likeToRegExp(pattern: string, escapeChar = DEFAULT_ESCAPE): RegExp {
  let re = "";
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === escapeChar) {
      const next = chars[++i];
      if (next === undefined) throw invalidFormat(pattern, "ESC_AT_THE_END", "The escape character is not allowed to end with.");
      if (next !== "_" && next !== "%" && next !== escapeChar) {
        throw invalidFormat(pattern, "ESC_IN_THE_MIDDLE", `The escape character is not allowed to precede '${next}'.`);
      }
      re += next.replace(REGEX_SPECIAL, "\\$&");
    } else if (c === "%") re += "[\\s\\S]*";
    else if (c === "_") re += "[\\s\\S]";
    else re += c.replace(REGEX_SPECIAL, "\\$&");
  }
  // "u": `_` and `%` count characters (code points), as Spark's, not UTF-16 units.
  return new RegExp(`^${re}$`, "su");
}

/** Spark's INVALID_FORMAT, the pattern quoted as a SQL string value (backslashes and quotes escaped). */
function invalidFormat(pattern: string, sub: string, detail: string): AnalysisException {
  const quoted = pattern.replace(/\\/g, "\\\\").replace(/'/g, "\\'");
  return new AnalysisException(`INVALID_FORMAT.${sub}`, `[INVALID_FORMAT.${sub}] The format is invalid: '${quoted}'. ${detail}`);
}

/** Each (escape, pattern) compiled once. */
const compiled = new Map<string, RegExp>();
function regExpOf(pattern: string, escapeChar: string): RegExp {
  const key = `${escapeChar}\u0000${pattern}`;
  let r = compiled.get(key);
  if (!r) {
    r = likeToRegExp(pattern, escapeChar);
    compiled.set(key, r);
  }
  return r;
}

/** The two strings and the optional escape: a string literal of one character. */
function resolveLike(name: string, args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved {
  checkArity(name, args, 2, 3);
  const strings = [0, 1].map((i) => stringArg(call, args, types, i));
  const escapeChar = args[2];
  if (
    escapeChar !== undefined &&
    !(escapeChar.kind === "literal" && typeof escapeChar.value === "string" && Array.from(escapeChar.value).length === 1)
  ) {
    const shown = escapeChar.kind === "literal" && typeof escapeChar.value === "string" ? escapeChar.value : exprToSql(escapeChar);
    throw new AnalysisException(
      "INVALID_ESCAPE_CHAR",
      `[INVALID_ESCAPE_CHAR] \`EscapeChar\` should be a string literal of length one, but got "${shown}".`,
    );
  }
  return { args: [...strings, ...args.slice(2)], type: BooleanType };
}

function likeKernel(args: readonly Vector[], n: number): Vector {
  const escapeChar = args[2] === undefined ? DEFAULT_ESCAPE : (constantString(args[2]) ?? DEFAULT_ESCAPE);
  return (
    utf8Like(args[0]!, args[1]!, n, escapeChar) ??
    mapRows(BooleanType, [args[0]!, args[1]!], n, (s, p) => regExpOf(p as string, escapeChar).test(s as string))
  );
}

const like: ScalarFunction = {
  kind: "scalar",
  name: "like",
  resolve: (args, types, call) => resolveLike("like", args, types, call),
  kernel: likeKernel,
};

const ilike: ScalarFunction = {
  kind: "scalar",
  name: "ilike",
  resolve: (args, types, call) => resolveLike("ilike", args, types, call),
  kernel(args, n) {
    const lowered = [args[0]!, args[1]!].map((a) => mapRows(StringType, [a], n, (s) => (s as string).toLowerCase()));
    return likeKernel(args[2] === undefined ? lowered : [...lowered, args[2]], n);
  },
};

register(like, ilike);
