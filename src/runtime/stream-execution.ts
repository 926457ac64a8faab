/**
 * What a query handle (api/streaming/query.ts) drives: the micro-batch loop of one process
 * (`MicroBatchExecution`) or one worker of a group-mode query (`cluster/group-execution.ts`).
 */
import type { QueryStatus } from "./micro-batch-execution.js";
import type { WatermarkReport } from "./watermark-report.js";

export interface StreamExecution {
  status: QueryStatus;
  readonly currentWatermarkMs: number;
  /** Run triggers until the trigger says stop or requestStop() is called. */
  run(): Promise<void>;
  requestStop(): void;
  /** Resolves at the next trigger that finds nothing to do. */
  waitForIdle(): Promise<void>;
  watermarkReport(): WatermarkReport;
  /** Release what the loop holds once the query ended. */
  close(): Promise<void>;
}
