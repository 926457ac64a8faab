/**
 * Time-zone aware conversions between internal values (TIMESTAMP = micros since epoch, DATE =
 * days since epoch) and Spark's text forms.
 *
 * Spark (java.time) semantics kept here:
 * - Proleptic Gregorian calendar, zone rules from tzdb (incl. LMT offsets before ~1900).
 * - Zone ids as `ZoneId.of(id, SHORT_IDS)` accepts them (see resolveTimeZone).
 * - Local → instant like `ZonedDateTime.of`: in a DST overlap the earlier offset wins, a local
 *   time inside a gap is shifted forward by the gap length.
 *
 * Offsets come from Intl (tzdb inside ICU). Intl is slow (~4 µs a call), so each zone builds, per
 * bucket of 128 UTC days, the list of its transitions: one Intl call per day boundary, plus a
 * binary search to the second where the offset changed. Lookups are then a Map hit and a scan of
 * (usually 0–1) transitions. Limitation: two transitions inside one UTC day that cancel out are
 * not seen (no such case in tzdb data since 1900 that we know of).
 */
import { IllegalArgumentException } from "./errors.js";

export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_MILLIS = 1_000;
export const SECONDS_PER_DAY = 86_400;
export const MICROS_PER_DAY = 86_400_000_000;

// ------------------------------------------------------------------------------------------------
// Civil calendar arithmetic (proleptic Gregorian, H. Hinnant's algorithms; no Date objects).

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Reused result of civilFromDays: avoids one allocation per formatted value. */
export interface Civil {
  year: number;
  month: number;
  day: number;
}

/** Inverse of daysFromCivil; writes into `out` (a fresh object when omitted). */
export function civilFromDays(days: number, out: Civil = { year: 0, month: 0, day: 0 }): Civil {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  out.day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  out.month = mp < 10 ? mp + 3 : mp - 9;
  out.year = yoe + era * 400 + (out.month <= 2 ? 1 : 0);
  return out;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** True when (y, m, d) is a real date (LocalDate.of would accept it). */
export function isValidDate(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m) && Math.abs(y) <= 999_999_999;
}

/** Splits micros into whole seconds (floor) and the micro-of-second remainder [0, 1e6). */
export function splitMicros(micros: number): [seconds: number, microOfSecond: number] {
  // Division may round up near a second boundary for large values; correct with exact math.
  let sec = Math.floor(micros / MICROS_PER_SECOND);
  let frac = micros - sec * MICROS_PER_SECOND;
  if (frac < 0) {
    sec -= 1;
    frac += MICROS_PER_SECOND;
  } else if (frac >= MICROS_PER_SECOND) {
    sec += 1;
    frac -= MICROS_PER_SECOND;
  }
  return [sec, frac];
}

// ------------------------------------------------------------------------------------------------
// Zones

/** A resolved zone: its Java-style id and an offset function (seconds east of UTC). */
export interface Zone {
  readonly id: string;
  /** Fixed offset in seconds, or null for a region with rules. */
  readonly fixedOffset: number | null;
  offsetSeconds(utcSeconds: number): number;
}

class FixedZone implements Zone {
  constructor(
    readonly id: string,
    readonly fixedOffset: number,
  ) {}
  offsetSeconds(): number {
    return this.fixedOffset;
  }
}

/**
 * Offsets over one bucket of BUCKET_DAYS UTC days: `o0` from the bucket start, then `offs[k]`
 * from second `starts[k]` on.
 */
interface Bucket {
  o0: number;
  starts: number[];
  offs: number[];
}

const BUCKET_DAYS = 128;
const BUCKET_SECONDS = BUCKET_DAYS * SECONDS_PER_DAY;
const MAX_CACHED_BUCKETS = 20_000;

/** Which slot of intlOffset's fields each numeric part of the formatted date fills. */
const WALL_CLOCK_PARTS: ReadonlyMap<string, number> = new Map([
  ["year", 0],
  ["month", 1],
  ["day", 2],
  ["hour", 3],
  ["minute", 4],
  ["second", 5],
]);

