/**
 * Interval strings as Spark reads them for `window()`, `session_window()`, `withWatermark()` and
 * trigger intervals: the state machine of Spark's `IntervalUtils.stringToInterval`.
 *
 * Grammar (case-insensitive, whitespace-separated): `[interval] (<[+-]number> <unit>)+`, units
 * `year month week day hour minute second millisecond microsecond`, each optionally plural
 * (`10 second`, `10 seconds`). Only seconds take a fraction (`1.5 seconds`, `.5 second`).
 * Months and years form the month part; everything else is fixed-length micros (a day is
 * exactly 24 h, as Spark's windows assume).
 */
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MILLIS, MICROS_PER_MINUTE, MICROS_PER_SECOND } from "./datetime/units.js";
import { IllegalArgumentException } from "./errors.js";

export interface ParsedInterval {
  /** Calendar months (years × 12 + months). */
  months: number;
  /** Everything else in microseconds, days counted as 24 h. */
  micros: number;
}

function isWs(c: string | undefined): boolean {
  if (c === undefined) return false;
  // Java's Character.isWhitespace for the ASCII range: \t \n \v \f \r, 0x1C-0x1F, space.
  const code = c.charCodeAt(0);
  return (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x20);
}

/** UTF8String.trimAll: strips whitespace and ISO control characters (≤ 0x20, 0x7F) at both ends. */
function trimAll(s: string): string {
  const trimmable = (i: number) => s.charCodeAt(i) <= 0x20 || s.charCodeAt(i) === 0x7f;
  let a = 0;
  let b = s.length;
  while (a < b && trimmable(a)) a++;
  while (b > a && trimmable(b - 1)) b--;
  return s.slice(a, b);
}

/** The whitespace-delimited word at (or just before) position i, for error messages. */
function wordAt(s: string, i: number): string {
  let a = Math.min(i, s.length - 1);
  while (a > 0 && isWs(s[a])) a--;
  while (a > 0 && !isWs(s[a - 1])) a--;
  let b = a;
  while (b < s.length && !isWs(s[b])) b++;
  return s.slice(a, b);
}

function bad(text: string, detail: string): IllegalArgumentException {
  return new IllegalArgumentException(`The provided interval (${text}) did not correspond to a valid interval string: ${detail}.`);
}

type State = "sign" | "value" | "fraction" | "unit" | "suffix" | "unitEnd";

const UNITS = ["year", "month", "week", "day", "hour", "minute", "second", "millisecond", "microsecond"] as const;
type Unit = (typeof UNITS)[number];

/**
 * Parses an interval string to `{ months, micros }`. Bad text throws IllegalArgumentException
 * naming the text (Spark: `Error parsing '<text>' to interval, <reason>`).
 */
