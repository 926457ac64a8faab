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

/**
 * PySpark's keyword forms as an object: `{ processingTime: "5 seconds" }` (or milliseconds),
 * `{ once: true }`, `{ availableNow: true }`, `{ continuous: "1 second" }` (not supported). A
 * bare interval string (`"5 seconds"`, Scala's `Trigger.ProcessingTime("5 seconds")`) is
 * processingTime.
 */
export type TriggerSpec = { processingTime?: string | number; once?: boolean; availableNow?: boolean; continuous?: string } | string;

const FORMS = `{ processingTime: "5 seconds" }, { once: true } or { availableNow: true }`;
const KEYS = new Set(["processingTime", "once", "availableNow", "continuous"]);

export function parseTrigger(spec: TriggerSpec | undefined): Trigger {
  if (spec === undefined) return { kind: "processingTime", intervalMs: 0 };
  if (typeof spec === "string") return parseTrigger({ processingTime: spec });
  if (typeof spec !== "object" || spec === null) {
    throw new IllegalArgumentException(`trigger() takes one of ${FORMS}; got ${String(spec)}.`);
  }
  for (const k of Object.keys(spec)) {
    if (!KEYS.has(k)) throw new IllegalArgumentException(`Unknown trigger '${k}': write trigger(${FORMS}).`);
  }
  const set = Object.entries(spec).filter(([, v]) => v !== undefined);
  if (set.length !== 1) {
    throw new IllegalArgumentException(
      `Only one trigger can be set: pass exactly one of ${FORMS} (got ${set.length === 0 ? "none" : set.map(([k]) => k).join(", ")}).`,
    );
  }
  if (spec.continuous !== undefined)
    throw new IllegalArgumentException("Continuous processing is not supported by arus; use a micro-batch trigger.");
  if (spec.once !== undefined) {
    if (spec.once !== true) throw new IllegalArgumentException(`Value for \`once\` must be true, got ${String(spec.once)}.`);
    return { kind: "once" };
  }
  if (spec.availableNow !== undefined) {
    if (spec.availableNow !== true) {
      throw new IllegalArgumentException(`Value for \`availableNow\` must be true, got ${String(spec.availableNow)}.`);
    }
    return { kind: "availableNow" };
  }
  const pt = spec.processingTime!;
  if (typeof pt === "string" && pt.trim() === "") {
    throw new IllegalArgumentException(`Value for \`processingTime\` must be a non-empty interval such as "5 seconds", got '${pt}'.`);
  }
  const ms = typeof pt === "number" ? pt : durationMicros(pt, "processingTime") / 1000;
  if (!Number.isFinite(ms) || ms < 0) throw new IllegalArgumentException(`The processingTime interval must be non-negative, got '${pt}'.`);
  return { kind: "processingTime", intervalMs: ms };
}

/** The next aligned trigger instant after `now` for an interval (Spark's ProcessingTimeExecutor). */
export function nextTriggerTime(now: number, intervalMs: number): number {
  return Math.floor(now / intervalMs) * intervalMs + intervalMs;
}