class RegionZone implements Zone {
  readonly fixedOffset = null;
  private readonly fmt: Intl.DateTimeFormat;
  private readonly buckets = new Map<number, Bucket>();
  private lastBucket = Number.NaN;
  private lastEntry: Bucket = { o0: 0, starts: [], offs: [] };

  constructor(
    readonly id: string,
    ianaName: string,
  ) {
    this.fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: ianaName,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  }

  offsetSeconds(utcSeconds: number): number {
    const b = Math.floor(utcSeconds / BUCKET_SECONDS);
    let e: Bucket | undefined;
    if (b === this.lastBucket) e = this.lastEntry;
    else {
      e = this.buckets.get(b);
      if (e === undefined) e = this.computeBucket(b);
      this.lastBucket = b;
      this.lastEntry = e;
    }
    let o = e.o0;
    const starts = e.starts;
    for (let k = 0; k < starts.length && utcSeconds >= starts[k]!; k++) o = e.offs[k]!;
    return o;
  }

  /** Samples every day boundary of the bucket and pins each change to the second. */
  private computeBucket(b: number): Bucket {
    const start = b * BUCKET_SECONDS;
    const o0 = this.intlOffset(start);
    const starts: number[] = [];
    const offs: number[] = [];
    let prev = o0;
    for (let d = 1; d <= BUCKET_DAYS; d++) {
      const hiSec = start + d * SECONDS_PER_DAY;
      const o = this.intlOffset(hiSec);
      if (o === prev) continue;
      // Binary search the first second whose offset is no longer `prev`.
      let lo = hiSec - SECONDS_PER_DAY;
      let hi = hiSec;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (this.intlOffset(mid) === prev) lo = mid;
        else hi = mid;
      }
      if (hi < start + BUCKET_SECONDS) {
        starts.push(hi);
        offs.push(o);
      }
      prev = o;
    }
    // The last sample is the next bucket's start; a change exactly there belongs to that bucket.
    const entry = { o0, starts, offs };
    if (this.buckets.size >= MAX_CACHED_BUCKETS) this.buckets.clear();
    this.buckets.set(b, entry);
    return entry;
  }

  /** Offset at one instant, by asking Intl for the local wall clock fields. */
  private intlOffset(utcSeconds: number): number {
    const parts = this.fmt.formatToParts(new Date(utcSeconds * 1000));
    // Slots of WALL_CLOCK_PARTS: year, month, day, hour, minute, second.
    const f = [0, 0, 0, 0, 0, 0];
    let bc = false;
    for (const p of parts) {
      if (p.type === "era") bc = p.value === "BC" || p.value === "B";
      else {
        const slot = WALL_CLOCK_PARTS.get(p.type);
        if (slot !== undefined) f[slot] = Number(p.value);
      }
    }
    const [y, mo, d, h, mi, s] = f as [number, number, number, number, number, number];
    const local = daysFromCivil(bc ? 1 - y : y, mo, d) * SECONDS_PER_DAY + h * 3600 + mi * 60 + s;
    return local - utcSeconds;
  }
}

/** Java's ZoneId.SHORT_IDS, which Spark passes to ZoneId.of. */
const SHORT_IDS: Readonly<Record<string, string>> = {
  ACT: "Australia/Darwin",
  AET: "Australia/Sydney",
  AGT: "America/Argentina/Buenos_Aires",
  ART: "Africa/Cairo",
  AST: "America/Anchorage",
  BET: "America/Sao_Paulo",
  BST: "Asia/Dhaka",
  CAT: "Africa/Harare",
  CNT: "America/St_Johns",
  CST: "America/Chicago",
  CTT: "Asia/Shanghai",
  EAT: "Africa/Addis_Ababa",
  ECT: "Europe/Paris",
  IET: "America/Indiana/Indianapolis",
  IST: "Asia/Kolkata",
  JST: "Asia/Tokyo",
  MIT: "Pacific/Apia",
  NET: "Asia/Yerevan",
  NST: "Pacific/Auckland",
  PLT: "Asia/Karachi",
  PNT: "America/Phoenix",
  PRT: "America/Puerto_Rico",
  PST: "America/Los_Angeles",
  SST: "Pacific/Guadalcanal",
  VST: "Asia/Ho_Chi_Minh",
  EST: "-05:00",
  MST: "-07:00",
  HST: "-10:00",
};

