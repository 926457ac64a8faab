/**
 * The regular-expression string functions (rlike is a predicate: predicates.ts): regexp_replace,
 * split, regexp_extract, regexp_extract_all, regexp_substr, regexp_count. Patterns are Java's (java-regex.ts); like
 * Java's, matching runs over UTF-16 units, so counts and empty matches agree with Spark's.
 */
import { AnalysisException, ArusError } from "../common/errors.js";
import { exprToSql } from "../plan/sql-text.js";
import { ArrayOf, IntegerType, StringType } from "../types/datatypes.js";
import { javaRegExp, javaReplacement } from "./java-regex.js";
import { mapRows } from "./kernel-util.js";
import { register, type ScalarFunction } from "./registry.js";
import { signature, stringFn } from "./strings.js";

const S = StringType;
const I = IntegerType;

/** Every match of `pattern` in `s`, in order, as Java's Matcher.find() loop finds them. */
function findAll(s: string, pattern: string): RegExpExecArray[] {
  const re = javaRegExp(pattern, "g");
  re.lastIndex = 0;
  const out: RegExpExecArray[] = [];
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    out.push(m);
    if (m[0] === "") re.lastIndex++; // an empty match: move on one unit, as Java does
  }
  return out;
}

const groupCounts = new Map<string, number>();

/** How many capture groups `pattern` has. */
function groupCount(pattern: string): number {
  let k = groupCounts.get(pattern);
  if (k === undefined) {
    const re = javaRegExp(pattern);
    // An alternative that matches the empty string makes exec report every group (unmatched).
    k = new RegExp(`${re.source}|`, re.flags).exec("")!.length - 1;
    if (groupCounts.size > 1000) groupCounts.clear();
    groupCounts.set(pattern, k);
  }
  return k;
}

/** Spark's INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX when `idx` is not a group of `pattern`. */
function checkGroupIndex(fn: string, pattern: string, idx: number): void {
  const max = groupCount(pattern);
  if (idx < 0 || idx > max) {
    throw new ArusError(
      "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX",
      `[INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX] The value of parameter(s) \`idx\` in \`${fn}\` is invalid: Expects group index between 0 and ${max}, but got ${idx}.`,
    );
  }
}

/**
 * split(str, regex[, limit = -1]), as Spark's UTF8String.split: limit > 0 caps the number of
 * parts (the last holds the rest), limit <= 0 keeps them all, trailing empty strings included.
 * An empty regex splits into characters (code points). A zero-width match at the start gives
 * no leading empty part (Java's String.split).
 */
export function sqlSplit(s: string, pattern: string, limit = -1): string[] {
  if (pattern === "" && s !== "") {
    const cps = Array.from(s);
    if (limit <= 0 || limit >= cps.length) return cps;
    return [...cps.slice(0, limit - 1), cps.slice(limit - 1).join("")];
  }
  const parts: string[] = [];
  let index = 0;
  for (const m of findAll(s, pattern)) {
    if (limit > 0 && parts.length === limit - 1) break;
    if (index === 0 && m.index === 0 && m[0] === "") continue;
    parts.push(s.slice(index, m.index));
    index = m.index + m[0].length;
  }
  if (index === 0 && parts.length === 0) return [s];
  parts.push(s.slice(index));
  return parts;
}

// Spark checks the group index against the pattern only once something matched.
function regexpExtract(s: string, pattern: string, idx = 1): string {
  const m = javaRegExp(pattern).exec(s);
  if (m === null) return "";
  checkGroupIndex("regexp_extract", pattern, idx);
  return m[idx] ?? "";
}

function regexpExtractAll(s: string, pattern: string, idx = 1): string[] {
  const matches = findAll(s, pattern);
  if (matches.length > 0) checkGroupIndex("regexp_extract_all", pattern, idx);
  return matches.map((m) => m[idx] ?? "");
}

const resolveReplace = signature("regexp_replace", [S, S, S, I], S, 3);

/**
 * regexp_replace(str, regexp, rep[, position]): every match replaced, from character `position`
 * on (1-based; the text before it kept, `^` matching where the search starts, as Spark's
 * region). The position is a literal above 0, as Spark requires.
 */
const regexpReplace: ScalarFunction = {
  kind: "scalar",
  name: "regexp_replace",
  resolve(args, types, call) {
    const r = resolveReplace(args, types, call);
    // (resolved again, the position is the implicit cast to INT made the first time)
    const given = args[3];
    const p = given?.kind === "cast" && given.implicit ? given.child : given;
    if (p !== undefined) {
      const cannot = `[DATATYPE_MISMATCH.%s] Cannot resolve "${exprToSql(call)}" due to data type mismatch: `;
      if (p.kind !== "literal") {
        throw new AnalysisException(
          "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
          `${cannot.replace("%s", "NON_FOLDABLE_INPUT")}the input \`position\` should be a foldable "INT" expression; however, got "${exprToSql(p)}".`,
        );
      }
      const v = p.value === null ? null : Math.trunc(Number(p.value));
      if (v !== null && v <= 0) {
        throw new AnalysisException(
          "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
          `${cannot.replace("%s", "VALUE_OUT_OF_RANGE")}The position must be between (0, 2147483647] (current value = ${v}).`,
        );
      }
    }
    return r;
  },
  // Java's replacement strings ($1, ${name}, \$), as Spark's.
  kernel: (args, n) =>
    mapRows(S, args, n, (s, p, r, position = 1) => {
      const str = s as string;
      const re = javaRegExp(p as string, "g");
      const rep = javaReplacement(r as string);
      if (position === 1) return str.replace(re, rep);
      const cps = Array.from(str);
      if ((position as number) > cps.length) return str;
      return (
        cps.slice(0, (position as number) - 1).join("") +
        cps
          .slice((position as number) - 1)
          .join("")
          .replace(re, rep)
      );
    }),
};

register(
  regexpReplace,
  stringFn("split", [S, S, I], ArrayOf(S, false), sqlSplit, 2),
  stringFn("regexp_extract", [S, S, I], S, regexpExtract, 2),
  stringFn("regexp_extract_all", [S, S, I], ArrayOf(S, false), regexpExtractAll, 2),
  // Spark's RegExpSubStr is NULLIF(regexp_extract(str, regex, 0), '').
  stringFn("regexp_substr", [S, S], S, (s: string, p: string) => javaRegExp(p).exec(s)?.[0] || null),
  stringFn("regexp_count", [S, S], I, (s: string, p: string) => findAll(s, p).length),
);
