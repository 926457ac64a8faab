/**
 * Event-time scans over the live entries of the columnar state table (table.ts), for watermark
 * eviction: key column `col` is a timestamp (its value) or a window struct (field 1, its end;
 * field 0 for a one-field struct). A NULL event time is never expired (Spark's `time <= watermark`
 * is NULL for it, so its group stays in state); the reports (distinctEventTimes) leave it out.
 */
import { IntList } from "./arrays.js";
import { LIVE } from "./flags.js";
import type { ColumnarTable } from "./table.js";
import { keyVector } from "./vectors.js";

/** Live entries whose event time is <= micros, ascending. */
export function expiredIds(t: ColumnarTable, col: number, micros: number): Int32Array {
  const ref = t.lanes[col]!;
  const k = t.schema.keys[col]!;
  const flags = t.flags;
  const hwm = t.hwm;
  const out = new IntList();
  if (ref.lane === "none") return new Int32Array(0); // a NULL-typed key: always NULL, never expired
  if (ref.lane === "i" && k.kind === "struct") {
    // Decide per window tuple once, then pick the entries by code.
    const dict = t.tupleDicts[ref.index]!;
    const f = k.fields.length > 1 ? 1 : 0;
    const dead = new Uint8Array(dict.highWater + 1);
    let any = false;
    for (let c = 0; c < dict.highWater; c++) {
      if (dict.refs[c]! <= 0) continue;
      const v = dict.field(c, f);
      if (v !== null && v <= micros) {
        dead[c] = 1;
        any = true;
      }
    }
    if (!any) return new Int32Array(0);
    return deadByCode(flags, t.ik[ref.index]!, dead, hwm);
  }
  // A value in its lane.
  const vals = ref.lane === "f" ? t.fk[ref.index]! : t.ik[ref.index]!;
  const valid = t.laneValidity(ref);
  for (let e = 0; e < hwm; e++) {
    if ((flags[e]! & LIVE) === 0) continue;
    if (vals[e]! <= micros && (valid === null || valid[e] === 1)) out.push(e);
  }
  return out.view().slice();
}

/**
 * Live entries whose code is marked dead (a NULL code never is), ascending: counted first, then written into an
 * array of exactly that size (a growing list allocated its size about three times over).
 */
function deadByCode(flags: Uint8Array, codes: Int32Array, dead: Uint8Array, hwm: number): Int32Array {
  const count = countDead(flags, codes, dead, hwm);
  return fillDead(flags, codes, dead, hwm, new Int32Array(count));
}

// One loop per function (docs/architecture.md, "Hot path rules").
function countDead(flags: Uint8Array, codes: Int32Array, dead: Uint8Array, hwm: number): number {
  let count = 0;
  for (let e = 0; e < hwm; e++) if ((flags[e]! & LIVE) !== 0 && codes[e]! >= 0 && dead[codes[e]!] === 1) count++;
  return count;
}

function fillDead(flags: Uint8Array, codes: Int32Array, dead: Uint8Array, hwm: number, out: Int32Array): Int32Array {
  const count = out.length;
  for (let e = 0, k = 0; e < hwm && k < count; e++) if ((flags[e]! & LIVE) !== 0 && codes[e]! >= 0 && dead[codes[e]!] === 1) out[k++] = e;
  return out;
}

/** Event time (micros) of every live entry with one, as `expiredIds` reads it. */
export function eventTimes(t: ColumnarTable, col: number): number[] {
  const ids = t.liveIds();
  const out: number[] = [];
  const v = keyVector(t, col, ids, ids.length);
  const src = v.children ? v.children[v.children.length > 1 ? 1 : 0]! : v;
  for (let i = 0; i < ids.length; i++) {
    const isNull = (v.validity !== null && v.validity[i] === 0) || (src.validity !== null && src.validity[i] === 0);
    if (!isNull) out.push(Number((src.values as Float64Array | BigInt64Array)[i]!)); // a NULL time never closes: left out
  }
  return out;
}

/**
 * The distinct event times of the live entries, in no order. For a window key it reads the
 * window dictionary (a few tuples) instead of every entry: the state threads send it with each
 * batch's answer, for explainWatermark.
 */
export function distinctEventTimes(t: ColumnarTable, col: number): number[] {
  const ref = t.lanes[col]!;
  const k = t.schema.keys[col]!;
  if (ref.lane === "i" && k.kind === "struct") {
    const dict = t.tupleDicts[ref.index]!;
    const f = k.fields.length > 1 ? 1 : 0;
    const out = new Set<number>();
    for (let c = 0; c < dict.highWater; c++) {
      if (dict.refs[c]! <= 0) continue;
      const end = dict.field(c, f);
      if (end !== null) out.add(end);
    }
    return [...out];
  }
  // a timestamp in its lane: one pass over the live entries, no key vector
  const out = new Set<number>();
  if (ref.lane === "none") return [...out]; // a NULL-typed key: no event time
  const vals = ref.lane === "f" ? t.fk[ref.index]! : t.ik[ref.index]!;
  const valid = t.laneValidity(ref);
  const flags = t.flags;
  for (let e = 0; e < t.hwm; e++) {
    if ((flags[e]! & LIVE) === 0) continue;
    if (valid === null || valid[e] === 1) out.add(Number(vals[e]!)); // a report: a bigint past 2255 as its double
  }
  return [...out];
}
