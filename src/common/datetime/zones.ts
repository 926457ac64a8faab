/**
 * Time zones with Spark's (java.time) semantics: zone ids as `ZoneId.of(id, SHORT_IDS)` accepts
 * them (see resolveTimeZone), zone rules from tzdb (incl. LMT offsets before ~1900), and local →
 * instant like `ZonedDateTime.of`: in a DST overlap the earlier offset wins, a local time inside
 * a gap is shifted forward by the gap length.
 *
 * Offsets come from Intl (tzdb inside ICU). Intl is slow (~4 µs a call), so each zone builds, per
 * bucket of 128 UTC days, the list of its transitions: one Intl call per day boundary, plus a
 * binary search to the second where the offset changed. Lookups are then a Map hit and a scan of
 * (usually 0–1) transitions. Limitation: two transitions inside one UTC day that cancel out are
 * not seen (no such case in tzdb data since 1900 that we know of).
 */
import { IllegalArgumentException } from "../errors.js";
import { daysFromCivil, splitMicros } from "./calendar.js";
import { pad2 } from "./digits.js";
import { MICROS_PER_SECOND, SECONDS_PER_DAY } from "./units.js";

/** A resolved zone: its Java-style id and an offset function (seconds east of UTC). */
export interface Zone {
  readonly id: string;
  /** Fixed offset in seconds, or null for a region with rules. */
  readonly fixedOffset: number | null;
  offsetSeconds(utcSeconds: number): number;
}

export class FixedZone implements Zone {
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
      // Spark's text as it is, closing quote (U+2019) and space before a comma included
      `'America/Los_Angeles'. Zone offsets must be in the format '(+|-)HH', '(+|-)HH:mm\u2019 or ` +
      `'(+|-)HH:mm:ss', e.g '-08' , '+01:00' or '-13:33:33', and must be in the range from -18:00 ` +
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

/** Local date-time micros (since the local epoch) in `tz` of an instant: the inverse of `localToUtcMicros`. */
export function utcToLocalMicros(tz: string, utcMicros: number): number {
  return utcMicros + offsetMicros(tz, utcMicros);
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
