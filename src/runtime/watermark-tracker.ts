/**
 * The global watermark (Spark's WatermarkTracker): per watermark node, max(event time) −
 * delay, only ever moving forward; the global value is the min (default) or max over nodes,
 * also monotonic, starting at 0. A node that has never seen a row counts as 0.
 */
import type { EventTimeStats } from "../execution/stateful/context.js";

export type { EventTimeStats };

export class WatermarkTracker {
  private readonly perNode = new Map<number, number>();
  private global = 0;

  constructor(private readonly policy: "min" | "max") {}

  /** Each node's own watermark (undefined = has not seen a row, counts as 0). */
  nodeWatermark(id: number): number | undefined {
    return this.perNode.get(id);
  }
  get policyName(): "min" | "max" {
    return this.policy;
  }
  get currentWatermarkMs(): number {
    return this.global;
  }
  /** Restore after a restart (the value recorded in the offset / commit log). */
  setWatermark(ms: number): void {
    this.global = ms;
  }
  /**
   * Fold one batch's stats. `nodes` lists every watermark node of the plan with its delay,
   * so nodes without rows still count (as 0) in the policy.
   */
  update(nodes: readonly { id: number; delayMs: number }[], stats: ReadonlyMap<number, EventTimeStats>): void {
    for (const n of nodes) {
      const s = stats.get(n.id);
      if (!s || s.count === 0) continue;
      const candidate = s.max - n.delayMs;
      const prev = this.perNode.get(n.id);
      if (prev === undefined || candidate > prev) this.perNode.set(n.id, candidate);
    }
    if (nodes.length === 0) return;
    const values = nodes.map((n) => this.perNode.get(n.id) ?? 0);
    const candidate = this.policy === "min" ? Math.min(...values) : Math.max(...values);
    if (candidate > this.global) this.global = candidate;
  }
}