function invalidZone(id: string): IllegalArgumentException {
  return new IllegalArgumentException(
    `[INVALID_TIMEZONE] The timezone: ${id} is invalid. The timezone must be either a region-based ` +
      `zone ID or a zone offset. Region IDs must have the form 'area/city', such as ` +
      `'America/Los_Angeles'. Zone offsets must be in the format '(+|-)HH', '(+|-)HH:mm' or ` +
      `'(+|-)HH:mm:ss', e.g '-08', '+01:00' or '-13:33:33', and must be in the range from -18:00 ` +
      `to +18:00. 'Z' and 'UTC' are accepted as synonyms for '+00:00'.`,
  );
}

/** Java ZoneOffset id: `Z`, `+07:00`, `-03:30:15`. */
export function offsetId(totalSeconds: number): string {
  if (totalSeconds === 0) return "Z";
  const sign = totalSeconds < 0 ? "-" : "+";
  const abs = Math.abs(totalSeconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  return `${sign}${pad2(h)}:${pad2(m)}${s ? `:${pad2(s)}` : ""}`;
}

/** Parses ZoneOffset.of text (`+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss`) to seconds. */
function parseOffset(text: string): number | null {
  const m = /^([+-])(\d{1,2})(?:(:?)(\d{2})(?:\3(\d{2}))?)?$/.exec(text);
  if (!m) return null;
  // One-digit hours only without minutes (`+7`), as Java.
  if (m[2]!.length === 1 && m[4] !== undefined) return null;
  const h = Number(m[2]);
  const mi = m[4] === undefined ? 0 : Number(m[4]);
  const s = m[5] === undefined ? 0 : Number(m[5]);
  if (h > 18 || mi > 59 || s > 59) return null;
  const total = h * 3600 + mi * 60 + s;
  if (total > 18 * 3600) return null;
  return m[1] === "-" ? -total : total;
}

function isIntlZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const zoneCache = new Map<string, Zone>();

function buildZone(input: string): Zone {
  let id = input.trim();
  // Spark's getZoneId: accept `+h:mm` and `+hh:m`, supported before Spark 3.0.
  id = id.replace(/([+-])(\d):/, "$10$2:").replace(/([+-])(\d\d):(\d)$/, "$1$2:0$3");
  id = SHORT_IDS[id] ?? id;
  if (id === "Z") return new FixedZone("Z", 0);
  if (id.startsWith("+") || id.startsWith("-")) {
    const off = parseOffset(id);
    if (off === null) throw invalidZone(input);
    return new FixedZone(offsetId(off), off);
  }
  if (id === "UTC" || id === "GMT" || id === "UT") return new FixedZone(id, 0);
  for (const prefix of ["UTC", "GMT", "UT"]) {
    if (id.startsWith(prefix) && (id[prefix.length] === "+" || id[prefix.length] === "-")) {
      const off = parseOffset(id.slice(prefix.length));
      if (off === null) throw invalidZone(input);
      // Java keeps the prefix: ZoneId.of("GMT+8").getId() == "GMT+08:00".
      return new FixedZone(off === 0 ? prefix : prefix + offsetId(off), off);
    }
  }
  if (!/^[A-Za-z][A-Za-z0-9~/._+-]+$/.test(id) || !isIntlZone(id)) throw invalidZone(input);
  if (/^(etc\/)?(utc|gmt|uct|zulu|universal|greenwich)$/i.test(id)) return new FixedZone(id, 0);
  return new RegionZone(id, id);
}

/** The Zone for an id (any form resolveTimeZone accepts); cached. */
export function getZone(tz: string): Zone {
  let z = zoneCache.get(tz);
  if (z === undefined) {
    z = buildZone(tz);
    zoneCache.set(tz, z);
  }
  return z;
}

/**
 * Validates a zone id the way Spark's `getZoneId` does and returns its Java id: IANA regions
 * (`Asia/Jakarta`), `UTC`/`GMT`/`UT`, `Z`, offsets (`+07:00`, `-0500`, `+7`, `+7:00`),
 * prefixed offsets (`GMT+8` → `GMT+08:00`) and Java's SHORT_IDS (`PST`, `EST`, ...).
 * Unknown ids throw IllegalArgumentException (INVALID_TIMEZONE).
 */
export function resolveTimeZone(id: string): string {
  if (typeof id !== "string" || id.trim() === "") throw invalidZone(String(id));
  return getZone(id).id;
}

let processZone: { env: string | undefined; zone: string } | null = null;

/**
 * The process time zone (what the JVM default zone would be: TZ, else the system zone).
 * Cached per value of `process.env.TZ` (Node re-reads the zone when TZ is assigned): asking
 * Intl costs ~0.3 ms, and every read of an unset `spark.sql.session.timeZone` lands here.
 */
export function defaultTimeZone(): string {
  const env = process.env.TZ;
  if (processZone !== null && processZone.env === env) return processZone.zone;
  const tz = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  let zone = "UTC";
  if (tz) {
    try {
      zone = resolveTimeZone(tz);
    } catch {
      zone = "UTC";
    }
  }
  processZone = { env, zone };
  return zone;
}

/** Offset of `tz` at an instant, in micros. */
export function offsetMicros(tz: string, utcMicros: number): number {
  const [sec] = splitMicros(utcMicros);
  return getZone(tz).offsetSeconds(sec) * MICROS_PER_SECOND;
}

/** UTC micros of a local date-time (micros since the local epoch) in `tz`, like ZonedDateTime.of. */
export function localToUtcMicros(tz: string, localMicros: number): number {
  const zone = getZone(tz);
  if (zone.fixedOffset !== null) return localMicros - zone.fixedOffset * MICROS_PER_SECOND;
  const [local, frac] = splitMicros(localMicros);
  return localSecondsToUtc(zone, local) * MICROS_PER_SECOND + frac;
}

/** Local seconds → UTC seconds (overlap: earlier offset; gap: shift forward by the gap). */
export function localSecondsToUtc(zone: Zone, local: number): number {
  if (zone.fixedOffset !== null) return local - zone.fixedOffset;
  // Offsets are within ±18 h, so the instant lies inside [local - 1 day, local + 1 day]; the
  // offsets seen there are the candidates (at most two around one transition).
  const c1 = zone.offsetSeconds(local - SECONDS_PER_DAY);
  const c2 = zone.offsetSeconds(local + SECONDS_PER_DAY);
  const c3 = zone.offsetSeconds(local - c1);
  const c4 = zone.offsetSeconds(local - c2);
  let best: number | null = null;
  let min = c1;
  for (const o of [c1, c2, c3, c4]) {
    if (o < min) min = o;
    if (zone.offsetSeconds(local - o) === o && (best === null || o > best)) best = o;
  }
  // No valid offset: the local time is in a gap; Java moves it later by the gap length, which
  // is the same as applying the offset before the transition (the smaller one).
  return local - (best ?? min);
}

// ------------------------------------------------------------------------------------------------
// Formatting

const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : `${i}`));

