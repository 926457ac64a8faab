/**
 * `runFor(query, clock, seconds)`: run a query on a ManualClock for `seconds` of query time, in
 * well under a second of real time, with exactly the batches real time would give. The clock
 * moves in 100 ms steps (so aligned trigger instants are hit exactly) and, before each step,
 * the query finishes every trigger that is due. The query must have been started with
 * `writeStream.withClock(clock)`; a rate source then stamps its rows with the clock's time too.
 */
import type { StreamingQuery } from "../api/streaming/query.js";
import type { ManualClock } from "../runtime/clock.js";
import { waitUntilQuiet } from "./wait.js";

export interface RunForOptions {
  /** Clock step in milliseconds (default 100; trigger intervals should be multiples of it). */
  stepMs?: number;
  /** Wall-clock limit for any single wait (default 10 000 ms): a hung query fails instead of hanging. */
  timeoutMs?: number;
}

/**
 * Step `clock` forward `seconds`, letting every due trigger run; the query keeps running
 * afterwards (stop it yourself). Resolves true if the query ended meanwhile; rejects with the
 * query's error if it failed.
 */
export async function runFor(query: StreamingQuery, clock: ManualClock, seconds: number, options: RunForOptions = {}): Promise<boolean> {
  const step = options.stepMs ?? 100;
  const timeout = options.timeoutMs ?? 10_000;
  if (!(seconds >= 0)) throw new RangeError(`runFor: seconds must be a non-negative number, got ${seconds}`);
  if (!(step > 0)) throw new RangeError(`runFor: stepMs must be positive, got ${step}`);
  const end = clock.now() + seconds * 1000;
  while (clock.now() < end && query.isActive) {
    await waitUntilQuiet(query, clock, timeout);
    clock.setTime(Math.min(end, Math.floor(clock.now() / step) * step + step));
  }
  await waitUntilQuiet(query, clock, timeout);
  if (query.exception) throw query.exception;
  return !query.isActive;
}
