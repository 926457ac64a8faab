/**
 * StreamingQueryManager (`session.streams`): active queries, awaitAnyTermination, and
 * listeners (onQueryStarted / onQueryProgress / onQueryIdle / onQueryTerminated, and arus's
 * onQueryAlert from the monitoring layer: docs/monitoring.md).
 */
import { logWarning } from "../../common/log.js";
import type { StreamingQueryProgress } from "../../runtime/progress.js";
import type { Session } from "../session.js";
import type { StreamingQuery } from "./query.js";

export interface QueryStartedEvent {
  id: string;
  runId: string;
  name: string | null;
  timestamp: string;
}
export interface QueryProgressEvent {
  id: string;
  runId: string;
  progress: StreamingQueryProgress;
}
export interface QueryTerminatedEvent {
  id: string;
  runId: string;
  exception: string | null;
}
/** arus: an alert rule of the monitoring layer fired or resolved (docs/monitoring.md). */
export interface QueryAlertEvent {
  id: string;
  runId: string;
  name: string | null;
  /** The rule: fallingBehind, slowBatch, sourceLag, watermarkDelay, idleSource, stateGrowth, lateRows, noProgress. */
  alert: string;
  /** What the rule looked at: "query", "source[0]", "stateOperator[1]". */
  subject: string;
  state: "firing" | "resolved";
  /** Why, in one line, with the value and the threshold. */
  message: string;
  value: number;
  threshold: number;
  /** The batch whose progress changed the state (-1 for the no-progress timer). */
  batchId: number;
  /** When it changed (ISO, the query's clock). */
  timestamp: string;
}
export interface StreamingQueryListener {
  onQueryStarted?(e: QueryStartedEvent): void;
  onQueryProgress?(e: QueryProgressEvent): void;
  onQueryIdle?(e: QueryProgressEvent): void;
  onQueryTerminated?(e: QueryTerminatedEvent): void;
  /** arus: an alert fired or resolved (once each: docs/monitoring.md). */
  onQueryAlert?(e: QueryAlertEvent): void;
}

type EventName = keyof StreamingQueryListener;

export class StreamingQueryManager {
  private readonly queries = new Set<StreamingQuery>();
  private readonly listeners: StreamingQueryListener[] = [];
  private lastTerminated: StreamingQuery | null = null;
  private anyWaiters: (() => void)[] = [];

  /** @internal */
  constructor(private readonly session: Session) {}

  get active(): StreamingQuery[] {
    return [...this.queries].filter((q) => q.isActive);
  }
  get(id: string): StreamingQuery | null {
    return [...this.queries].find((q) => q.id === id && q.isActive) ?? null;
  }
  /** @internal the query of a run, active or just ending (the monitoring layer). */
  byRunId(runId: string): StreamingQuery | null {
    return [...this.queries].find((q) => q.runId === runId) ?? null;
  }
  addListener(l: StreamingQueryListener): void {
    this.listeners.push(l);
  }
  removeListener(l: StreamingQueryListener): void {
    const i = this.listeners.indexOf(l);
    if (i >= 0) this.listeners.splice(i, 1);
  }
  /** Resolve when any query has terminated since the last resetTerminated(); reject if it failed. */
  async awaitAnyTermination(timeoutSeconds?: number): Promise<boolean> {
    if (!this.lastTerminated) {
      const ended = new Promise<void>((r) => this.anyWaiters.push(r));
      if (timeoutSeconds === undefined) await ended;
      else {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          ended.then(() => false),
          new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutSeconds * 1000))),
        ]);
        clearTimeout(timer);
        if (timedOut) return false;
      }
    }
    if (this.lastTerminated?.exception) throw this.lastTerminated.exception;
    return true;
  }
  resetTerminated(): void {
    this.lastTerminated = null;
  }

  /** @internal */
  register(q: StreamingQuery): void {
    this.queries.add(q);
  }
  /** @internal */
  terminated(q: StreamingQuery): void {
    this.queries.delete(q);
    this.lastTerminated = q;
    this.post("onQueryTerminated", { id: q.id, runId: q.runId, exception: q.exception ? q.exception.message : null });
    const w = this.anyWaiters;
    this.anyWaiters = [];
    for (const r of w) r();
  }
  /** @internal */
  post(event: EventName, payload: unknown): void {
    for (const l of this.listeners) {
      try {
        (l[event] as ((e: unknown) => void) | undefined)?.call(l, payload);
      } catch (e) {
        logWarning("StreamingQueryManager", `StreamingQueryListener.${event} threw: ${(e as Error).message}`);
      }
    }
  }
  /** @internal */
  async stopAll(): Promise<void> {
    await Promise.all(this.active.map((q) => q.stop()));
  }
  /** @internal */
  get sessionRef(): Session {
    return this.session;
  }
}
