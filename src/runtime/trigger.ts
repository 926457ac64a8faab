/**
 * Triggers: when the next micro-batch attempt may start.
 * - default / processingTime(0): back to back; after an attempt that ran nothing, wait the
 *   polling delay (10 ms).
 * - processingTime(interval): attempts at multiples of the interval since epoch; a batch that
 *   overruns logs Spark's "falling behind" warning and the next attempt starts at once.
 * - once: one attempt, read limits ignored.
 * - availableNow: attempts until one constructs no batch, then the query ends by itself.
 */
import { IllegalArgumentException } from "../common/errors.js";
import { durationMicros } from "../common/interval.js";

export type Trigger = { kind: "processingTime"; intervalMs: number } | { kind: "once" } | { kind: "availableNow" };

export type TriggerSpec = { processingTime?: string | number; once?: boolean; availableNow?: boolean; continuous?: string };

export function parseTrigger(spec: TriggerSpec | undefined): Trigger {
  if (!spec) return { kind: "processingTime", intervalMs: 0 };
  const set = Object.entries(spec).filter(([, v]) => v !== undefined && v !== false);
  if (set.length !== 1) {
    throw new IllegalArgumentException(
      "Only one trigger can be set: pass exactly one of { processingTime }, { once: true }, { availableNow: true }.",
    );
  }
  if (spec.continuous !== undefined)
    throw new IllegalArgumentException("Continuous processing is not supported by arus; use a micro-batch trigger.");
  if (spec.once) return { kind: "once" };
  if (spec.availableNow) return { kind: "availableNow" };
  const pt = spec.processingTime!;
  const ms = typeof pt === "number" ? pt : durationMicros(pt, "processingTime") / 1000;
  if (!Number.isFinite(ms) || ms < 0) throw new IllegalArgumentException(`The processingTime interval must be non-negative, got '${pt}'.`);
  return { kind: "processingTime", intervalMs: ms };
}

/** The next aligned trigger instant after `now` for an interval (Spark's ProcessingTimeExecutor). */
export function nextTriggerTime(now: number, intervalMs: number): number {
  return Math.floor(now / intervalMs) * intervalMs + intervalMs;
}
