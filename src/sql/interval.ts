import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MILLIS, MICROS_PER_MINUTE, MICROS_PER_SECOND } from "../common/datetime/index.js";
import type { ParseException } from "../common/errors.js";
import { parseInterval } from "../common/interval.js";
import { DAY_TIME_FIELDS, type DayTimeField } from "../types/datatypes.js";
import type { Cursor } from "./cursor.js";
import { monthIntervalError } from "./datatype.js";

/** Microseconds per day-time unit; months/years are counted separately. */
const UNIT_MICROS: Readonly<Record<string, number>> = {
  WEEK: 7 * MICROS_PER_DAY,
  DAY: MICROS_PER_DAY,
  HOUR: MICROS_PER_HOUR,
  MINUTE: MICROS_PER_MINUTE,
  SECOND: MICROS_PER_SECOND,
  MILLISECOND: MICROS_PER_MILLIS,
  MICROSECOND: 1,
};
const UNIT_MONTHS: Readonly<Record<string, number>> = { YEAR: 12, MONTH: 1 };

/** Canonical (singular, upper-case) unit name, or null if `word` is not an interval unit. */
export function intervalUnit(word: string): string | null {
  let u = word.toUpperCase();
  if (u.endsWith("S") && u !== "S") u = u.slice(0, -1);
  return u in UNIT_MICROS || u in UNIT_MONTHS ? u : null;
}

const DAY_TIME_ORDER = ["DAY", "HOUR", "MINUTE", "SECOND"] as const;
/** Upper bounds for non-leading fields of `'d h:m:s'` strings. */
const FIELD_MAX: Readonly<Record<string, number>> = { HOUR: 23, MINUTE: 59, SECOND: 59 };

/** `'1 10:30:00'` for DAY TO SECOND etc.; returns null when the text does not fit the range. */
function parseDayTimeString(text: string, from: string, to: string): number | null {
  const a = DAY_TIME_ORDER.indexOf(from as (typeof DAY_TIME_ORDER)[number]);
  const b = DAY_TIME_ORDER.indexOf(to as (typeof DAY_TIME_ORDER)[number]);
  if (a < 0 || b < 0 || b <= a) return null;
  const fields = DAY_TIME_ORDER.slice(a, b + 1);
  const m = /^\s*([+-]?)(.*?)\s*$/.exec(text)!;
  const sign = m[1] === "-" ? -1 : 1;
  let rest = m[2]!;
  const values: number[] = [];
  if (fields[0] === "DAY") {
    const d = /^(\d+)\s+(.*)$/.exec(rest);
    if (!d) return null;
    values.push(Number(d[1]));
    rest = d[2]!;
  }
  const parts = rest.split(":");
  if (parts.length !== fields.length - values.length) return null;
  for (const p of parts) {
    if (!/^\d+(\.\d+)?$/.test(p)) return null;
    values.push(Number(p));
  }
  let micros = 0;
  for (let k = 0; k < fields.length; k++) {
    const f = fields[k]!;
    const v = values[k]!;
    if (f !== "SECOND" && !Number.isInteger(v)) return null;
    if (k > 0 && v > FIELD_MAX[f]! + (f === "SECOND" ? 0.999999999 : 0)) return null;
    micros += v * UNIT_MICROS[f]!;
  }
  return sign * Math.trunc(micros);
}

/**
 * Read an interval literal after the INTERVAL keyword (already consumed): day-time ones as
 * micros (`'10 seconds'`, `5 MINUTES`, `'5' MINUTE`, `1 HOUR 30 MINUTES`, `'10:30' HOUR TO
 * MINUTE`), year-month ones as months (`1 MONTH`, `2 YEARS 3 MONTHS`, `'1-2' YEAR TO MONTH`).
 * One literal holds one kind, as in Spark.
 */
export interface IntervalLiteral {
  months: number;
  micros: number;
  /** A day-time literal's type fields as Spark derives them from how it was written (`3 DAYS 2 HOURS`: DAY TO HOUR). */
  fields?: readonly [DayTimeField, DayTimeField];
}

/** DAY..SECOND order of a unit (WEEK counts as DAY, MILLISECOND and MICROSECOND as SECOND). */
function fieldOf(unit: string): DayTimeField | null {
  if (unit === "WEEK") return "DAY";
  if (unit === "MILLISECOND" || unit === "MICROSECOND") return "SECOND";
  return (DAY_TIME_FIELDS as readonly string[]).includes(unit) ? (unit as DayTimeField) : null;
}
function span(units: readonly string[]): readonly [DayTimeField, DayTimeField] | undefined {
  const idx = units
    .map(fieldOf)
    .filter((f): f is DayTimeField => f !== null)
    .map((f) => DAY_TIME_FIELDS.indexOf(f));
  if (idx.length === 0) return undefined;
  return [DAY_TIME_FIELDS[Math.min(...idx)]!, DAY_TIME_FIELDS[Math.max(...idx)]!];
}

