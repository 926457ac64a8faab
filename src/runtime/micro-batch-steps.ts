/**
 * The steps of one micro-batch, in the order the loop (micro-batch-execution.ts) runs them:
 *   latestOffsets → planBatch → logOffsets → readSources → executeBatch → deliverLateRows
 *   → deliverToSink → commitBatch.
 * Each takes what it needs and returns what it produced; none calls back into the loop, which
 * times each step from outside (the progress entry's durationMs keys).
 */
import type { Batch } from "../columnar/batch.js";
import { crashPoint } from "../common/crash-points.js";
import { type Offset, type PreparedFile, type ReadLimit, sameOffset } from "../connectors/source.js";
import type { ExecContext } from "../execution/operator.js";
import type { BatchReport } from "../execution/stateful/batch-report.js";
import { propagateWatermarks } from "../execution/stateful/watermark-propagation.js";
import { MicroBatchState } from "./batch-state.js";
import type { MicroBatchConfig, QueryEvents, QueryStatus } from "./micro-batch-execution.js";

/** What batch N reads (offsets `starts` → `ends`) and the watermarks and timestamp it runs with. */
export interface PlannedBatch {
  batchId: number;
  starts: (Offset | null)[];
  ends: (Offset | null)[];
  watermarkMs: number;
  lateWatermarkMs: number;
  timestampMs: number;
}

/** Where the query stands between batches: the offsets committed so far and the next batch's id. */
export interface BatchPosition {
  readonly committed: (Offset | null)[];
  readonly nextBatchId: number;
  /** W(N-1): the previous batch's watermark, the late-row filter of the next batch. */
  readonly prevWatermarkMs: number;
}

/** The rows each source contributes to a batch, and how many rows that is per source. */
export interface SourceRows {
  readonly data: ReadonlyMap<string, readonly Batch[]>;
  /** What the file task made of the files of the sources read that way (`MicroBatchConfig.preparedSources`). */
  readonly prepared: ReadonlyMap<string, readonly PreparedFile[]>;
  readonly rows: readonly number[];
}

export interface ExecutedBatch {
  readonly output: Batch[];
  readonly report: BatchReport;
  /** The batch's state context (its opened stores: `abortAll()` if a later step fails). */
  readonly state: MicroBatchState;
}

/** plan, first half: every source's end offset for the next batch (null: the source has none yet). */
export async function latestOffsets(
  cfg: MicroBatchConfig,
  committed: readonly (Offset | null)[],
  limits: readonly ReadLimit[],
  query: { status: QueryStatus },
  /** Someone waits for this trigger to find everything available now (StreamSource.latestOffset). */
  exact = false,
): Promise<(Offset | null)[]> {
  const { sources } = cfg;
  const names = sources.map((s) => s.description).join(", ");
  query.status = { message: `Getting offsets from ${names}`, isDataAvailable: false, isTriggerActive: true };
  // The sources are independent: their round trips and durable log writes (a file source's
  // sources/<i>/N) overlap. Every one has ended before an error goes on, in source order, so
  // no write is still under way once the query fails.
  const settled = await Promise.allSettled(sources.map((s, i) => s.latestOffset(committed[i]!, limits[i]!, exact)));
  for (const r of settled) if (r.status === "rejected") throw r.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<Offset | null>).value);
}

/** True when some source has data past what is committed. */
export function hasNewData(ends: readonly (Offset | null)[], starts: readonly (Offset | null)[]): boolean {
  return ends.some((e, i) => e !== null && !sameOffset(e, starts[i]!));
}

/** plan, second half: the batch the end offsets and watermark `W` make (the caller decided one runs). */
export function planBatch(cfg: MicroBatchConfig, position: BatchPosition, ends: readonly (Offset | null)[], W: number): PlannedBatch {
  return {
    batchId: position.nextBatchId,
    starts: position.committed,
    ends: ends.map((e, i) => e ?? position.committed[i]!),
    watermarkMs: W,
    // allowMultiple=false (Spark's UseSingleWatermarkPropagator): late rows use W(N) too.
    lateWatermarkMs: cfg.conf.getBool("spark.sql.streaming.statefulOperator.allowMultiple") ? position.prevWatermarkMs : W,
    timestampMs: cfg.clock.now(),
  };
}

/**
 * log: write `offsets/N`, what batch N reads, with its watermark, timestamp and the sticky conf.
 * Returns once the write is under way; `durable` resolves when `offsets/N` is on disk under its
 * name (CheckpointStore.writeOffsets), which deliverToSink's caller awaits before any output.
 */
export async function logOffsets(cfg: MicroBatchConfig, b: PlannedBatch): Promise<{ named: Promise<void>; durable: Promise<void> }> {
  crashPoint("beforeOffsetLog", b.batchId);
  return cfg.checkpoint.writeOffsets(
    b.batchId,
    {
      metadata: { batchWatermarkMs: b.watermarkMs, batchTimestampMs: b.timestampMs, conf: cfg.checkpoint.stickyConf },
      offsets: b.ends,
    },
    () => crashPoint("afterOffsetLog", b.batchId),
  );
}

