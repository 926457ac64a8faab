/**
 * Spark datetime patterns (`date_format`, `to_timestamp`, `unix_timestamp`, `from_unixtime`,
 * CSV/JSON `timestampFormat`): the java.time DateTimeFormatter subset Spark 3+/4 documents, with
 * Spark's own rules on top (DateTimeFormatterHelper):
 * - `y` means proleptic year (`u`) unless the pattern has an era `G`.
 * - Week-based letters `Y W w u e c` and `A B n N p` are rejected; 5-letter text forms
 *   (`MMMMM`, `EEEEE`, ...) and 7+ `y` are rejected.
 * - Parsing is case-insensitive and STRICT (fields range-checked, `Feb 30` fails, the whole text
 *   must be consumed), missing fields default to 1970-01-01 00:00:00, `S..S` accepts 1..n digits,
 *   `E F q Q` are not allowed for parsing. A mismatch gives null (Spark's non-ANSI result).
 * - Adjacent numeric fields (`yyyyMMdd`) use java.time's adjacent value parsing.
 *
 * Supported letters: G y u(=y, internal) D M L d Q q E a h K k H m s S VV z v O X x Z, `'text'`,
 * `''`, and optional sections `[...]`.
 * Not supported (throw): F (aligned week), zone names other than via Intl (see zoneName).
 */
import { formatWith } from "./pattern-format.js";
import { parseWith } from "./pattern-parse.js";
import { checkSparkLetters, PatternRefusal, sparkRefusal } from "./pattern-refusals.js";
import { lex, type Tok, validate } from "./pattern-tokens.js";
import { MICROS_PER_SECOND } from "./units.js";

export const DEFAULT_TIMESTAMP_PATTERN = "yyyy-MM-dd HH:mm:ss";

export interface CompiledPattern {
  readonly pattern: string;
  /** Formats a timestamp (micros) in zone `tz`. */
  format(micros: number | bigint, tz: string): string;
  /** Parses text to micros, with `tz` for text without a zone; null when the text does not match. */
  parse(s: string, tz: string): number | null;
}

const cache = new Map<string, CompiledPattern>();
const MAX_CACHED = 128;

/** Compiles (and caches) a Spark datetime pattern. Invalid patterns throw IllegalArgumentException. */
export function compilePattern(pattern: string): CompiledPattern {
  let p = cache.get(pattern);
  if (p === undefined) {
    let toks: Tok[];
    let parseProblem: string | null;
    try {
      checkSparkLetters(pattern, false);
      toks = lex(pattern);
      parseProblem = validate(pattern, toks).parseProblem;
    } catch (e) {
      throw e instanceof PatternRefusal ? sparkRefusal(pattern, e) : e;
    }
    const tokens = toks;
    p = {
      pattern,
      format: (micros, tz) => formatWith(tokens, micros, tz),
      parse: (s, tz) => {
        if (parseProblem !== null) {
          try {
            checkSparkLetters(pattern, true); // E, F, q, Q cannot be parsed
          } catch (e) {
            throw e instanceof PatternRefusal ? sparkRefusal(pattern, e) : e;
          }
        }
        return parseWith(tokens, s, tz);
      },
    };
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(pattern, p);
  }
  return p;
}

/** `date_format(ts, pattern)`. */
export function formatWithPattern(micros: number | bigint, pattern: string, tz: string): string {
  return compilePattern(pattern).format(micros, tz);
}

/** `to_timestamp(s, pattern)`: micros or null. */
export function parseWithPattern(s: string, pattern: string, tz: string): number | null {
  return compilePattern(pattern).parse(s, tz);
}

/** `unix_timestamp(s, pattern)`: whole seconds (floor) or null. */
export function unixTimestamp(s: string, tz: string, pattern = DEFAULT_TIMESTAMP_PATTERN): number | null {
  const m = compilePattern(pattern).parse(s, tz);
  return m === null ? null : Math.floor(m / MICROS_PER_SECOND);
}