export function pad2(n: number): string {
  return n < 100 && n >= 0 ? TWO_DIGITS[n]! : String(n);
}

/**
 * Year as ISO_LOCAL_DATE / `uuuu` prints it: 4 digits zero-padded, `-` for negative years and
 * `+` when more than 4 digits are needed (EXCEEDS_PAD).
 */
export function formatYear(y: number): string {
  const abs = Math.abs(y);
  const digits = abs < 10 ? `000${abs}` : abs < 100 ? `00${abs}` : abs < 1000 ? `0${abs}` : String(abs);
  if (y < 0) return `-${digits}`;
  return abs > 9999 ? `+${digits}` : digits;
}

/** `.ffffff` with trailing zeros trimmed, or "" for a zero fraction. */
export function formatFraction(microOfSecond: number): string {
  if (microOfSecond === 0) return "";
  let s = String(microOfSecond + MICROS_PER_SECOND).slice(1);
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--;
  s = s.slice(0, end);
  return `.${s}`;
}

const scratch: Civil = { year: 0, month: 0, day: 0 };

/**
 * Spark's timestamp-to-string (TimestampFormatter.getFractionFormatter): `yyyy-MM-dd HH:mm:ss`
 * in `tz`, then the fraction only if non-zero with trailing zeros removed.
 */
