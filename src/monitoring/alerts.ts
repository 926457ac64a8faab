/**
 * Alert state with hysteresis: a (rule, subject) pair fires after `batches` bad evaluations in
 * a row and, once firing, resolves only after `resolveBatches` good ones in a row (a bad one in
 * between starts the count again). Each transition is reported once, so a flapping value does
 * not flood listeners, logs or pagers. The no-progress rule is timed, not counted: it fires when
 * the query's clock passes the last progress by `timeout` and resolves at the next progress.
 */
import type { QueryAlertEvent } from "../api/streaming/manager.js";
import type { StreamingQueryProgress } from "../runtime/progress.js";
import type { AlertConfig, AlertRuleName } from "./alert-config.js";
import { AlertRules, type Observation, type QueryFacts } from "./alert-rules.js";

export interface QueryIdentity {
  id: string;
  runId: string;
  name: string | null;
}

interface PairState {
  firing: boolean;
  bad: number;
  good: number;
  since: string | null;
  last: Observation | null;
}

/** One firing alert as the dashboard and /metrics show it. */
export interface ActiveAlert {
  alert: string;
  subject: string;
  message: string;
  value: number;
  threshold: number;
  since: string;
}

export class QueryAlerts {
  private readonly rules: AlertRules;
  private readonly pairs = new Map<string, PairState>();
  private lastProgressAt: number;

  constructor(
    private readonly who: QueryIdentity,
    private readonly cfg: AlertConfig,
    private readonly facts: QueryFacts,
    startedAt: number,
  ) {
    this.rules = new AlertRules(cfg, facts);
    this.lastProgressAt = startedAt;
  }

  /** Feed one progress entry; returns the alerts that fired or resolved because of it. */
  onProgress(p: StreamingQueryProgress, now: number): QueryAlertEvent[] {
    this.lastProgressAt = now;
    const events: QueryAlertEvent[] = [];
    const stalled = this.pairs.get(key("noProgress", "query"));
    if (stalled?.firing) {
      stalled.firing = false;
      stalled.since = null;
      events.push(this.event(stalled.last!, "resolved", p.batchId, p.timestamp, `progress again with batch ${p.batchId}`));
    }
    if (!this.cfg.enabled) return events;
    for (const o of this.rules.observe(p)) {
      const e = this.count(o, p);
      if (e) events.push(e);
    }
    return events;
  }

  /** The no-progress check, run by a timer and before every read of the alerts. */
  checkStalled(now: number): QueryAlertEvent[] {
    if (!this.cfg.ruleEnabled("noProgress")) return [];
    // An idle query reports every noDataProgressEventInterval, a busy one every trigger: never
    // call either stalled before it has had two chances to report.
    const timeout = Math.max(
      this.cfg.durationMs("noProgress", "timeout"),
      2 * this.facts.triggerIntervalMs,
      2 * (this.facts.idleEventIntervalMs ?? 0),
    );
    const idleFor = now - this.lastProgressAt;
    const k = key("noProgress", "query");
    const st = this.pairs.get(k) ?? this.pair(k);
    if (st.firing || idleFor <= timeout) return [];
    st.firing = true;
    const ts = new Date(now).toISOString();
    st.since = ts;
    st.last = {
      rule: "noProgress",
      subject: "query",
      bad: true,
      value: idleFor,
      threshold: timeout,
      message: `no progress for ${idleFor} ms (bound ${timeout} ms): a batch is stuck or the trigger stopped`,
    };
    return [this.event(st.last, "firing", -1, ts)];
  }

  /** Firing alerts now. */
  active(): ActiveAlert[] {
    const out: ActiveAlert[] = [];
    for (const st of this.pairs.values()) {
      if (!st.firing || !st.last) continue;
      const o = st.last;
      out.push({ alert: o.rule, subject: o.subject, message: o.message, value: o.value, threshold: o.threshold, since: st.since! });
    }
    return out;
  }

  private pair(k: string): PairState {
    const st: PairState = { firing: false, bad: 0, good: 0, since: null, last: null };
    this.pairs.set(k, st);
    return st;
  }

  private count(o: Observation, p: StreamingQueryProgress): QueryAlertEvent | null {
    const k = key(o.rule, o.subject);
    const st = this.pairs.get(k) ?? this.pair(k);
    const fireAfter = Math.max(1, this.cfg.number(o.rule, "batches"));
    const resolveAfter = Math.max(1, this.cfg.number(o.rule, "resolveBatches"));
    if (o.bad) {
      st.bad++;
      st.good = 0;
      if (st.firing) {
        st.last = o; // keep the newest numbers on the firing alert, without a new event
        return null;
      }
      if (st.bad < fireAfter) return null;
      st.firing = true;
      st.since = p.timestamp;
      st.last = o;
      return this.event(o, "firing", p.batchId, p.timestamp);
    }
    st.good++;
    st.bad = 0;
    if (!st.firing || st.good < resolveAfter) return null;
    st.firing = false;
    st.since = null;
    return this.event(o, "resolved", p.batchId, p.timestamp);
  }

  private event(o: Observation, state: "firing" | "resolved", batchId: number, timestamp: string, why?: string): QueryAlertEvent {
    return {
      id: this.who.id,
      runId: this.who.runId,
      name: this.who.name,
      alert: o.rule,
      subject: o.subject,
      state,
      message: why ?? o.message,
      value: o.value,
      threshold: o.threshold,
      batchId,
      timestamp,
    };
  }
}

const key = (rule: AlertRuleName, subject: string) => `${rule}\u0000${subject}`;
