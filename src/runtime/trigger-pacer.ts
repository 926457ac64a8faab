/**
 * When the next trigger starts (Spark's TriggerExecutor and the polling of MicroBatchExecution):
 * the trigger kinds' rules (runtime/trigger.ts), the polling delay after a trigger that ran
 * nothing, the early end of that wait when a source reports data, and the callers waiting for
 * the query to go idle (processAllAvailable). The loop asks it; it never runs a batch itself.
 */
import { logWarning } from "../common/log.js";
import type { Clock } from "./clock.js";
import { IdleWaiters } from "./idle-waiters.js";
import { nextTriggerTime, type Trigger } from "./trigger.js";

/** What to do between two triggers. */
export type TriggerWait =
  | { readonly kind: "end" }
  | { readonly kind: "none" }
  | { readonly kind: "interval"; readonly untilMs: number }
  | { readonly kind: "poll" };

export class TriggerPacer {
  private readonly abort = new AbortController();
  private readonly idle = new IdleWaiters();
  /** The current trigger's number (IdleWaiters.beginTrigger). */
  private triggerNumber = 0;
  /** A source said data arrived (or a caller waits for idle) since the current trigger began. */
  private woken = false;
  /** Ends the current polling wait early; null when the loop is not polling. */
  private endPoll: (() => void) | null = null;

  constructor(
    private readonly trigger: Trigger,
    private readonly clock: Clock,
    private readonly pollMs: number,
    /** The trigger runs one batch at most (once, or availableNow over a source that cannot fix its end). */
    private readonly singleBatch: boolean,
  ) {}

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** A trigger begins now; its start time. */
  beginTrigger(): number {
    this.woken = false;
    this.triggerNumber = this.idle.beginTrigger();
    return this.clock.now();
  }

  /** The wait after a trigger that began at `startedMs` and ran a batch or not. */
  nextWait(startedMs: number, ran: boolean): TriggerWait {
    const { trigger } = this;
    if (this.stopped || this.singleBatch) return { kind: "end" };
    if (trigger.kind === "availableNow" && !ran) return { kind: "end" };
    if (!ran) this.notifyIdle();
    if (trigger.kind === "processingTime" && trigger.intervalMs > 0) {
      const now = this.clock.now();
      if (ran && now - startedMs > trigger.intervalMs) {
        logWarning(
          "ProcessingTimeExecutor",
          `Current batch is falling behind. The trigger interval is ${trigger.intervalMs} milliseconds, but spent ${now - startedMs} milliseconds`,
        );
        return { kind: "none" };
      }
      return { kind: "interval", untilMs: nextTriggerTime(now, trigger.intervalMs) };
    }
    if (!ran && trigger.kind === "processingTime" && !this.woken) return { kind: "poll" };
    return { kind: "none" };
  }

  /** Sleep until the next aligned trigger time (stop() ends it). */
  async waitUntil(ms: number): Promise<void> {
    await this.clock.waitUntil(ms, this.abort.signal);
  }

  /**
   * Wait the polling delay, or less: a source that reports new data (onDataAvailable), a
   * waitForIdle() call or stop() ends the wait. Spark sleeps the whole delay; the early end
   * only moves the next trigger forward, it never skips or merges one.
   */
  async poll(): Promise<void> {
    // A wake-up that came after nextWait chose to poll (e.g. while the last commit settled).
    if (this.abort.signal.aborted || this.woken) return;
    const wake = new AbortController();
    const end = () => wake.abort();
    this.endPoll = end;
    this.abort.signal.addEventListener("abort", end, { once: true });
    try {
      await this.clock.waitUntil(this.clock.now() + this.pollMs, wake.signal);
    } finally {
      this.abort.signal.removeEventListener("abort", end);
      this.endPoll = null;
    }
  }

  /** New data may be available: start the next trigger now if the loop is polling. */
  wake(): void {
    this.woken = true;
    this.endPoll?.();
  }

  stop(): void {
    this.abort.abort();
  }

  /**
   * Someone waits for the current trigger to find nothing (waitForIdle before it began): its
   * sources must answer as of now, or data that arrived just before the call is missed.
   */
  get idleAwaited(): boolean {
    return this.idle.awaited;
  }

  /** Resolves at the next trigger that starts after this call and finds nothing to do. */
  waitForIdle(): Promise<void> {
    const p = this.idle.wait();
    // The answer needs one more trigger that finds nothing: no reason to wait out a poll first.
    this.wake();
    return p;
  }

  /** The trigger that just began found nothing: wake the waiters from before it (all of them at the end). */
  notifyIdle(all = false): void {
    if (all) this.idle.releaseAll();
    else this.idle.foundNothing(this.triggerNumber);
  }
}
