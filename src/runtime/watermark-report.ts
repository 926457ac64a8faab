/**
 * "Why is this window still open?" — arus's explainWatermark(): the watermark in force, each
 * input's part in it (which one holds it back under the min policy), when each open window
 * will close, and how much was dropped as late so far.
 */
import { isoUtcMillis } from "../common/datetime/index.js";
import type { OpenGroups } from "../execution/operator.js";
import { type BatchReport, collectOpenGroups } from "../execution/stateful/batch-report.js";
import type { StreamingPlan } from "../planner/streaming.js";
import type { WatermarkTracker } from "./watermark-tracker.js";

export interface WatermarkInput {
  column: string;
  delayMs: number;
  /** This input's own watermark (max event time − delay); null before its first row. */
  watermarkMs: number | null;
  holdsBack: boolean;
}
export interface OpenWindow {
  operatorId: number;
  /** Window end (or event time) of the group, ms. */
  endMs: number;
  /** The watermark closes it when it reaches endMs; this is the max event time that takes. */
  closesAtMaxEventTimeMs: number;
}
export interface WatermarkReport {
  watermarkMs: number;
  policy: "min" | "max";
  inputs: WatermarkInput[];
  openWindows: OpenWindow[];
  droppedGroups: number;
  droppedInputRows: number;
  /** Group mode: the watermark is the group's, over every worker's tasks (docs/scale-out.md). */
  group?: {
    name: string;
    worker: string;
    /** The tasks this worker owns; openWindows are theirs only. */
    tasks: number[];
    /**
     * A partition with unread records that holds the watermark back (topic-partition), and where: a
     * source partition, or a repartition partition with rows its task has not read yet.
     */
    heldBy: string | null;
    heldAtMs: number | null;
    heldKind?: "source" | "repartition";
  };
}

/**
 * The report from the tracker (watermarks now), the last executed batch's report (the groups
 * its operators keep open; before the first batch, the plan's) and the drops counted so far.
 */
export function buildWatermarkReport(
  tracker: WatermarkTracker,
  plan: Pick<StreamingPlan, "watermarkNodes" | "physical">,
  last: BatchReport | null,
  dropped: { groups: number; inputRows: number },
): WatermarkReport {
  const nodes = plan.watermarkNodes;
  const own = nodes.map((n) => tracker.nodeWatermark(n.id) ?? null);
  const values = own.map((v) => v ?? 0);
  const chosen = tracker.policyName === "min" ? Math.min(...values) : Math.max(...values);
  const minDelayMs = nodes.length ? Math.min(...nodes.map((n) => n.delayMs)) : 0;
  return {
    watermarkMs: tracker.currentWatermarkMs,
    policy: tracker.policyName,
    inputs: nodes.map((n, i) => ({
      column: n.column,
      delayMs: n.delayMs,
      watermarkMs: own[i]!,
      holdsBack: nodes.length > 1 && values[i] === chosen,
    })),
    openWindows: openWindows(last ? last.openGroups() : collectOpenGroups(plan.physical), minDelayMs),
    droppedGroups: dropped.groups,
    droppedInputRows: dropped.inputRows,
  };
}

/** Each open group's window end, once per distinct end and operator, in operator then time order. */
export function openWindows(groups: readonly OpenGroups[], minDelayMs: number): OpenWindow[] {
  const out: OpenWindow[] = [];
  for (const open of groups) {
    const ends = [...new Set(open.eventTimesMicros.map((m) => Math.floor(m / 1000)))].sort((a, b) => a - b);
    for (const endMs of ends) out.push({ operatorId: open.operatorId, endMs, closesAtMaxEventTimeMs: endMs + minDelayMs });
  }
  return out;
}

export function formatWatermarkReport(r: WatermarkReport): string {
  const lines = [
    `Watermark: ${isoUtcMillis(r.watermarkMs)} (policy ${r.policy} over ${r.inputs.length} input${r.inputs.length === 1 ? "" : "s"})`,
  ];
  if (r.inputs.length === 0)
    lines.push("  no withWatermark in this query: nothing is ever late and state is only evicted by complete/update semantics");
  for (const i of r.inputs) {
    const own = i.watermarkMs === null ? "no rows yet (counts as 1970-01-01T00:00:00.000Z)" : isoUtcMillis(i.watermarkMs);
    lines.push(`  ${i.column}: delay ${i.delayMs} ms, own watermark ${own}${i.holdsBack ? "  <- holds the global watermark" : ""}`);
  }
  if (r.group) {
    const g = r.group;
    lines.push(
      `  group ${g.name}: one watermark over every worker's tasks (max event time over all tasks − delay); worker ${g.worker} owns task(s) ${g.tasks.join(", ") || "none"}`,
    );
    if (g.heldBy && g.heldKind === "repartition")
      lines.push(
        `  held back by repartition partition ${g.heldBy} (rows committed by stage A that its task has not read; below their oldest event time: ${isoUtcMillis(g.heldAtMs ?? 0)})`,
      );
    else if (g.heldBy)
      lines.push(
        `  held back by source partition ${g.heldBy} (unread records; its max event time − delay ${g.heldAtMs === null ? "unknown: not read yet" : isoUtcMillis(g.heldAtMs)})`,
      );
  }
  lines.push(`Open windows: ${r.openWindows.length}${r.group ? " (this worker's tasks)" : ""}`);
  for (const w of r.openWindows.slice(0, 20)) {
    lines.push(
      `  operator ${w.operatorId}: ends ${isoUtcMillis(w.endMs)}; closes once an event at or after ${isoUtcMillis(w.closesAtMaxEventTimeMs)} arrives (then one more batch)`,
    );
  }
  if (r.openWindows.length > 20) lines.push(`  ... ${r.openWindows.length - 20} more`);
  lines.push(`Dropped as late so far: ${r.droppedGroups} group(s) (Spark's numRowsDroppedByWatermark), ${r.droppedInputRows} input row(s)`);
  return `${lines.join("\n")}\n`;
}
