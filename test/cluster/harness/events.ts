/**
 * The scale-out input and its oracle (not a test file itself): N events with unique ids over K
 * keys, event time rising through the run with a bounded disorder smaller than the watermark
 * delay (so no event is late and the expected windows are deterministic), then one "flush" event
 * per partition far enough ahead that the watermark passes the last window.
 */
import { rng } from "../../recovery/driver.js";

export interface ScaleoutEvent {
  readonly id: number;
  readonly k: string;
  readonly v: number;
  /** Event time, ms since the epoch. */
  readonly ts: number;
  readonly partition: number;
  /** A flush event: in out-raw, but its window never closes so it never reaches out. */
  readonly flush: boolean;
}

export interface GeneratorConfig {
  readonly events: number;
  readonly keys: number;
  readonly partitions: number;
  /** Event time covered by the N events (their arrival spreads it over the run). */
  readonly eventTimeSpanMs: number;
  /** An event is up to this much older than its place in the sequence; must stay below the delay. */
  readonly disorderMs: number;
  readonly windowMs: number;
  readonly watermarkDelayMs: number;
  readonly seed: number;
  /** `id`: round robin over the partitions (a key is in every partition); `key`: a key's events share one partition. */
  readonly partitionBy: "id" | "key";
  /** Event time of the first event (default 2026-01-01T00:00:00Z: windows do not depend on the clock). */
  readonly t0?: number;
}

export const FLUSH_KEY = "__flush";

export function generateEvents(c: GeneratorConfig): ScaleoutEvent[] {
  if (!(c.disorderMs < c.watermarkDelayMs)) {
    throw new Error(
      `generator: disorderMs (${c.disorderMs}) must be below watermarkDelayMs (${c.watermarkDelayMs}), or events would be late`,
    );
  }
  if (c.events < 1 || c.keys < 1 || c.partitions < 1) throw new Error("generator: events, keys and partitions must be positive");
  const random = rng(c.seed);
  const t0 = c.t0 ?? Date.UTC(2026, 0, 1);
  const out: ScaleoutEvent[] = [];
  let maxTs = t0;
  for (let id = 0; id < c.events; id++) {
    const key = Math.floor(random() * c.keys);
    const ts = t0 + Math.floor((id * c.eventTimeSpanMs) / c.events) - Math.floor(random() * c.disorderMs);
    maxTs = Math.max(maxTs, ts);
    const partition = c.partitionBy === "key" ? key % c.partitions : id % c.partitions;
    out.push({ id, k: `k${key}`, v: 1 + Math.floor(random() * 100), ts, partition, flush: false });
  }
  // The watermark (max event time - delay) must reach the end of the last window.
  const lastWindowEnd = (Math.floor(maxTs / c.windowMs) + 1) * c.windowMs;
  const flushTs = lastWindowEnd + c.watermarkDelayMs + c.windowMs;
  for (let p = 0; p < c.partitions; p++) out.push({ id: c.events + p, k: FLUSH_KEY, v: 0, ts: flushTs, partition: p, flush: true });
  return out;
}

/** The input record of an event: key = its key, value = its JSON (what out-raw must hold byte for byte). */
export function encodeEvent(e: ScaleoutEvent): { key: string; value: string; partition: number } {
  return { key: e.k, value: JSON.stringify({ id: e.id, k: e.k, v: e.v, ts: new Date(e.ts).toISOString() }), partition: e.partition };
}

export interface WindowResult {
  readonly k: string;
  /** Window start and end, seconds since the epoch (the pipeline's CAST(window.start AS BIGINT)). */
  readonly ws: number;
  readonly we: number;
  readonly cnt: number;
  readonly sm: number;
}

export const windowKey = (k: string, ws: number) => `${k}|${ws}`;

/** Expected (key, window) → count and sum(v): every window of the regular events (all close). */
export function oracle(events: readonly ScaleoutEvent[], windowMs: number): Map<string, WindowResult> {
  const acc = new Map<string, { k: string; ws: number; cnt: number; sm: number }>();
  for (const e of events) {
    if (e.flush) continue;
    const ws = Math.floor(e.ts / windowMs) * windowMs;
    const key = windowKey(e.k, ws / 1000);
    const a = acc.get(key) ?? { k: e.k, ws: ws / 1000, cnt: 0, sm: 0 };
    a.cnt++;
    a.sm += e.v;
    acc.set(key, a);
  }
  const out = new Map<string, WindowResult>();
  for (const [key, a] of acc) out.set(key, { ...a, we: a.ws + windowMs / 1000 });
  return out;
}
