/**
 * The stateless stage of a streaming JSON file scan (Spark's task: scan → filter / project
 * before any exchange), run on the decode threads for any consumer (`arus.exec.scanTasks`,
 * docs/parallel-execution.md): the scan's pushed filter and the run of filters and projections
 * right above the scan, with the watermark's event-time statistics where the run passes one.
 * It is stage A (stage-a.ts) without an aggregation: the same spec crosses to the threads and
 * `runStageA(..., aggregate=false)` runs it there, shipping the rows back.
 *
 * `scanStagesOf` finds each such run in a planned query; the run's top operator then reads the
 * rows the file task prepared (scan-stage-exec.ts) instead of executing the run.
 */
import { forEachOperator, type PhysicalOperator } from "../operator.js";
import { FilterExec, ProjectExec } from "../operators/basic.js";
import { WatermarkExec } from "../stateful/watermark.js";
import { rebuildableOnThread } from "../thread-portable.js";
import { type ScanLike, type StageASpec, type StageAStep, scansPerSource, stageSpec } from "./stage-a.js";

/** One scan's stateless stage: the spec for the threads, the operator it stands in for, and its watermark. */
export interface ScanStagePlan {
  readonly spec: StageASpec;
  /** The run's top operator (the scan itself when nothing above it qualifies). */
  readonly top: PhysicalOperator;
  readonly watermark: WatermarkExec | null;
}

const inRun = (op: PhysicalOperator) => op instanceof FilterExec || op instanceof ProjectExec || op instanceof WatermarkExec;

/** The stage of the run whose top is `top` (a Filter, Project, Watermark or the scan), or null. */
function stageOf(top: PhysicalOperator, conf: { timeZone: string; ansi: boolean }): ScanStagePlan | null {
  const run: PhysicalOperator[] = [];
  let op = top;
  while (inRun(op)) {
    run.push(op);
    op = op.children[0]!;
  }
  const scan = op as unknown as ScanLike;
  if (scan.name !== "StreamingScan" || scan.format !== "json") return null;
  if (scan.pushed && !rebuildableOnThread(scan.pushed)) return null;
  // bottom-up, as far as every operator qualifies: the rest stays on the main thread
  const steps: StageAStep[] = [];
  let watermark: WatermarkExec | null = null;
  let stageTop: PhysicalOperator = op;
  for (let i = run.length - 1; i >= 0; i--) {
    const o = run[i]!;
    if (o instanceof FilterExec) {
      if (!rebuildableOnThread(o.condition)) break;
      steps.push({ kind: "filter", condition: o.condition });
    } else if (o instanceof ProjectExec) {
      if (!o.exprs.every(rebuildableOnThread)) break;
      steps.push({ kind: "project", exprs: o.exprs, output: o.output });
    } else if (o instanceof WatermarkExec) {
      if (watermark) break;
      watermark = o;
      steps.push({ kind: "watermark", nodeId: o.nodeId, eventTime: o.eventTime, delayMs: o.delayMs });
    }
    stageTop = o;
  }
  const spec = stageSpec(scan, steps, conf);
  return spec ? { spec, top: stageTop, watermark } : null;
}

/**
 * The stateless stage of every streaming JSON scan of `physical` that feeds nothing else and is
 * not in `taken` (read by a partial aggregation already).
 */
export function scanStagesOf(
  physical: PhysicalOperator,
  conf: { timeZone: string; ansi: boolean },
  taken: ReadonlySet<string>,
): ScanStagePlan[] {
  const scans = scansPerSource(physical);
  const out: ScanStagePlan[] = [];
  forEachOperator(physical, (op, parent) => {
    // the top of a run: a run operator or the scan under something else
    if (!(inRun(op) || op.name === "StreamingScan") || (parent && inRun(parent))) return;
    const found = stageOf(op, conf);
    if (!found || scans.get(found.spec.sourceId) !== 1 || taken.has(found.spec.sourceId)) return;
    out.push(found);
  });
  return out;
}
