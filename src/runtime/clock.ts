/**
 * Clocks. The runtime never reads Date.now() or sleeps directly: it asks a Clock, so tests
 * (and the test kit) drive time by hand with ManualClock and never sleep.
 */
export interface Clock {
  now(): number;
  /** Resolve once now() >= t, or when `signal` aborts. */
  waitUntil(t: number, signal?: AbortSignal): Promise<void>;
}

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
  waitUntil(t: number, signal?: AbortSignal): Promise<void> {
    const ms = t - Date.now();
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}

/** A clock that only moves when told to: `advance(ms)` / `setTime(t)`. */
export class ManualClock implements Clock {
  private time: number;
  private waiters: { t: number; resolve: () => void }[] = [];
  constructor(startMs = 0) {
    this.time = startMs;
  }
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.setTime(this.time + ms);
  }
  setTime(t: number): void {
    this.time = t;
    const due = this.waiters.filter((w) => w.t <= t);
    this.waiters = this.waiters.filter((w) => w.t > t);
    for (const w of due) w.resolve();
  }
  /** True when someone is waiting for a future instant (the query is idle on this clock). */
  isWaiting(): boolean {
    return this.waiters.length > 0;
  }
  waitUntil(t: number, signal?: AbortSignal): Promise<void> {
    if (t <= this.time || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve();
      };
      // Reached by setTime: drop the abort listener too, or one leaks per wait on a shared signal.
      const w = {
        t,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.waiters.push(w);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
