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
import { IllegalArgumentException } from "./errors.js";
import {
  type Civil,
  civilFromDays,
  daysFromCivil,
  getZone,
  isValidDate,
  localSecondsToUtc,
  MICROS_PER_SECOND,
  SECONDS_PER_DAY,
  splitMicros,
  type Zone,
} from "./time.js";

export const DEFAULT_TIMESTAMP_PATTERN = "yyyy-MM-dd HH:mm:ss";

export interface CompiledPattern {
  readonly pattern: string;
  /** Formats a timestamp (micros) in zone `tz`. */
  format(micros: number, tz: string): string;
  /** Parses text to micros, with `tz` for text without a zone; null when the text does not match. */
  parse(s: string, tz: string): number | null;
}

type Tok = { k: "lit"; text: string } | { k: "f"; c: string; n: number } | { k: "opt"; toks: Tok[] };

function patternError(pattern: string, detail: string): IllegalArgumentException {
  return new IllegalArgumentException(`[INVALID_DATETIME_PATTERN] Unrecognized datetime pattern: ${pattern}. ${detail}`);
}

// ------------------------------------------------------------------------------------------------
// Pattern compilation

const KNOWN = "GyuDMLdQqEahKkHmsSVzvOXxZF";

function lex(pattern: string): Tok[] {
  const stack: Tok[][] = [[]];
  const push = (t: Tok) => {
    const top = stack[stack.length - 1]!;
    const last = top[top.length - 1];
    if (t.k === "lit" && last?.k === "lit") last.text += t.text;
    else top.push(t);
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if ((c >= "A" && c <= "Z") || (c >= "a" && c <= "z")) {
      let j = i;
      while (pattern[j] === c) j++;
      push({ k: "f", c, n: j - i });
      i = j;
    } else if (c === "'") {
      let j = i + 1;
      let text = "";
      for (;;) {
        if (j >= pattern.length) throw patternError(pattern, "Pattern ends with an incomplete string literal.");
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += pattern[j];
        j++;
      }
      push({ k: "lit", text: j === i + 1 ? "'" : text });
      i = j + 1;
    } else if (c === "[") {
      const opt: Tok = { k: "opt", toks: [] };
      stack[stack.length - 1]!.push(opt);
      stack.push(opt.toks);
      i++;
    } else if (c === "]") {
      if (stack.length === 1) throw patternError(pattern, "Pattern invalid as it contains ] without previous [.");
      stack.pop();
      i++;
    } else if (c === "{" || c === "}" || c === "#") {
      throw patternError(pattern, `Pattern includes reserved character: '${c}'.`);
    } else {
      push({ k: "lit", text: c });
      i++;
    }
  }
  return stack[0]!;
}

function walk(toks: Tok[], fn: (t: Tok & { k: "f" }) => void): void {
  for (const t of toks) {
    if (t.k === "f") fn(t);
    else if (t.k === "opt") walk(t.toks, fn);
  }
}

/** Spark's and java.time's checks on letters and counts; rewrites y → u when there is no G. */
function validate(pattern: string, toks: Tok[]): { hasEra: boolean; parseProblem: string | null } {
  let hasEra = false;
  let parseProblem: string | null = null;
  walk(toks, (t) => {
    if (t.c === "G") hasEra = true;
  });
  walk(toks, (t) => {
    const { c, n } = t;
    if ("YWwuec".includes(c)) {
      throw new IllegalArgumentException(
        `[INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN] Spark >= 3.0: All week-based ` +
          `patterns are unsupported since Spark 3.0, detected week-based character: ${c}. Please use the SQL ` +
          `function EXTRACT instead.`,
      );
    }
    if ("ABnNp".includes(c)) {
      throw patternError(pattern, `Illegal pattern character: '${c}'.`);
    }
    if (!KNOWN.includes(c)) throw patternError(pattern, `Unknown pattern letter: ${c}`);
    if (c === "F") throw patternError(pattern, "Pattern letter F is not supported by arus.");
    if ("GMLEQq".includes(c) && n >= 5) {
      throw patternError(pattern, `Too many pattern letters: ${c.repeat(5)} (narrow forms are not supported).`);
    }
    if (c === "y" && n >= 7) throw patternError(pattern, "Too many pattern letters: yyyyyyy.");
    const max: Record<string, number> = { d: 2, h: 2, H: 2, k: 2, K: 2, m: 2, s: 2, D: 3, a: 1, S: 9, z: 4, X: 5, x: 5, Z: 5 };
    if (max[c] !== undefined && n > max[c]!) throw patternError(pattern, `Too many pattern letters: ${c}`);
    if (c === "V" && n !== 2) throw patternError(pattern, "Pattern letter count must be 2: V");
    if (c === "O" && n !== 1 && n !== 4) throw patternError(pattern, "Pattern letter count must be 1 or 4: O");
    if (c === "v" && n !== 1 && n !== 4) throw patternError(pattern, "Wrong number of pattern letters: v");
    if ("EFqQ".includes(c)) parseProblem ??= c;
    if (c === "y" && !hasEra) t.c = "u";
  });
  return { hasEra, parseProblem };
}

