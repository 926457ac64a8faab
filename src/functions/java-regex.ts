/**
 * Spark's regular expressions are Java's (java.util.regex); arus runs them as JS RegExps. Most
 * patterns mean the same in both. This translates the Java constructs a Spark user writes that
 * JS reads differently or rejects, and refuses, naming them, the ones JS cannot express, so a
 * pattern never silently matches something else:
 *
 * - leading inline flags `(?i)`, `(?s)`, `(?m)` (and combinations) become JS flags;
 * - `\A`, `\z`, `\Z` (input boundaries) and a `$` outside MULTILINE, which in Java also matches
 *   before a final line terminator; a `.` that stops at every Java line terminator; `\h`, `\H`,
 *   `\R`, `\e`, `\a`; Java's ASCII-only `\s`;
 * - `.`, negated classes `[^...]`, `\S`, `\W`, `\D`, `\H` take one code point (a surrogate
 *   pair whole), as Java's do; JS without its unicode mode would take one UTF-16 unit;
 * - `\Q...\E` quoting;
 * - the POSIX classes `\p{Lower}`, `\p{Alpha}`, `\p{Digit}`, ... (ASCII, as Java's defaults),
 *   and their `\P{...}` complements;
 * - refused: possessive quantifiers, atomic groups, inline flags elsewhere than at the start
 *   and other `\p{...}` classes (JS without its unicode mode reads them as literal text).
 */
import { IllegalArgumentException } from "../common/errors.js";

/** Java's POSIX character classes (US-ASCII only, Java's default) as JS class contents. */
const POSIX: Record<string, string> = {
  Lower: "a-z",
  Upper: "A-Z",
  ASCII: "\\x00-\\x7F",
  Alpha: "a-zA-Z",
  Digit: "0-9",
  Alnum: "a-zA-Z0-9",
  Punct: "!-\\/:-@\\[-`{-~",
  Graph: "!-~",
  Print: " -~",
  Blank: " \\t",
  Cntrl: "\\x00-\\x1F\\x7F",
  XDigit: "0-9a-fA-F",
  Space: " \\t\\n\\x0B\\f\\r",
};

/** Java escapes JS (without its unicode mode) would read as the bare letter. */
const HSPACE = " \\t\\xA0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000";
const JAVA_ESCAPES: Record<string, string> = {
  e: "\\x1B",
  a: "\\x07",
  h: `[${HSPACE}]`,
  H: `(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|[^${HSPACE}\\uD800-\\uDBFF])`,
  R: "(?:\\r\\n|[\\n\\x0B\\f\\r\\u0085\\u2028\\u2029])",
};

const PAIR = "[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]";
const LONE_HIGH = "[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])";
const JAVA_SPACE = " \\t\\n\\x0B\\f\\r";

/** One code point not in the class contents `set` (a surrogate pair is one, as in Java). */
function oneCodePointNot(set: string): string {
  // The surrogate range first: `set` may end in a literal '-'.
  return `(?:${PAIR}|${LONE_HIGH}|[^\\uD800-\\uDBFF${set}])`;
}

const LINE_END = "(?:\\r\\n|[\\n\\r\\u0085\\u2028\\u2029])";
const INPUT_START = "(?<![\\s\\S])";
const INPUT_END = "(?![\\s\\S])";

function refuse(pattern: string, what: string): never {
  throw new IllegalArgumentException(
    `The regular expression '${pattern}' uses ${what}, which Java's regular expressions (Spark's) support but arus's JavaScript engine cannot run.`,
  );
}

function quoteLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** The JS source and flags that match what `pattern` matches in Java. */
export function translateJavaRegex(pattern: string): { source: string; flags: string } {
  let flags = "";
  let i = 0;
  // Leading inline flags: (?i), (?is), (?i)(?s) ...
  for (let m = /^\(\?([a-zA-Z]+)\)/.exec(pattern); m; m = /^\(\?([a-zA-Z]+)\)/.exec(pattern.slice(i))) {
    for (const f of m[1]!) {
      if (f === "i" || f === "s" || f === "m") flags += flags.includes(f) ? "" : f;
      else if (f !== "u" && f !== "d") refuse(pattern, `the inline flag (?${f})`);
    }
    i += m[0].length;
  }
  const multiline = flags.includes("m");
  const dotAll = flags.includes("s");
  let out = "";
  let inClass = 0;
  let classStart = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === undefined) {
        out += "\\\\";
        i++;
        continue;
      }
      if (next === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        const text = pattern.slice(i + 2, end < 0 ? pattern.length : end);
        out += quoteLiteral(text);
        i = end < 0 ? pattern.length : end + 2;
        continue;
      }
      if ((next === "p" || next === "P") && pattern[i + 2] === "{") {
        const close = pattern.indexOf("}", i + 3);
        const name = close < 0 ? "" : pattern.slice(i + 3, close);
        const set = POSIX[name.startsWith("Is") ? name.slice(2) : name];
        if (set === undefined) refuse(pattern, `the character class \\${next}{${name}}`);
        out +=
          inClass > 0
            ? next === "p"
              ? set
              : refuse(pattern, `\\P{${name}} inside a character class`)
            : `[${next === "P" ? "^" : ""}${set}]`;
        i = close + 1;
        continue;
      }
      const escaped = JAVA_ESCAPES[next];
      if (escaped !== undefined) {
        if (inClass === 0) out += escaped;
        else if (next === "h") out += HSPACE;
        else if (next === "e" || next === "a") out += escaped;
        else refuse(pattern, `\\${next} inside a character class`);
        i += 2;
        continue;
      }
      if ("GXN".includes(next)) refuse(pattern, `\\${next}`);
      // Java's \s is ASCII whitespace only (JS's is Unicode's); \S, \W, \D take a whole code point.
      if (next === "s") {
        out += inClass > 0 ? JAVA_SPACE : `[${JAVA_SPACE}]`;
        i += 2;
        continue;
      }
      if (inClass === 0 && (next === "S" || next === "W" || next === "D")) {
        out += oneCodePointNot(next === "S" ? JAVA_SPACE : `\\${next.toLowerCase()}`);
        i += 2;
        continue;
      }
      if (inClass === 0 && next === "A") out += INPUT_START;
      else if (inClass === 0 && next === "z") out += INPUT_END;
      else if (inClass === 0 && next === "Z") out += `(?=${LINE_END}?${INPUT_END})`;
      else out += c + next;
      i += 2;
      continue;
    }
    if (inClass > 0) {
      if (c === "[") refuse(pattern, "a nested character class (union or intersection)");
      if (c === "]") inClass--;
      i++;
      const body = out.slice(classStart);
      // A negated class matches one code point in Java: never half of a surrogate pair.
      if (inClass === 0 && body.startsWith("[^") && !/[\uD800-\uDFFF]/.test(body)) {
        out = out.slice(0, classStart) + oneCodePointNot(body.slice(2));
      } else out += c;
      continue;
    }
    if (c === "[") {
      inClass++;
      classStart = out.length;
      out += c;
      i++;
      // A ']' right after '[' or '[^' is a literal in both engines.
      if (pattern[i] === "^") out += pattern[i++];
      if (pattern[i] === "]") out += `\\${pattern[i++]}`;
      continue;
    }
    if (c === "(" && pattern[i + 1] === "?") {
      const kind = pattern[i + 2];
      if (kind === ">") refuse(pattern, "an atomic group (?>...)");
      if (kind !== undefined && /[a-zA-Z-]/.test(kind) && kind !== "<") refuse(pattern, "inline flags after the start of the pattern");
    }
    if ((c === "+" || c === "*" || c === "?" || c === "}") && pattern[i + 1] === "+") {
      refuse(pattern, `the possessive quantifier ${c}+`);
    }
    if (c === ".") {
      // Java's `.` is one code point (a surrogate pair is one character, never split by
      // backtracking) and, without (?s), stops at U+0085 too (JS's does not).
      out += `(?:${PAIR}|${LONE_HIGH}|[^${dotAll ? "" : "\\n\\r\\u0085\\u2028\\u2029"}\\uD800-\\uDBFF])`;
      i++;
      continue;
    }
    if (c === "$" && !multiline) {
      out += `(?=${LINE_END}?${INPUT_END})`;
      i++;
      continue;
    }
    out += c;
    i++;
  }
  return { source: out, flags };
}

const cache = new Map<string, RegExp>();

/**
 * The JS RegExp for a Java `pattern` (with extra JS `flags`, e.g. "g"), compiled once per
 * (pattern, flags): a global RegExp is stateful, so callers reset `lastIndex` or use
 * `String.prototype.replace`, which does.
 */
export function javaRegExp(pattern: string, extraFlags = ""): RegExp {
  const key = `${extraFlags}/${pattern}`;
  let r = cache.get(key);
  if (r === undefined) {
    const { source, flags } = translateJavaRegex(pattern);
    try {
      r = new RegExp(source, flags + extraFlags);
    } catch (e) {
      throw new IllegalArgumentException(`The regular expression '${pattern}' is not valid: ${(e as Error).message}`);
    }
    if (cache.size > 1000) cache.clear();
    cache.set(key, r);
  }
  return r;
}

/**
 * A Java replacement string (`$1`, `$0` the whole match, `${name}`, `\` escaping the next
 * character) as a JS one (`$1`, `$&`, `$<name>`, `$$` for a literal dollar).
 */
export function javaReplacement(replacement: string): string {
  let r = replacements.get(replacement);
  if (r === undefined) {
    r = translateReplacement(replacement);
    if (replacements.size > 1000) replacements.clear();
    replacements.set(replacement, r);
  }
  return r;
}

/** Translated once per replacement string (regexp_replace asks for it on every row). */
const replacements = new Map<string, string>();

function translateReplacement(replacement: string): string {
  let out = "";
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === "\\" && i + 1 < replacement.length) {
      const next = replacement[++i]!;
      out += next === "$" ? "$$" : next;
    } else if (c === "$" && replacement[i + 1] === "{") {
      const close = replacement.indexOf("}", i);
      if (close < 0)
        throw new IllegalArgumentException(
          `Illegal group reference in the replacement '${replacement}': a named group is missing its closing '}'`,
        );
      out += `$<${replacement.slice(i + 2, close)}>`;
      i = close;
    } else if (c === "$" && !/\d/.test(replacement[i + 1] ?? "")) {
      throw new IllegalArgumentException(`Illegal group reference in the replacement '${replacement}'`);
    } else if (c === "$" && replacement[i + 1] === "0" && !/\d/.test(replacement[i + 2] ?? "")) {
      // Java's group 0, the whole match, is JS's $&
      out += "$&";
      i++;
    } else out += c;
  }
  return out;
}
