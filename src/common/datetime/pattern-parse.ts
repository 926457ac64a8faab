/**
 * Parsing with a compiled Spark datetime pattern (the tokens come from pattern-tokens.ts):
 * strict, case-insensitive, fields range-checked; a mismatch gives null.
 */

import { civilFromDays, daysFromCivil, isLeapYear, isValidDate } from "./calendar.js";
import { MONTHS, type Tok } from "./pattern-tokens.js";
import { MICROS_PER_SECOND, SECONDS_PER_DAY } from "./units.js";
import { getZone, localSecondsToUtc, offsetId, type Zone } from "./zones.js";

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

export function parseWith(toks: Tok[], s: string, tz: string): number | null {
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
    if (p.doy === 366 && !isLeapYear(y)) return null;
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
    zone = p.offset !== undefined ? getZone(offsetId(p.offset)) : (p.zone ?? getZone(tz));
  } catch {
    return null;
  }
  return localSecondsToUtc(zone, local) * MICROS_PER_SECOND + micro;
}