const cache = new Map<string, CompiledPattern>();
const MAX_CACHED = 128;

/** Compiles (and caches) a Spark datetime pattern. Invalid patterns throw IllegalArgumentException. */
export function compilePattern(pattern: string): CompiledPattern {
  let p = cache.get(pattern);
  if (p === undefined) {
    const toks = lex(pattern);
    const { parseProblem } = validate(pattern, toks);
    p = {
      pattern,
      format: (micros, tz) => formatWith(toks, micros, tz),
      parse: (s, tz) => {
        if (parseProblem !== null) {
          throw patternError(pattern, `Illegal pattern character for parsing: '${parseProblem}'.`);
        }
        return parseWith(toks, s, tz);
      },
    };
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(pattern, p);
  }
  return p;
}

/** `date_format(ts, pattern)`. */
export function formatWithPattern(micros: number, pattern: string, tz: string): string {
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

// ------------------------------------------------------------------------------------------------
// Formatting

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const QUARTERS = ["1st quarter", "2nd quarter", "3rd quarter", "4th quarter"];

interface Fields extends Civil {
  days: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
  offset: number;
  zone: Zone;
}

/** java.time number printing: zero-pad to minWidth, `+` past the pad width for EXCEEDS_PAD. */
function num(v: number, minWidth: number, exceedsPad = false): string {
  const abs = Math.abs(v);
  let d = String(abs);
  const natural = d.length;
  if (natural < minWidth) d = "0".repeat(minWidth - natural) + d;
  if (v < 0) return `-${d}`;
  return exceedsPad && natural > minWidth ? `+${d}` : d;
}

function yearText(v: number, n: number): string {
  if (n === 2) return num(Math.abs(v) % 100, 2);
  return n < 4 ? num(v, n) : num(v, n, true);
}

/** OffsetIdPrinterParser patterns, indexed like java.time's PATTERNS. */
const OFFSET_PATTERNS = ["+HH", "+HHmm", "+HH:mm", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss", "+HHMMSS", "+HH:MM:SS"];

function formatOffsetId(total: number, pattern: string, noOffsetText: string): string {
  if (total === 0) return noOffsetText;
  const type = OFFSET_PATTERNS.indexOf(pattern);
  const colon = pattern.includes(":") ? ":" : "";
  const abs = Math.abs(total);
  const h = Math.floor(abs / 3600) % 100;
  const m = Math.floor(abs / 60) % 60;
  const s = abs % 60;
  let out = (total < 0 ? "-" : "+") + num(h, 2);
  let output = h;
  if ((type >= 3 && type <= 8) || (type >= 1 && m > 0) || (type >= 5 && s > 0)) {
    out += colon + num(m, 2);
    output += m;
    if (type === 7 || type === 8 || (type >= 5 && s > 0)) {
      out += colon + num(s, 2);
      output += s;
    }
  }
  return output === 0 ? noOffsetText : out;
}

/** Localized offset: `GMT`, `GMT+8`, `GMT+5:30` (short) or `GMT+08:00` (full). */
function formatLocalizedOffset(total: number, full: boolean): string {
  if (total === 0) return "GMT";
  const abs = Math.abs(total);
  const h = Math.floor(abs / 3600);
  const m = Math.floor(abs / 60) % 60;
  const s = abs % 60;
  let out = `GMT${total < 0 ? "-" : "+"}`;
  if (full) {
    out += `${num(h, 2)}:${num(m, 2)}`;
    if (s) out += `:${num(s, 2)}`;
  } else {
    out += String(h);
    if (m || s) out += `:${num(m, 2)}`;
    if (s) out += `:${num(s, 2)}`;
  }
  return out;
}

const nameCache = new Map<string, string>();

/**
 * Zone text for `z` (short) / `zzzz` (full): Intl's en-US names (`EST`, `PDT`, `UTC`,
 * `Eastern Standard Time`); for zones where en-US has only `GMT+7`, en-GB names are tried
 * (`CET`, `BST`). Java prints a few other zones' abbreviations (`WIB`, `JST`) that Intl has
 * no English short name for: those come out as `GMT+7`. Fixed offsets print their id.
 */
function zoneName(f: Fields, full: boolean): string {
  const zone = f.zone;
  if (zone.fixedOffset !== null) {
    if (full && (zone.id === "UTC" || zone.id === "UT")) return "Coordinated Universal Time";
    if (full && zone.id === "GMT") return "Greenwich Mean Time";
    return zone.id;
  }
  const key = `${zone.id}|${f.offset}|${full}`;
  let name = nameCache.get(key);
  if (name === undefined) {
    const utcMs = (f.days * SECONDS_PER_DAY + f.hour * 3600 + f.minute * 60 + f.second - f.offset) * 1000;
    const pick = (locale: string) =>
      new Intl.DateTimeFormat(locale, { timeZone: zone.id, timeZoneName: full ? "long" : "short" })
        .formatToParts(new Date(utcMs))
        .find((p) => p.type === "timeZoneName")?.value ?? zone.id;
    name = pick("en-US");
    if (!full && /^GMT[+-]/.test(name)) {
      const gb = pick("en-GB");
      if (!/^GMT[+-]/.test(gb)) name = gb;
    }
    nameCache.set(key, name);
  }
  return name;
}

function formatField(t: { c: string; n: number }, f: Fields): string {
  const { c, n } = t;
  switch (c) {
    case "G":
      return n === 4 ? (f.year > 0 ? "Anno Domini" : "Before Christ") : f.year > 0 ? "AD" : "BC";
    case "u":
      return yearText(f.year, n);
    case "y": // year of era (only with G)
      return yearText(f.year > 0 ? f.year : 1 - f.year, n);
    case "M":
    case "L":
      return n >= 4 ? MONTHS[f.month - 1]! : n === 3 ? MONTHS[f.month - 1]!.slice(0, 3) : num(f.month, n);
    case "d":
      return num(f.day, n);
    case "D":
      return num(f.days - daysFromCivil(f.year, 1, 1) + 1, n);
    case "Q":
    case "q": {
      const q = Math.floor((f.month - 1) / 3) + 1;
      return n === 4 ? QUARTERS[q - 1]! : n === 3 ? `Q${q}` : num(q, n);
    }
    case "E": {
      const dow = (((f.days + 3) % 7) + 7) % 7; // 0 = Monday
      return n === 4 ? DAYS[dow]! : DAYS[dow]!.slice(0, 3);
    }
    case "a":
      return f.hour < 12 ? "AM" : "PM";
    case "H":
      return num(f.hour, n);
    case "k":
      return num(f.hour === 0 ? 24 : f.hour, n);
    case "K":
      return num(f.hour % 12, n);
    case "h":
      return num(f.hour % 12 === 0 ? 12 : f.hour % 12, n);
    case "m":
      return num(f.minute, n);
    case "s":
      return num(f.second, n);
    case "S":
      return String(f.micro * 1000 + 1e9).slice(1, 1 + n);
    case "V":
      return f.zone.id;
    case "z":
    case "v":
      return zoneName(f, n === 4);
    case "O":
      return formatLocalizedOffset(f.offset, n === 4);
    case "X":
      return formatOffsetId(f.offset, ["+HHmm", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss"][n - 1]!, "Z");
    case "x":
      return formatOffsetId(
        f.offset,
        ["+HHmm", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss"][n - 1]!,
        ["+00", "+0000", "+00:00", "+0000", "+00:00"][n - 1]!,
      );
    case "Z":
      if (n === 4) return formatLocalizedOffset(f.offset, true);
      if (n === 5) return formatOffsetId(f.offset, "+HH:MM:ss", "Z");
      return formatOffsetId(f.offset, "+HHMM", "+0000");
  }
  throw new IllegalArgumentException(`Unsupported pattern letter: ${c}`);
}

function formatWith(toks: Tok[], micros: number, tz: string): string {
  const zone = getZone(tz);
  const [sec, micro] = splitMicros(micros);
  const offset = zone.offsetSeconds(sec);
  const local = sec + offset;
  const days = Math.floor(local / SECONDS_PER_DAY);
  let sod = local - days * SECONDS_PER_DAY;
  const f = civilFromDays(days) as Fields;
  f.days = days;
  f.hour = Math.floor(sod / 3600);
  sod -= f.hour * 3600;
  f.minute = Math.floor(sod / 60);
  f.second = sod - f.minute * 60;
  f.micro = micro;
  f.offset = offset;
  f.zone = zone;
  return formatToks(toks, f);
}

function formatToks(toks: Tok[], f: Fields): string {
  let out = "";
  for (const t of toks) {
    if (t.k === "lit") out += t.text;
    else if (t.k === "opt")
      out += formatToks(t.toks, f); // every field is available: print sections
    else out += formatField(t, f);
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Parsing

/** Parsed field values; a field set twice must agree (java.time "Conflict found"). */
type Parsed = Partial<Record<ParsedKey, number>> & { zone?: Zone };
type ParsedKey =
  | "year"
  | "yearOfEra"
  | "era"
  | "month"
  | "day"
  | "doy"
  | "hourOfDay"
  | "clockHourAmPm"
  | "hourAmPm"
  | "clockHourOfDay"
  | "ampm"
  | "minute"
  | "second"
  | "nano"
  | "offset";

function put(p: Parsed, key: ParsedKey, v: number): boolean {
  const old = p[key];
  if (old !== undefined && old !== v) return false;
  p[key] = v;
  return true;
}

interface NumSpec {
  min: number;
  max: number;
  sign: "none" | "normal" | "exceeds";
}

/** Width rules of java.time's number parsers for each letter/count. */
function numSpec(c: string, n: number): NumSpec | null {
  switch (c) {
    case "u":
    case "y":
      if (n === 2) return { min: 2, max: 2, sign: "none" };
      return n < 4 ? { min: n, max: 19, sign: "normal" } : { min: n, max: 19, sign: "exceeds" };
    case "M":
    case "L":
    case "Q":
    case "q":
      return n <= 2 ? (n === 1 ? { min: 1, max: 19, sign: "none" } : { min: 2, max: 2, sign: "none" }) : null;
    case "D":
      return n === 1 ? { min: 1, max: 19, sign: "none" } : n === 2 ? { min: 2, max: 3, sign: "none" } : { min: 3, max: 3, sign: "none" };
    case "d":
    case "H":
    case "h":
    case "k":
    case "K":
    case "m":
    case "s":
      return n === 1 ? { min: 1, max: 19, sign: "none" } : { min: 2, max: 2, sign: "none" };
  }
  return null;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

function numKey(c: string): ParsedKey {
  switch (c) {
    case "u":
      return "year";
    case "y":
      return "yearOfEra";
    case "M":
    case "L":
      return "month";
    case "d":
      return "day";
    case "D":
      return "doy";
    case "H":
      return "hourOfDay";
    case "h":
      return "clockHourAmPm";
    case "K":
      return "hourAmPm";
    case "k":
      return "clockHourOfDay";
    case "m":
      return "minute";
    default:
      return "second";
  }
}

/** Matches one of `options` case-insensitively (longest first); returns [index, length] or null. */
function matchText(s: string, pos: number, options: readonly string[]): [number, number] | null {
  let best: [number, number] | null = null;
  const rest = s.slice(pos).toLowerCase();
  options.forEach((o, i) => {
    if (rest.startsWith(o.toLowerCase()) && (best === null || o.length > best[1])) best = [i, o.length];
  });
  return best;
}

/** Parses an offset like OffsetIdPrinterParser; returns [seconds, newPos] or null. */
function parseOffsetId(s: string, pos: number, pattern: string, noOffsetText: string): [number, number] | null {
  if (noOffsetText && s.slice(pos, pos + noOffsetText.length).toLowerCase() === noOffsetText.toLowerCase()) {
    // java.time tries the offset first when the text starts with a sign; "Z"-style text otherwise.
    const c = s[pos];
    if (c !== "+" && c !== "-") return [0, pos + noOffsetText.length];
  }
  const sign = s[pos];
  if (sign !== "+" && sign !== "-") return null;
  const colon = pattern.includes(":");
  const two = (at: number) => (isDigit(s.charCodeAt(at)) && isDigit(s.charCodeAt(at + 1)) ? Number(s.slice(at, at + 2)) : null);
  let p = pos + 1;
  const h = two(p);
  if (h === null) return null;
  p += 2;
  let m = 0;
  let sec = 0;
  const field = (required: boolean): number | null | undefined => {
    const at = colon ? p + 1 : p;
    if (colon && s[p] !== ":") return required ? null : undefined;
    const v = two(at);
    if (v === null) return required ? null : undefined;
    p = at + 2;
    return v;
  };
  if (pattern.length > 3) {
    const minutesRequired = /MM/.test(pattern);
    const mv = field(minutesRequired);
    if (mv === null) return null;
    if (mv !== undefined) {
      m = mv;
      if (/ss|SS/i.test(pattern.slice(4))) {
        const sv = field(/SS/.test(pattern));
        if (sv === null) return null;
        if (sv !== undefined) sec = sv;
      }
    }
  }
  if (h > 18 || m > 59 || sec > 59) return null;
  const total = h * 3600 + m * 60 + sec;
  return [sign === "-" ? -total : total, p];
}

function parseLocalizedOffset(s: string, pos: number): [number, number] | null {
  if (s.slice(pos, pos + 3).toUpperCase() !== "GMT") return null;
  let p = pos + 3;
  const sign = s[p];
  if (sign !== "+" && sign !== "-") return [0, p];
  p++;
  const m = /^(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?/.exec(s.slice(p));
  if (!m) return null;
  const total = Number(m[1]) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  return [sign === "-" ? -total : total, p + m[0].length];
}

/** Common zone abbreviations java.time's zone-text parser knows (region they resolve to). */
const ZONE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  PST: "America/Los_Angeles",
  PDT: "America/Los_Angeles",
  MST: "America/Denver",
  MDT: "America/Denver",
  CST: "America/Chicago",
  CDT: "America/Chicago",
  EST: "America/New_York",
  EDT: "America/New_York",
  CET: "CET",
  CEST: "Europe/Paris",
  BST: "Europe/London",
  WIB: "Asia/Jakarta",
  WITA: "Asia/Makassar",
  WIT: "Asia/Jayapura",
  JST: "Asia/Tokyo",
  KST: "Asia/Seoul",
};

/** Zone id or name (`UTC`, `GMT+8`, `America/New_York`, `PST`); returns [zone, newPos] or null. */
function parseZoneText(s: string, pos: number): [Zone, number] | null {
  const run = /^[A-Za-z0-9_/+\-:~.]+/.exec(s.slice(pos))?.[0] ?? "";
  for (let len = run.length; len > 0; len--) {
    const cand = run.slice(0, len);
    const id = ZONE_ABBREVIATIONS[cand.toUpperCase()] ?? cand;
    try {
      return [getZone(id), pos + len];
    } catch {
      // try a shorter prefix
    }
  }
  return null;
}

function parseField(t: { c: string; n: number }, s: string, pos: number, p: Parsed, reserved: number): number {
  const { c, n } = t;
  const spec = numSpec(c, n);
  if (spec !== null) {
    let at = pos;
    let sign = "";
    if (spec.sign !== "none" && (s[at] === "-" || s[at] === "+")) {
      sign = s[at]!;
      if (sign === "+" && spec.sign === "normal") return -1;
      at++;
    }
    let avail = 0;
    while (at + avail < s.length && isDigit(s.charCodeAt(at + avail))) avail++;
    // Adjacent value parsing: read greedily, then give the following fixed-width fields theirs.
    let len = Math.min(avail, spec.max + reserved);
    if (reserved > 0) len = Math.max(spec.min, len - reserved);
    if (len < spec.min || len > avail) return -1;
    if (spec.sign === "exceeds" && ((sign === "+" && len <= spec.min) || (sign !== "+" && len > spec.min))) return -1;
    let v = Number(s.slice(at, at + len));
    if (sign === "-") v = -v;
    if (n === 2 && (c === "u" || c === "y")) v += 2000; // reduced year, base 2000
    return put(p, numKey(c), v) ? at + len : -1;
  }
  switch (c) {
    case "S": {
      // Spark parses `S..S` with a variable width of 1..n digits.
      let len = 0;
      while (len < n && isDigit(s.charCodeAt(pos + len))) len++;
      if (len === 0) return -1;
      const nano = Number(s.slice(pos, pos + len).padEnd(9, "0"));
      return put(p, "nano", nano) ? pos + len : -1;
    }
    case "M":
    case "L": {
      const names = n === 3 ? MONTHS.map((m) => m.slice(0, 3)) : MONTHS;
      const m = matchText(s, pos, names);
      return m && put(p, "month", m[0] + 1) ? pos + m[1] : -1;
    }
    case "a": {
      const m = matchText(s, pos, ["AM", "PM"]);
      return m && put(p, "ampm", m[0]) ? pos + m[1] : -1;
    }
    case "G": {
      const m = matchText(s, pos, n === 4 ? ["Before Christ", "Anno Domini"] : ["BC", "AD"]);
      return m && put(p, "era", m[0]) ? pos + m[1] : -1;
    }
    case "X":
    case "x":
    case "Z": {
      let r: [number, number] | null;
      if (c === "Z" && n === 4) r = parseLocalizedOffset(s, pos);
      else {
        const pat = c === "Z" ? (n === 5 ? "+HH:MM:ss" : "+HHMM") : ["+HHmm", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss"][n - 1]!;
        const none =
          c === "X" || (c === "Z" && n === 5) ? "Z" : c === "Z" ? "+0000" : ["+00", "+0000", "+00:00", "+0000", "+00:00"][n - 1]!;
        r = parseOffsetId(s, pos, pat, none);
      }
      return r && put(p, "offset", r[0]) ? r[1] : -1;
    }
    case "O": {
      const r = parseLocalizedOffset(s, pos);
      return r && put(p, "offset", r[0]) ? r[1] : -1;
    }
    case "V":
    case "z":
    case "v": {
      const r = parseZoneText(s, pos);
      if (!r) return -1;
      p.zone = r[0];
      return r[1];
    }
  }
  return -1;
}

/** Width a token takes part in adjacent value parsing with, or 0 if it breaks the chain. */
function fixedWidth(t: Tok): number {
  if (t.k !== "f") return 0;
  const spec = numSpec(t.c, t.n);
  return spec !== null && spec.min === spec.max ? spec.min : 0;
}

function parseToks(toks: Tok[], s: string, pos: number, p: Parsed): number {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.k === "lit") {
      if (s.slice(pos, pos + t.text.length).toLowerCase() !== t.text.toLowerCase()) return -1;
      pos += t.text.length;
    } else if (t.k === "opt") {
      const copy: Parsed = { ...p };
      const r = parseToks(t.toks, s, pos, copy);
      if (r >= 0) {
        Object.assign(p, copy);
        pos = r;
      }
    } else {
      let reserved = 0;
      const spec = numSpec(t.c, t.n);
      if (spec !== null && spec.min !== spec.max) {
        for (let j = i + 1; j < toks.length; j++) {
          const w = fixedWidth(toks[j]!);
          if (w === 0) break;
          reserved += w;
        }
      }
      pos = parseField(t, s, pos, p, reserved);
      if (pos < 0) return -1;
    }
  }
  return pos;
}

function inRange(v: number | undefined, lo: number, hi: number): boolean {
  return v === undefined || (v >= lo && v <= hi);
}

function parseWith(toks: Tok[], s: string, tz: string): number | null {
  if (typeof s !== "string") return null;
  const p: Parsed = {};
  const end = parseToks(toks, s, 0, p);
  if (end !== s.length) return null;
  // STRICT range checks.
  if (
    !inRange(p.month, 1, 12) ||
    !inRange(p.day, 1, 31) ||
    !inRange(p.doy, 1, 366) ||
    !inRange(p.hourOfDay, 0, 23) ||
    !inRange(p.clockHourAmPm, 1, 12) ||
    !inRange(p.hourAmPm, 0, 11) ||
    !inRange(p.clockHourOfDay, 1, 24) ||
    !inRange(p.minute, 0, 59) ||
    !inRange(p.second, 0, 59) ||
    !inRange(p.yearOfEra, 1, 999_999_999)
  ) {
    return null;
  }
  // Year: proleptic year, or year-of-era with era (AD when absent).
  let year = p.year;
  if (p.yearOfEra !== undefined) {
    const y = p.era === 0 ? 1 - p.yearOfEra : p.yearOfEra;
    if (year !== undefined && year !== y) return null;
    year = y;
  }
  // Hour: resolve h/K/k/a to hour-of-day the way java.time does, then Spark's defaults.
  let hour = p.hourOfDay;
  if (p.clockHourOfDay !== undefined) {
    const h = p.clockHourOfDay === 24 ? 0 : p.clockHourOfDay;
    if (hour !== undefined && hour !== h) return null;
    hour = h;
  }
  let hourAmPm = p.hourAmPm;
  if (p.clockHourAmPm !== undefined) {
    const h = p.clockHourAmPm === 12 ? 0 : p.clockHourAmPm;
    if (hourAmPm !== undefined && hourAmPm !== h) return null;
    hourAmPm = h;
  }
  if (hourAmPm !== undefined && p.ampm !== undefined) {
    const h = p.ampm * 12 + hourAmPm;
    if (hour !== undefined && hour !== h) return null;
    hour = h;
  } else if (hour === undefined) {
    // Spark: h/K without a/PM means AM; a lone PM means 12:00.
    hour = hourAmPm ?? (p.ampm === 1 ? 12 : 0);
  } else if (p.ampm !== undefined && Math.floor(hour / 12) !== p.ampm) return null;
  // Date: Spark's toLocalDate defaults (1970, January, 1st) and day-of-year handling.
  const y = year ?? 1970;
  let days: number;
  if (p.doy !== undefined) {
    if (p.doy === 366 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return null;
    days = daysFromCivil(y, 1, 1) + p.doy - 1;
    const c = civilFromDays(days);
    if ((p.month !== undefined && p.month !== c.month) || (p.day !== undefined && p.day !== c.day)) return null;
  } else {
    const m = p.month ?? 1;
    const d = p.day ?? 1;
    if (!isValidDate(y, m, d)) return null;
    days = daysFromCivil(y, m, d);
  }
  const local = days * SECONDS_PER_DAY + hour * 3600 + (p.minute ?? 0) * 60 + (p.second ?? 0);
  const micro = Math.floor((p.nano ?? 0) / 1000);
  let zone: Zone;
  try {
    zone = p.offset !== undefined ? getZone(offsetText(p.offset)) : (p.zone ?? getZone(tz));
  } catch {
    return null;
  }
  return localSecondsToUtc(zone, local) * MICROS_PER_SECOND + micro;
}

function offsetText(total: number): string {
  if (total === 0) return "Z";
  const abs = Math.abs(total);
  return `${total < 0 ? "-" : "+"}${num(Math.floor(abs / 3600), 2)}:${num(Math.floor(abs / 60) % 60, 2)}:${num(abs % 60, 2)}`;
}
