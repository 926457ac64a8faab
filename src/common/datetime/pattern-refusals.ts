/**
 * Which error Spark 4 raises for a datetime pattern it refuses. Spark first runs its own checks
 * on the pattern's letters (outside quotes): week-based letters (Y W w u e c), letters it never
 * supports (A B n N p; E F q Q when parsing), narrow text forms and absurd year widths; then
 * java.time's formatter builder. Whatever refused it, if Spark 2's SimpleDateFormat would have
 * taken the pattern the error is INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION
 * ("you may get a different result due to the upgrading"); else the refusal's own class.
 */
import { IllegalArgumentException } from "../errors.js";

/** A pattern Spark refuses, with the class it has when SimpleDateFormat would not have taken it either. */
export class PatternRefusal extends IllegalArgumentException {}

export function weekBasedRefusal(c: string): PatternRefusal {
  return new PatternRefusal(
    `[INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN] You may get a different result due to the upgrading to Spark >= 3.0:\n` +
      `All week-based patterns are unsupported since Spark 3.0, detected week-based character: ${c}.\nPlease use the SQL function EXTRACT instead.`,
  );
}

export function illegalCharacterRefusal(pattern: string, c: string): PatternRefusal {
  return new PatternRefusal(
    `[INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER] Unrecognized datetime pattern: ${pattern}. Illegal pattern character found in datetime pattern: ${c}. Please provide legal character.`,
  );
}

function lengthRefusal(style: string): PatternRefusal {
  return new PatternRefusal(
    `[INVALID_DATETIME_PATTERN.LENGTH] Unrecognized datetime pattern: ${style}. Too many letters in datetime pattern: ${style}. Please reduce pattern length.`,
  );
}

/** java.time's formatter builder refused the pattern (`detail` says why, for arus's own message). */
export function builderRefusal(pattern: string, detail: string): PatternRefusal {
  return new PatternRefusal(
    `[INVALID_DATETIME_PATTERN.WITH_SUGGESTION] Unrecognized datetime pattern: '${pattern}'. You can form a valid datetime ` +
      `pattern with the guide from 'https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html'. (${detail})`,
  );
}

function recognitionRefusal(pattern: string): IllegalArgumentException {
  return new IllegalArgumentException(
    `[INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION] You may get a different result due to the upgrading to Spark >= 3.0:\n` +
      `Fail to recognize '${pattern}' pattern in the DateTimeFormatter.\n` +
      `1) You can set "spark.sql.legacy.timeParserPolicy" to "LEGACY" to restore the behavior before Spark 3.0.\n` +
      `2) You can form a valid datetime pattern with the guide from 'https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html'.`,
    "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION",
  );
}

/** The pattern's letter runs outside quotes, in order: [letter, count]. */
function letterRuns(pattern: string): [string, number][] {
  const runs: [string, number][] = [];
  let quoted = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "'") quoted = !quoted;
    else if (!quoted && /[A-Za-z]/.test(c)) {
      let n = 1;
      while (pattern[i + n] === c) n++;
      runs.push([c, n]);
      i += n - 1;
    }
  }
  return runs;
}

const NARROW = new Set(["G", "M", "L", "E", "Q", "q"]);

/** Spark's own letter checks (DateTimeFormatterHelper.convertIncompatiblePattern), before java.time sees the pattern. */
export function checkSparkLetters(pattern: string, forParsing: boolean): void {
  const runs = letterRuns(pattern);
  for (const [c] of runs) if ("YWwuec".includes(c)) throw weekBasedRefusal(c);
  for (const [c] of runs) if ("ABnNp".includes(c) || (forParsing && "EFqQ".includes(c))) throw illegalCharacterRefusal(pattern, c);
  for (const [c, n] of runs) if ((NARROW.has(c) && n >= 5) || (c === "y" && n >= 11)) throw lengthRefusal(c.repeat(n >= 11 ? 11 : 5));
}

/** Letters java.text.SimpleDateFormat knows (X up to three). */
const LEGACY_LETTERS = "GyMdkHmsSEDFwWahKzZYuXL";

/** Would Spark 2's SimpleDateFormat have compiled the pattern? */
function legacyAccepts(pattern: string): boolean {
  let quoted = false;
  for (const c of pattern) if (c === "'") quoted = !quoted;
  if (quoted) return false; // an unterminated quote
  return letterRuns(pattern).every(([c, n]) => LEGACY_LETTERS.includes(c) && (c !== "X" || n <= 3));
}

/** The error Spark raises for a refused pattern. */
export function sparkRefusal(pattern: string, refusal: PatternRefusal): IllegalArgumentException {
  return legacyAccepts(pattern) ? recognitionRefusal(pattern) : refusal;
}