export function formatTimestamp(micros: number, tz: string): string {
  // Inlined splitMicros: this is the hot path of show() and CSV/JSON writers.
  let sec = Math.floor(micros / MICROS_PER_SECOND);
  let frac = micros - sec * MICROS_PER_SECOND;
  if (frac < 0) {
    sec -= 1;
    frac += MICROS_PER_SECOND;
  } else if (frac >= MICROS_PER_SECOND) {
    sec += 1;
    frac -= MICROS_PER_SECOND;
  }
  const zone = tz === lastTz ? lastZone : lookupLast(tz);
  const local = zone.fixedOffset === 0 ? sec : sec + zone.offsetSeconds(sec);
  return frac === 0 ? formatLocalSeconds(local) : formatLocalSeconds(local) + formatFraction(frac);
}

// One-entry memo in front of the zone cache: callers format whole columns in one zone.
let lastTz = "UTC";
let lastZone: Zone = new FixedZone("UTC", 0);
function lookupLast(tz: string): Zone {
  lastZone = getZone(tz);
  lastTz = tz;
  return lastZone;
}

/** Formats local seconds since the epoch as `yyyy-MM-dd HH:mm:ss`. */
export function formatLocalSeconds(local: number): string {
  const days = Math.floor(local / SECONDS_PER_DAY);
  let sod = local - days * SECONDS_PER_DAY;
  civilFromDays(days, scratch);
  const h = Math.floor(sod / 3600);
  sod -= h * 3600;
  const m = Math.floor(sod / 60);
  const s = sod - m * 60;
  const y = scratch.year;
  const ys = y >= 1000 && y <= 9999 ? String(y) : formatYear(y);
  return (
    ys +
    "-" +
    TWO_DIGITS[scratch.month]! +
    "-" +
    TWO_DIGITS[scratch.day]! +
    " " +
    TWO_DIGITS[h]! +
    ":" +
    TWO_DIGITS[m]! +
    ":" +
    TWO_DIGITS[s]!
  );
}

/** Spark's date-to-string: `yyyy-MM-dd` (proleptic Gregorian). */
export function formatDate(days: number): string {
  civilFromDays(days, scratch);
  return `${formatYear(scratch.year)}-${TWO_DIGITS[scratch.month]}-${TWO_DIGITS[scratch.day]}`;
}

/** `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC (StreamingQueryProgress timestamps and eventTime). */
export function isoUtcMillis(ms: number): string {
  const sec = Math.floor(ms / 1000);
  const milli = ms - sec * 1000;
  const s = formatLocalSeconds(sec);
  const sp = s.lastIndexOf(" ");
  return `${s.slice(0, sp)}T${s.slice(sp + 1)}.${String(milli + 1000).slice(1)}Z`;
}