export function parseInterval(text: string): ParsedInterval {
  if (typeof text !== "string") throw bad(String(text), "interval string cannot be null");
  // Spark: trimAll (whitespace and ISO control characters), then lower-case.
  const s = trimAll(text).toLowerCase();
  if (s.length === 0) throw bad(text, "interval string cannot be empty");
  let i = 0;
  if (s.startsWith("interval")) {
    if (s.length === 8) throw bad(text, "interval string cannot be empty");
    if (!isWs(s[8])) throw bad(text, `invalid interval prefix ${wordAt(s, 0)}`);
    i = 9;
  }
  let state: State | "trimSign" | "trimValue" | "trimUnit" = "trimSign";
  let months = 0;
  let micros = 0;
  let value = 0;
  let negative = false;
  let fraction = 0; // nanos, later micros
  let fractionScale = -1; // -1: no fraction seen
  let pointPrefixed = false;
  while (i < s.length) {
    const c = s[i]!;
    switch (state) {
      case "trimSign":
      case "trimValue":
      case "trimUnit":
        if (isWs(c)) i++;
        else state = state === "trimSign" ? "sign" : state === "trimValue" ? "value" : "unit";
        break;
      case "sign":
        value = 0;
        fraction = 0;
        fractionScale = -1;
        pointPrefixed = false;
        state = "trimValue";
        if (c === "-" || c === "+") {
          negative = c === "-";
          i++;
        } else if (c >= "0" && c <= "9") {
          negative = false;
        } else if (c === ".") {
          negative = false;
          fractionScale = 100_000_000;
          pointPrefixed = true;
          i++;
          state = "fraction";
        } else throw bad(text, `unrecognized number '${wordAt(s, i)}'`);
        break;
      case "value":
        if (c >= "0" && c <= "9") {
          value = value * 10 + (c.charCodeAt(0) - 48);
          if (!Number.isSafeInteger(value)) throw bad(text, "long overflow");
        } else if (isWs(c)) state = "trimUnit";
        else if (c === ".") {
          fractionScale = 100_000_000;
          state = "fraction";
        } else throw bad(text, `invalid value '${wordAt(s, i)}'`);
        i++;
        break;
      case "fraction":
        if (c >= "0" && c <= "9" && fractionScale > 0) {
          fraction += (c.charCodeAt(0) - 48) * fractionScale;
          fractionScale = Math.floor(fractionScale / 10);
        } else if (isWs(c) && (!pointPrefixed || fractionScale < 100_000_000)) {
          fraction = Math.trunc(fraction / 1000);
          state = "trimUnit";
        } else if (c >= "0" && c <= "9") {
          throw bad(text, `interval can only support nanosecond precision, '${wordAt(s, i)}' is out of range`);
        } else throw bad(text, `invalid value '${wordAt(s, i)}'`);
        i++;
        break;
      case "unit": {
        if (c !== "s" && fractionScale >= 0) throw bad(text, `'${wordAt(s, i)}' cannot have fractional part`);
        const v = negative ? -value : value;
        const f = negative ? -fraction : fraction;
        const unit = UNITS.find((u) => s.startsWith(u, i));
        if (unit === undefined) throw bad(text, `invalid unit '${wordAt(s, i)}'`);
        [months, micros] = addUnit(unit, v, f, months, micros);
        if (!Number.isSafeInteger(micros) || !Number.isSafeInteger(months)) throw bad(text, "long overflow");
        i += unit.length;
        state = "suffix";
        break;
      }
      case "suffix":
        if (c === "s") state = "unitEnd";
        else if (isWs(c)) state = "trimSign";
        else throw bad(text, `invalid unit '${wordAt(s, i)}'`);
        i++;
        break;
      case "unitEnd":
        if (!isWs(c)) throw bad(text, `invalid unit '${wordAt(s, i)}'`);
        i++;
        state = "trimSign";
        break;
    }
  }
  switch (state) {
    case "suffix":
    case "unitEnd":
    case "trimSign":
      return { months, micros };
    case "trimValue":
      throw bad(text, `expect a number after '${wordAt(s, i)}' but hit EOL`);
    case "value":
    case "fraction":
      throw bad(text, `expect a unit name after '${wordAt(s, i)}' but hit EOL`);
    default:
      throw bad(text, `unknown error when parsing '${wordAt(s, i)}'`);
  }
}

function addUnit(unit: Unit, v: number, fractionMicros: number, months: number, micros: number): [number, number] {
  switch (unit) {
    case "year":
      return [months + 12 * v, micros];
    case "month":
      return [months + v, micros];
    case "week":
      return [months, micros + 7 * v * MICROS_PER_DAY];
    case "day":
      return [months, micros + v * MICROS_PER_DAY];
    case "hour":
      return [months, micros + v * MICROS_PER_HOUR];
    case "minute":
      return [months, micros + v * MICROS_PER_MINUTE];
    case "second":
      return [months, micros + v * MICROS_PER_SECOND + fractionMicros];
    case "millisecond":
      return [months, micros + v * MICROS_PER_MILLIS];
    case "microsecond":
      return [months, micros + v];
  }
}

/**
 * A fixed-length duration in micros (window length, slide, start time, session gap).
 * Month/year components are rejected with Spark's message. `what` names the argument
 * (e.g. `windowDuration`) and is only used when the value is not a string at all.
 */
export function durationMicros(text: string, what: string): number {
  if (typeof text !== "string" || text.trim() === "") {
    throw new IllegalArgumentException(
      `The ${what} must be a non-empty interval string such as "10 seconds", got ${JSON.stringify(text) ?? String(text)}.`,
    );
  }
  const iv = parseInterval(text);
  if (iv.months !== 0) throw new IllegalArgumentException(`Intervals greater than a month is not supported (${text}).`);
  return iv.micros;
}

/**
 * A watermark delay in ms, as `EventTimeWatermark.getDelayMs`: months count 31 days (older
 * Spark's `getDuration` default), micros truncate to ms. Negative delays are rejected with
 * Spark's `require` message.
 */
export function delayMs(text: string): number {
  const iv = parseInterval(text);
  const totalMicros = iv.micros + iv.months * 31 * MICROS_PER_DAY;
  if (totalMicros < 0) {
    throw new IllegalArgumentException(`requirement failed: delay threshold (${text}) should not be negative.`);
  }
  return Math.trunc(totalMicros / MICROS_PER_MILLIS);
}
