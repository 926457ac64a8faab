/**
 * explainWatermark() of a group-mode worker: the group's one watermark (global-watermark.ts), the
 * tasks' max event time − delay behind it, the source or repartition partition that holds it back if any, and
 * the windows this worker's tasks keep open (from each task's last committed batch).
 */
import type { BatchReport } from "../../execution/stateful/batch-report.js";
import { openWindows, type WatermarkReport } from "../watermark-report.js";
import type { GlobalWatermark } from "./global-watermark.js";

export interface GroupWatermarkFacts {
  readonly group: string;
  readonly worker: string;
  readonly watermark: GlobalWatermark;
  /** The watermark node of stage B (null: the query has none). */
  readonly node: { readonly column: string; readonly delayMs: number } | null;
  /** The last committed batch's report of each task this worker owns. */
  readonly reports: ReadonlyMap<number, BatchReport>;
  readonly tasks: readonly number[];
  readonly dropped: { readonly groups: number; readonly inputRows: number };
}

export function groupWatermarkReport(f: GroupWatermarkFacts): WatermarkReport {
  const { ownMs, heldBy, heldAtMs, heldKind } = f.watermark.explain();
  const groups = [...f.reports.values()].flatMap((r) => r.openGroups());
  return {
    watermarkMs: f.watermark.watermarkMs,
    policy: "min",
    inputs: f.node ? [{ column: f.node.column, delayMs: f.node.delayMs, watermarkMs: ownMs, holdsBack: false }] : [],
    openWindows: openWindows(groups, f.node?.delayMs ?? 0),
    droppedGroups: f.dropped.groups,
    droppedInputRows: f.dropped.inputRows,
    group: {
      name: f.group,
      worker: f.worker,
      tasks: [...f.tasks].sort((a, b) => a - b),
      heldBy,
      heldAtMs,
      ...(heldKind ? { heldKind } : {}),
    },
  };
}