export function microsFromDate(d: Date): number {
  return d.getTime() * MICROS_PER_MILLIS;
}

/** Date for a timestamp; sub-millisecond precision is dropped (floor, as Spark's microsToMillis). */
export function dateFromMicros(m: number): Date {
  return new Date(Math.floor(m / MICROS_PER_MILLIS));
}

// ------------------------------------------------------------------------------------------------
// Parsing (Spark's cast string → timestamp / date, non-ANSI: invalid → null)

/** Spark trims bytes that are whitespace or ISO control characters (all ≤ 0x20, and 0x7F). */
function isTrimmable(c: number): boolean {
  return c <= 0x20 || c === 0x7f;
}

function trimBounds(s: string): [number, number] {
  let start = 0;
  let end = s.length;
  while (start < end && isTrimmable(s.charCodeAt(start))) start++;
  while (end > start && isTrimmable(s.charCodeAt(end - 1))) end--;
  return [start, end];
}

/**
 * Spark's `stringToTimestamp` (DateTimeUtils.parseTimestampString): accepted forms are
 * `[+-]yyyy*`, `[+-]yyyy*-[m]m`, `[+-]yyyy*-[m]m-[d]d`,
 * `[+-]yyyy*-[m]m-[d]d[ T][h]h[:[m]m[:[s]s[.ffffff]]][zone]`, and time-only
 * `[T][h]h:[m]m[:[s]s[.ffffff]][zone]` (today's date in the zone). A zone (`Z`, `+07:00`,
 * `-0500`, ` UTC`, `America/New_York`, ...) may follow the seconds. Years have 4–6 digits,
 * other fields 1–2; more than 6 fraction digits are truncated. Invalid input → null.
 */
export function parseTimestamp(s: string, tz: string): number | null {
  if (typeof s !== "string") return null;
  const [start, end] = trimBounds(s);
  if (start === end) return null;
  const seg = [1, 1, 1, 0, 0, 0, 0, 0, 0];
  let i = 0;
  let value = 0;
  let digits = 0;
  let fracDigits = 0;
  let justTime = false;
  let yearSign = 0;
  let zoneText: string | null = null;
  let j = start;
  const valid = (segment: number, n: number): boolean =>
    segment === 6 ||
    (segment === 0 && n >= 4 && n <= 6) ||
    (segment === 7 && n <= 2) ||
    (segment !== 0 && segment !== 6 && segment !== 7 && n > 0 && n <= 2);
  const c0 = s.charCodeAt(j);
  if (c0 === 45 /* - */ || c0 === 43 /* + */) {
    yearSign = c0 === 45 ? -1 : 1;
    j++;
  }
  while (j < end) {
    const c = s.charCodeAt(j);
    const d = c - 48;
    if (d < 0 || d > 9) {
      if (j === 0 && c === 84 /* T */) {
        justTime = true;
        i += 3;
      } else if (i < 2) {
        if (c === 45) {
          if (!valid(i, digits)) return null;
          seg[i] = value;
          value = 0;
          digits = 0;
          i++;
        } else if (i === 0 && c === 58 /* : */ && yearSign === 0) {
          justTime = true;
          if (!valid(3, digits)) return null;
          seg[3] = value;
          value = 0;
          digits = 0;
          i = 4;
        } else return null;
      } else if (i === 2) {
        if (c !== 32 && c !== 84) return null;
        if (!valid(i, digits)) return null;
        seg[i] = value;
        value = 0;
        digits = 0;
        i++;
      } else if (i === 3 || i === 4) {
        if (c !== 58) return null;
        if (!valid(i, digits)) return null;
        seg[i] = value;
        value = 0;
        digits = 0;
        i++;
      } else if (i === 5 || i === 6) {
        if (!valid(i, digits)) return null;
        seg[i] = value;
        value = 0;
        digits = 0;
        i++;
        if (!(c === 46 /* . */ && i === 6)) {
          // Anything else after the seconds (or fraction) is the zone id.
          zoneText = s.slice(j, end);
          j = end - 1;
        }
        if (i === 6 && c !== 46) i++;
      } else {
        if (!(i < seg.length && (c === 58 || c === 32))) return null;
        if (!valid(i, digits)) return null;
        seg[i] = value;
        value = 0;
        digits = 0;
        i++;
      }
    } else {
      if (i === 6) fracDigits++;
      if (i !== 6 || digits < 6) value = value * 10 + d;
      digits++;
    }
    j++;
  }
  if (!valid(i, digits)) return null;
  seg[i] = value;
  while (fracDigits < 6) {
    seg[6]! *= 10;
    fracDigits++;
  }
  let zone: Zone;
  try {
    zone = getZone(zoneText === null ? tz : zoneText.trim());
  } catch {
    return null;
  }
  const [h, mi, sec, us] = [seg[3]!, seg[4]!, seg[5]!, seg[6]!];
  if (h > 23 || mi > 59 || sec > 59) return null;
  let days: number;
  if (justTime) {
    const nowSec = Math.floor(Date.now() / 1000);
    days = Math.floor((nowSec + zone.offsetSeconds(nowSec)) / SECONDS_PER_DAY);
  } else {
    const y = seg[0]! * (yearSign || 1);
    if (!isValidDate(y, seg[1]!, seg[2]!)) return null;
    days = daysFromCivil(y, seg[1]!, seg[2]!);
  }
  const local = days * SECONDS_PER_DAY + h * 3600 + mi * 60 + sec;
  return inTimestampRange(localSecondsToUtc(zone, local) * MICROS_PER_SECOND + us);
}

