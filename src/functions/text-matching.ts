/**
 * jaro_winkler_similarity(a, b) (Jaro similarity with Winkler's boost for a common prefix of up
 * to 4 characters, scaling 0.1, applied from 0.7 up), regexp_instr(str, regexp[, idx]) (the
 * 1-based start of the first match, 0 for none) and sentences(str[, language, country]) (an
 * array of sentences, each an array of words; sentences end at '.', '!' or '?', words are runs
 * of letters, digits and apostrophes — the common cases of Java's BreakIterator).
 */
import { ArusError } from "../common/errors.js";
import { ArrayOf, DoubleType, IntegerType, StringType } from "../types/datatypes.js";
import { javaRegExp } from "./java-regex.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction } from "./registry.js";

export function jaroWinkler(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0 && t.length === 0) return 1;
  if (s.length === 0 || t.length === 0) return 0;
  const window = Math.max(Math.floor(Math.max(s.length, t.length) / 2) - 1, 0);
  const sMatched = new Array<boolean>(s.length).fill(false);
  const tMatched = new Array<boolean>(t.length).fill(false);
  let m = 0;
  for (let i = 0; i < s.length; i++) {
    for (let j = Math.max(0, i - window); j < Math.min(t.length, i + window + 1); j++) {
      if (!tMatched[j] && s[i] === t[j]) {
        sMatched[i] = tMatched[j] = true;
        m++;
        break;
      }
    }
  }
  if (m === 0) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    if (!sMatched[i]) continue;
    while (!tMatched[j]) j++;
    if (s[i] !== t[j]) transpositions++;
    j++;
  }
  const jaro = (m / s.length + m / t.length + (m - transpositions / 2) / m) / 3;
  if (jaro < 0.7) return jaro;
  let prefix = 0;
  while (prefix < 4 && prefix < s.length && prefix < t.length && s[prefix] === t[prefix]) prefix++;
  return jaro + 0.1 * prefix * (1 - jaro);
}

const jaroWinklerFn: ScalarFunction = {
  kind: "scalar",
  name: "jaro_winkler_similarity",
  resolve(args, types) {
    checkArity("jaro_winkler_similarity", args, 2);
    return { args: args.map((x, i) => castTo(x, types[i]!, StringType)), type: DoubleType };
  },
  kernel: (args, n) => mapRows(DoubleType, args, n, (a, b) => jaroWinkler(a as string, b as string)),
};

const regexpInstr: ScalarFunction = {
  kind: "scalar",
  name: "regexp_instr",
  resolve(args, types) {
    checkArity("regexp_instr", args, 2, 3);
    return { args: args.map((x, i) => castTo(x, types[i]!, i < 2 ? StringType : IntegerType)), type: IntegerType };
  },
  kernel: (args, n) =>
    mapRows(IntegerType, args, n, (s, pattern) => {
      let re: RegExp;
      try {
        re = javaRegExp(pattern as string);
      } catch {
        throw new ArusError(
          "INVALID_PARAMETER_VALUE.PATTERN",
          `[INVALID_PARAMETER_VALUE.PATTERN] The value of parameter(s) \`regexp\` in \`regexp_instr\` is invalid: '${pattern as string}'.`,
        );
      }
      const m = re.exec(s as string);
      return m === null ? 0 : Array.from((s as string).slice(0, m.index)).length + 1;
    }),
};

export function sentences(text: string): string[][] {
  const out: string[][] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+/u)) {
    const words = sentence.match(/[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu) ?? [];
    if (words.length > 0) out.push(words);
  }
  return out;
}

const sentencesFn: ScalarFunction = {
  kind: "scalar",
  name: "sentences",
  resolve(args, types) {
    checkArity("sentences", args, 1, 3);
    return { args: args.map((x, i) => castTo(x, types[i]!, StringType)), type: ArrayOf(ArrayOf(StringType)) };
  },
  kernel: (args, n) => mapRows(ArrayOf(ArrayOf(StringType)), args.slice(0, 1), n, (s) => sentences(s as string)),
};

register(jaroWinklerFn, regexpInstr, sentencesFn);
