/**
 * Waiting helpers for the test kit. The kit never sleeps to let time pass: it waits for the
 * query to reach a state (idle on its manual clock, done processing, terminated), and gives up
 * after a wall-clock timeout so a broken engine fails a test instead of hanging it.
 */
import type { StreamingQuery } from "../api/streaming/query.js";
import type { ManualClock } from "../runtime/clock.js";

export class KitTimeoutError extends Error {
  override readonly name = "KitTimeoutError";
}

/** Race `p` against a timeout; the timer is cleared either way so the process can exit. */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KitTimeoutError(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * With a processingTime trigger on a manual clock, the query is quiet once its loop waits on
 * the clock for the next trigger instant (or it has ended). Polling is the only signal the
 * runtime's ManualClock offers; each poll yields for 1 ms of wall time at most.
 */
export async function waitUntilQuiet(q: StreamingQuery, clock: ManualClock, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (q.isActive && !clock.isWaiting()) {
    if (Date.now() > deadline) {
      throw new KitTimeoutError(
        `timed out after ${timeoutMs} ms waiting for the query to wait for its next trigger (status: ${JSON.stringify(q.status)})`,
      );
    }
    await new Promise((r) => setTimeout(r, 1));
  }
}
