/**
 * The callers of processAllAvailable, waiting for the query to go idle. Each is answered by the
 * first trigger (a group-mode worker's attempt) that began after its call and found nothing to
 * do: one already under way may have asked its sources before data the caller had just added,
 * and found nothing for that reason. Used by the single-process trigger pacer
 * (trigger-pacer.ts) and the group-mode worker's loop (cluster/group-execution.ts).
 */
export class IdleWaiters {
  private waiters: { after: number; resolve: () => void }[] = [];
  private triggers = 0;

  /** A trigger begins; its number (for `foundNothing`). */
  beginTrigger(): number {
    return ++this.triggers;
  }

  /** Someone waits whom the current trigger can answer: its sources must answer as of now. */
  get awaited(): boolean {
    return this.waiters.some((w) => w.after < this.triggers);
  }

  /** Resolves at the next trigger that begins after this call and finds nothing to do. */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => this.waiters.push({ after: this.triggers, resolve }));
  }

  /** Trigger `trigger` found nothing to do: answers those who called before it began. */
  foundNothing(trigger: number): void {
    const due = this.waiters.filter((w) => w.after < trigger);
    this.waiters = this.waiters.filter((w) => w.after >= trigger);
    for (const w of due) w.resolve();
  }

  /** The query ended: answers everyone. */
  releaseAll(): void {
    for (const w of this.waiters.splice(0)) w.resolve();
  }
}