export function readIntervalLiteral(cur: Cursor): IntervalLiteral {
  const start = cur.peek();
  const invalid = (value: string): never => {
    throw cur.fail(`[INVALID_TYPED_LITERAL] The value of the typed literal "INTERVAL" is invalid: '${value}'.`, start);
  };
  // A lone string: the whole interval is spelled inside it.
  if (start.kind === "string" && !unitAt(cur, 1)) {
    cur.next();
    let iv: { months: number; micros: number };
    try {
      iv = parseInterval(start.value);
    } catch {
      return invalid(start.value);
    }
    if (iv.months !== 0 && iv.micros !== 0) throw mixedIntervalError(cur, start);
    const words = start.value.match(/[A-Za-z]+/g) ?? [];
    return { ...iv, fields: span(words.map((w) => intervalUnit(w) ?? "")) };
  }
  const units: string[] = [];
  let micros = 0;
  let months = 0;
  let pairs = 0;
  while (valueAt(cur)) {
    const signTok = cur.peek();
    let sign = 1;
    if (cur.acceptOp("-")) sign = -1;
    else cur.acceptOp("+");
    const valueTok = cur.next();
    const unitTok = cur.next();
    const unit = intervalUnit(unitTok.value)!;
    if (pairs === 0 && cur.isKeyword("TO")) {
      cur.next();
      const toTok = cur.next();
      const to = toTok.kind === "ident" ? intervalUnit(toTok.value) : null;
      if (to === null) throw cur.error(toTok);
      if (valueTok.kind !== "string") throw cur.error(valueTok);
      if (unit === "YEAR" && to === "MONTH") {
        const ym = /^\s*([+-]?)(\d+)-(\d+)\s*$/.exec(valueTok.value);
        if (!ym || Number(ym[3]) > 11) return invalid(valueTok.value);
        return { months: sign * (ym[1] === "-" ? -1 : 1) * (Number(ym[2]) * 12 + Number(ym[3])), micros: 0 };
      }
      if (unit in UNIT_MONTHS || to in UNIT_MONTHS) throw monthIntervalError(cur, toTok);
      const v = parseDayTimeString(valueTok.value, unit, to);
      if (v === null) return invalid(valueTok.value);
      return { months: 0, micros: sign * v, fields: span([unit, to]) };
    }
    const text = valueTok.kind === "string" ? valueTok.value.trim() : valueTok.text;
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return invalid(text);
    if (unit in UNIT_MONTHS) {
      if (text.includes(".")) throw cur.fail(fractionalUnit(text, unit), signTok);
      months += sign * Number(text) * UNIT_MONTHS[unit]!;
      pairs++;
      continue;
    }
    if (text.includes(".") && unit !== "SECOND") {
      throw cur.fail(fractionalUnit(text, unit), signTok);
    }
    micros += sign * Math.trunc(Number(text) * UNIT_MICROS[unit]!);
    units.push(unit);
    pairs++;
  }
  if (pairs === 0) throw cur.error();
  if (months !== 0 && micros !== 0) throw mixedIntervalError(cur, start);
  return { months, micros, fields: span(units) };
}

function mixedIntervalError(cur: Cursor, at: ReturnType<Cursor["peek"]>): ParseException {
  return cur.fail(
    "[UNSUPPORTED_FEATURE] An interval mixing years or months with days or times is not supported: " +
      "write them apart (INTERVAL 1 MONTH + INTERVAL 2 DAYS).",
    at,
  );
}

/** Is there `[+-] (number | string) unit` at the cursor? */
function valueAt(cur: Cursor): boolean {
  let k = cur.isOp("-") || cur.isOp("+") ? 1 : 0;
  const t = cur.peek(k);
  if (t.kind !== "number" && t.kind !== "string") return false;
  return unitAt(cur, ++k);
}
function unitAt(cur: Cursor, k: number): boolean {
  const t = cur.peek(k);
  return t.kind === "ident" && intervalUnit(t.value) !== null;
}

/** Spark's INVALID_INTERVAL_FORMAT.INVALID_FRACTION: a fraction of a unit that has none (`INTERVAL '1.5' YEAR`). */
function fractionalUnit(text: string, unit: string): string {
  return (
    `[INVALID_INTERVAL_FORMAT.INVALID_FRACTION] Error parsing '${text.startsWith("-") ? "" : " "}${text} ${unit}' to interval. ` +
    "Please ensure that the value provided is in a valid format for defining an interval. You can reference the documentation for the correct format. " +
    `${unit.toLowerCase()} cannot have fractional part.`
  );
}
