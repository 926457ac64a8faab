/**
 * The timing of a group member's heartbeats: one Heartbeat at a time, the next one an interval
 * after the last ended, stopped (waiting for the one in flight) before a join, a leave or a
 * close. What a heartbeat sends and what its answer means stays with the member (member.ts).
 */
export class HeartbeatLoop {
  private active = false;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;

  /**
   * @param beat sends one heartbeat and handles its answer (it must not throw)
   * @param delayMs the wait before the next heartbeat, read each time it is scheduled
   * @param closed true once the member is closed: nothing is scheduled any more
   */
  constructor(
    private readonly beat: () => Promise<void>,
    private readonly delayMs: () => number,
    private readonly closed: () => boolean,
  ) {}

  start(): void {
    this.active = true;
    this.schedule();
  }

  /** Schedules no further heartbeat; the one in flight, if any, still ends. */
  halt(): void {
    this.active = false;
  }

  /** Schedules no further heartbeat and waits for the one in flight. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  private schedule(): void {
    if (!this.active || this.closed() || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inFlight = this.beat().finally(() => {
        this.inFlight = null;
        this.schedule();
      });
    }, this.delayMs());
  }
}