/** read: each source's rows between the batch's start and end offsets. */
export async function readSources(cfg: MicroBatchConfig, b: PlannedBatch): Promise<SourceRows> {
  const data = new Map<string, Batch[]>();
  const prepared = new Map<string, PreparedFile[]>();
  const rows: number[] = [];
  for (let i = 0; i < cfg.sources.length; i++) {
    const none = sameOffset(b.ends[i]!, b.starts[i]!) || b.ends[i] === null;
    const source = cfg.sources[i]!;
    const id = cfg.sourceIds[i]!;
    if (cfg.preparedSources?.has(id) && source.getPrepared) {
      const files = none ? [] : await source.getPrepared(b.starts[i]!, b.ends[i]!);
      data.set(id, []);
      prepared.set(id, files);
      rows.push(files.reduce((n, f) => n + f.inputRows, 0));
      continue;
    }
    const got = none ? [] : await source.getBatch(b.starts[i]!, b.ends[i]!);
    data.set(id, got);
    rows.push(got.reduce((n, x) => n + x.numRows, 0));
  }
  return { data, prepared, rows };
}

/**
 * execute: run the incremental plan over the batch's rows, state versions N → N+1. On failure
 * the stores it opened are aborted before the error goes on.
 */
export async function executeBatch(cfg: MicroBatchConfig, b: PlannedBatch, input: SourceRows): Promise<ExecutedBatch> {
  cfg.checkpoint.stateHeads?.dropBatchWrites(); // a failed earlier attempt's writes are superseded by this one's
  const ow = operatorWatermarks(cfg, b);
  const state = new MicroBatchState(
    {
      batchId: b.batchId,
      outputMode: cfg.outputMode,
      evictionWatermarkMs: b.watermarkMs,
      lateWatermarkMs: b.lateWatermarkMs,
      ...(ow ? { operatorWatermarks: ow } : {}),
      numPartitions: cfg.checkpoint.numShufflePartitions,
      sourceData: input.data,
      sourcePrepared: input.prepared,
      physical: cfg.plan.physical,
    },
    cfg.states,
  );
  const ctx: ExecContext = {
    eval: {
      timeZone: cfg.conf.timeZone,
      batchTimestampMs: b.timestampMs,
      watermarkMs: b.watermarkMs,
      ansi: cfg.conf.getBool("spark.sql.ansi.enabled"),
    },
    state,
  };
  try {
    const output = await cfg.plan.physical.execute(ctx);
    return { output, report: state.report, state };
  } catch (e) {
    state.abortAll();
    throw e;
  }
}

/**
 * Each stateful operator's eviction and late-row watermarks (Spark's PropagateWatermarkSimulator,
 * allowMultiple=true); with allowMultiple=false every operator gets the global ones.
 */
function operatorWatermarks(cfg: MicroBatchConfig, b: PlannedBatch): Map<number, { evictionMs: number; lateMs: number }> | undefined {
  if (!cfg.conf.getBool("spark.sql.streaming.statefulOperator.allowMultiple")) return undefined;
  const evict = propagateWatermarks(cfg.plan.physical, b.watermarkMs);
  const late = propagateWatermarks(cfg.plan.physical, b.lateWatermarkMs);
  return new Map([...evict].map(([id, ms]) => [id, { evictionMs: ms, lateMs: late.get(id) ?? b.lateWatermarkMs }]));
}

/** The late rows the report holds, to the query's late-row sink (in the order they were found). */
export async function deliverLateRows(events: Pick<QueryEvents, "onLateRows">, report: BatchReport): Promise<void> {
  for (const late of report.lateRows) await events.onLateRows(late, report.batchId);
}

/** deliver: hand the batch's output to the sink under batch id N. */
export async function deliverToSink(cfg: MicroBatchConfig, b: PlannedBatch, output: Batch[]): Promise<void> {
  crashPoint("beforeSink", b.batchId);
  await cfg.sink.addBatch(b.batchId, {
    names: cfg.outputNames,
    schema: cfg.outputSchema,
    batches: output,
    outputMode: cfg.outputMode,
    timeZone: cfg.conf.timeZone,
  });
  crashPoint("afterSink", b.batchId);
}

/**
 * commit: write `commits/N` with the next batch's watermark (and the state files batch N wrote),
 * schedule the logs' retention, and, once `commits/N` is in place, let the sources release what
 * batch N read. In the default fsync mode this returns before the files are synced and renamed
 * (CheckpointStore.commit): the loop's next offsets, an idle trigger and the loop's end wait for them.
 */
export async function commitBatch(cfg: MicroBatchConfig, b: PlannedBatch, nextWatermarkMs: number): Promise<void> {
  const heads = cfg.checkpoint.stateHeads;
  // The state deltas were synced beside the sink; commits/N vouches for them, so they come first.
  await cfg.states.flushWrites();
  crashPoint("beforeCommitLog", b.batchId);
  await cfg.checkpoint.commit(b.batchId, heads?.takeBatchWrites(b.batchId), { nextBatchWatermarkMs: nextWatermarkMs }, async () => {
    crashPoint("afterCommitLog", b.batchId);
    for (let i = 0; i < cfg.sources.length; i++) if (b.ends[i] !== null) await cfg.sources[i]!.commit(b.ends[i]!);
  });
  // Retention after the commit rather than before the batch (Spark): the deletes are off the
  // path from the offset log to the sink, and offsets/N-1 stays until batch N committed. The
  // loop runs it during the next trigger's latestOffset (or when the loop ends).
  cfg.checkpoint.deferPurge(b.batchId);
}