/** Spark's TIMESTAMP range: microseconds that fit a long (up to +294247-01-10T04:00:54.775807Z). */
const MAX_TIMESTAMP_MICROS = 2 ** 63;

/** `micros` if it is a TIMESTAMP Spark can hold, else null (an out-of-range text is invalid). */
export function inTimestampRange(micros: number): number | null {
  return micros >= -MAX_TIMESTAMP_MICROS && micros < MAX_TIMESTAMP_MICROS ? micros : null;
}

/**
 * Spark's `stringToDate`: `[+-]yyyy*`, `[+-]yyyy*-[m]m`, `[+-]yyyy*-[m]m-[d]d`, and
 * `[+-]yyyy*-[m]m-[d]d` followed by a space or `T` and anything. Years have 4–7 digits.
 * Invalid input → null.
 */
export function parseDate(s: string): number | null {
  if (typeof s !== "string") return null;
  const [start, end] = trimBounds(s);
  if (start === end) return null;
  const seg = [1, 1, 1];
  let sign = 1;
  let i = 0;
  let value = 0;
  let digits = 0;
  let j = start;
  const valid = (segment: number, n: number): boolean => (segment === 0 && n >= 4 && n <= 7) || (segment !== 0 && n > 0 && n <= 2);
  const c0 = s.charCodeAt(j);
  if (c0 === 45 || c0 === 43) {
    sign = c0 === 45 ? -1 : 1;
    j++;
  }
  while (j < end && i < 3) {
    const c = s.charCodeAt(j);
    if (c === 32 || c === 84) break;
    if (i < 2 && c === 45) {
      if (!valid(i, digits)) return null;
      seg[i] = value;
      value = 0;
      digits = 0;
      i++;
    } else {
      const d = c - 48;
      if (d < 0 || d > 9) return null;
      value = value * 10 + d;
      digits++;
    }
    j++;
  }
  if (!valid(i, digits)) return null;
  // For `yyyy` and `yyyy-[m]m` the whole input must be consumed.
  if (i < 2 && j < end) return null;
  seg[i] = value;
  const y = sign * seg[0]!;
  if (!isValidDate(y, seg[1]!, seg[2]!)) return null;
  return daysFromCivil(y, seg[1]!, seg[2]!);
}
