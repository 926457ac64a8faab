/**
 * Stands in for the top operator of a scan's stateless stage (scan-stage.ts) once its source
 * reads each file through the decode threads: returns the rows the threads prepared for this
 * batch (`sourcePrepared`) and records what the scan and the watermark would have recorded —
 * the scan's rows after its pushed filter (progress numInputRows) and the watermark's
 * event-time statistics, max and lateness profile in the same order
 * (`WatermarkExec.recordEventTimes`). Filters and projections record nothing else.
 *
 * The operator it stands in for stays in the plan (explain() and its parent are unchanged);
 * only its `execute` is redirected here (`standIn`).
 */
import type { Batch } from "../../columnar/batch.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { markOwner } from "../parallel/join-routing.js";
import type { ScanStagePlan } from "./scan-stage.js";
import { recordedParts } from "./stage-a-run.js";

/** The rows of this batch's files, prepared on the decode threads, with the scan's and the watermark's records. */
export async function preparedRows(plan: ScanStagePlan, ctx: ExecContext): Promise<Batch[]> {
  const st = ctx.state;
  if (!st) throw new Error(`scan tasks: ${plan.spec.sourceId} read outside a streaming batch`);
  const files = st.sourcePrepared?.get(plan.spec.sourceId) ?? [];
  const parts = recordedParts(files, plan.spec.sourceId, plan.watermark, st.report);
  const owners = plan.spec.joinRouting?.owners;
  if (owners !== undefined)
    for (const p of parts) {
      const rows = p.rows ?? [];
      p.rowOwners?.forEach((w, i) => {
        markOwner(rows[i]!, w, owners, p.rowHashes![i]!);
      });
    }
  return parts.flatMap((p) => p.rows ?? []);
}

/** Operators whose `execute` reads prepared rows (tests check the stage took effect). */
export const scanStageCounters = { standIns: 0 };

/** Redirects `plan.top`'s `execute` to the prepared rows (the object stays in the plan for its parent and explain()). */
export function standIn(plan: ScanStagePlan): void {
  const top: PhysicalOperator = plan.top;
  top.execute = (ctx: ExecContext) => preparedRows(plan, ctx);
  scanStageCounters.standIns++;
}
