/**
 * Formatting with a compiled Spark datetime pattern (the tokens come from pattern-tokens.ts):
 * one field at a time, in the session time zone.
 */

import { IllegalArgumentException } from "../errors.js";
import { type Civil, civilFromDays, daysFromCivil, splitMicros } from "./calendar.js";
import { MONTHS, type Tok } from "./pattern-tokens.js";
import { SECONDS_PER_DAY } from "./units.js";
import { getZone, type Zone } from "./zones.js";

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
export function num(v: number, minWidth: number, exceedsPad = false): string {
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
    case "F": // JDK 17's F, which Spark runs on: the aligned day of week in the month (1-7), not the week
      return num(((f.day - 1) % 7) + 1, n);
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

export function formatWith(toks: Tok[], micros: number | bigint, tz: string): string {
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
