/**
 * The `StatefulContext` a group-mode stage runs with: stage A has no state; stage B runs one
 * task (a repartition partition) whose keys all live in that task's stores, so the operators
 * see one state partition and the task's `TaskState` behind it.
 */
import type { Batch } from "../../columnar/batch.js";
import type { PhysicalOperator } from "../../execution/operator.js";
import { BatchReport } from "../../execution/stateful/batch-report.js";
import type { StatefulContext } from "../../execution/stateful/context.js";
import type { StateStore } from "../../state/store.js";
import type { TaskState } from "./task-state.js";

export interface StageSpec {
  readonly batchId: number;
  readonly outputMode: "append" | "update" | "complete";
  readonly evictionWatermarkMs: number;
  readonly lateWatermarkMs: number;
  readonly sourceData: ReadonlyMap<string, readonly Batch[]>;
  readonly physical: PhysicalOperator;
}

export class TaskContext implements StatefulContext {
  readonly batchId: number;
  readonly outputMode: "append" | "update" | "complete";
  readonly evictionWatermarkMs: number;
  readonly lateWatermarkMs: number;
  /** One state partition per task: the key's partition is the task itself. */
  readonly numPartitions = 1;
  readonly sourceData: ReadonlyMap<string, readonly Batch[]>;
  readonly report: BatchReport;
  private readonly opened: StateStore[] = [];

  constructor(
    spec: StageSpec,
    private readonly task: TaskState | null,
  ) {
    this.batchId = spec.batchId;
    this.outputMode = spec.outputMode;
    this.evictionWatermarkMs = spec.evictionWatermarkMs;
    this.lateWatermarkMs = spec.lateWatermarkMs;
    this.sourceData = spec.sourceData;
    this.report = new BatchReport(spec.batchId, spec.physical);
  }

  async store(operatorId: number, partition: number, storeName = "default"): Promise<StateStore> {
    if (!this.task) throw new Error(`stage A has no state (operator ${operatorId} asked for partition ${partition})`);
    const s = this.task.open(operatorId, storeName);
    this.opened.push(s);
    return s;
  }

  abortAll(): void {
    for (const s of this.opened) s.abort();
  }
}
