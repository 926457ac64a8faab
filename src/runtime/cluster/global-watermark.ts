/**
 * Spark's one global watermark, across workers: every task publishes the max event time its
 * stage B has seen in the progress topic (inside the worker's transaction, so only committed
 * batches count); every worker reads the whole topic and takes
 *
 *   W = max over tasks of (max event time) − delay, never moving back,
 *
 * applied from its next batch on. A worker that has not read the newest records yet computes a
 * smaller W, which only delays eviction: no worker drops a row a single process would keep
 * with the same batches.
 *
 * One hold keeps group mode from dropping what a single process would keep: a single process
 * reads every source partition in each batch, but a worker can stall (killed, paused, its
 * partitions waiting out the session timeout) while the others run on. So each source
 * partition's owner also publishes the partition's max event time and committed offset, and
 * while a partition still has unread records the watermark stays at or below that partition's
 * own max event time − delay. An idle partition (nothing unread) holds nothing, as in Spark.
 * A second hold does the same for rows stage A committed to the repartition topic that their
 * task has not read yet (repartition-hold.ts).
 *
 * The progress topic also holds the pipeline's fingerprint, so a different pipeline started
 * under the same group name is refused.
 */
import { ArusError } from "../../common/errors.js";
import type { KafkaAdmin, KafkaFetcher, OutRecord, TopicPartition } from "../../connectors/kafka/client.js";
import {
  RepartitionHold,
  type RepartitionHoldMark,
  type RepartitionWrite,
  type StagedWrites,
  WRITES_KEY_PREFIX,
} from "./repartition-hold.js";

const FINGERPRINT_KEY = "pipeline";

export interface WatermarkMark {
  readonly tasks: ReadonlyMap<number, number>;
  readonly sources: ReadonlyMap<string, { maxEventTimeMs: number | null; offset: number }>;
  readonly next: number;
  readonly repartition: RepartitionHoldMark;
}

export class GlobalWatermark {
  private readonly maxByTask = new Map<number, number>();
  /** Per source partition (tpKey): its max event time so far and the offset its owner committed. */
  private readonly sources = new Map<string, { maxEventTimeMs: number | null; offset: number }>();
  /** Earliest and latest offsets of every source partition at the last refresh. */
  private ranges = new Map<string, { earliest: number; latest: number }>();
  /** Rows committed to the repartition topic and not yet read by their task. */
  private readonly inTransit = new RepartitionHold();
  private next = 0;
  private current = 0;
  fingerprint: string | null = null;
  /** Other records of the progress topic (the foreachBatch plan log: task-batch-sink.ts). */
  otherRecords: ((key: string, value: unknown) => void) | null = null;

  constructor(
    private readonly topic: string,
    /** The watermark delay, or null when the query has no watermark. */
    private readonly delayMs: number | null,
    /** The repartition topic (explainWatermark() names its partition that holds the watermark). */
    private readonly repartitionTopic = "repartition",
  ) {}

  get hasDelay(): boolean {
    return this.delayMs !== null;
  }
  get watermarkMs(): number {
    return this.current;
  }

  /** Reads the progress records committed since the last call and moves the watermark. */
  async refresh(admin: KafkaAdmin, fetcher: KafkaFetcher, sourceTps: readonly TopicPartition[]): Promise<void> {
    if (this.delayMs !== null && sourceTps.length) this.ranges = await admin.offsetRange(sourceTps);
    const tp: TopicPartition = { topic: this.topic, partition: 0 };
    const end = (await admin.latestOffsets([tp])).get(`${tp.topic}-0`) ?? 0;
    if (end <= this.next) {
      this.advance();
      return;
    }
    // A fetch returns what fits its size limit: read on until the end.
    while (this.next < end) {
      const records = await fetcher.fetch(tp, this.next, end);
      if (!records.length) break;
      for (const r of records) this.read(r.key, r.value);
      this.next = records[records.length - 1]!.offset + 1;
    }
    this.advance();
  }

  private read(rawKey: Uint8Array | null, rawValue: Uint8Array | null): void {
    const key = rawKey ? Buffer.from(rawKey).toString("utf8") : "";
    if (rawValue === null) return;
    const value = JSON.parse(Buffer.from(rawValue).toString("utf8")) as {
      maxEventTimeMs?: number | null;
      fingerprint?: string;
      offset?: number;
      writes?: Record<string, [number, number][]>;
    };
    if (key === FINGERPRINT_KEY) this.fingerprint = value.fingerprint ?? null;
    else if (key.startsWith("task-")) {
      const task = Number(key.slice(5));
      if (typeof value.maxEventTimeMs === "number") this.observe(task, value.maxEventTimeMs);
      if (typeof value.offset === "number") this.inTransit.observeConsumed(task, value.offset);
    } else if (key.startsWith(WRITES_KEY_PREFIX)) this.inTransit.read(key.slice(WRITES_KEY_PREFIX.length), value);
    else if (key.startsWith("src-") && typeof value.offset === "number")
      this.observeSource(key.slice(4), value.maxEventTimeMs ?? null, value.offset);
    else this.otherRecords?.(key, value);
  }

  /**
   * What the watermark knows now. A worker's batch records its own tasks' and source partitions'
   * progress here before its transaction commits; a batch that aborts must `rollback` to the mark
   * taken before it, or the watermark would move past rows that will be read again (and drop them
   * as late: a cooperative rebalance aborts a batch that covers a revoked partition).
   */
  mark(): WatermarkMark {
    return { tasks: new Map(this.maxByTask), sources: new Map(this.sources), next: this.next, repartition: this.inTransit.mark() };
  }

  rollback(m: WatermarkMark): void {
    this.maxByTask.clear();
    for (const [k, v] of m.tasks) this.maxByTask.set(k, v);
    this.sources.clear();
    for (const [k, v] of m.sources) this.sources.set(k, v);
    this.inTransit.rollback(m.repartition);
    this.next = m.next; // committed records read since are read again
  }

  /** A task's own max event time, as this worker just committed it. */
  observe(task: number, maxEventTimeMs: number): void {
    const prev = this.maxByTask.get(task);
    if (prev === undefined || maxEventTimeMs > prev) this.maxByTask.set(task, maxEventTimeMs);
  }

  /** A source partition read up to `offset` (exclusive) with max event time `maxEventTimeMs` so far. */
  observeSource(key: string, maxEventTimeMs: number | null, offset: number): void {
    const prev = this.sources.get(key);
    const max =
      prev?.maxEventTimeMs == null
        ? maxEventTimeMs
        : maxEventTimeMs == null
          ? prev.maxEventTimeMs
          : Math.max(prev.maxEventTimeMs, maxEventTimeMs);
    this.sources.set(key, { maxEventTimeMs: max, offset: Math.max(offset, prev?.offset ?? 0) });
  }

  /** How far partitions with unread records let the watermark go (Infinity: none holds it). */
  private hold(): number {
    let cap = this.inTransit.cap().capMs;
    for (const [key, range] of this.ranges) {
      const src = this.sources.get(key);
      if (range.latest <= Math.max(src?.offset ?? 0, range.earliest)) continue; // nothing unread
      const max = src?.maxEventTimeMs;
      cap = Math.min(cap, max == null ? Number.NEGATIVE_INFINITY : max - this.delayMs!);
    }
    return cap;
  }

  /** explainWatermark()'s facts: the tasks' max event time − delay, and the source or repartition partition whose unread records hold it back. */
  explain(): { ownMs: number | null; heldBy: string | null; heldAtMs: number | null; heldKind: "source" | "repartition" | null } {
    const ownMs = this.delayMs === null || this.maxByTask.size === 0 ? null : Math.max(...this.maxByTask.values()) - this.delayMs;
    let heldBy: string | null = null;
    let heldAtMs: number | null = null;
    let heldKind: "source" | "repartition" | null = null;
    for (const [key, range] of this.ranges) {
      const src = this.sources.get(key);
      if (range.latest <= Math.max(src?.offset ?? 0, range.earliest)) continue;
      const cap = src?.maxEventTimeMs == null ? Number.NEGATIVE_INFINITY : src.maxEventTimeMs - this.delayMs!;
      if (ownMs !== null && cap < ownMs && (heldAtMs === null || cap < heldAtMs)) {
        heldBy = key;
        heldAtMs = cap;
        heldKind = "source";
      }
    }
    const transit = this.inTransit.cap();
    if (ownMs !== null && transit.task !== null && transit.capMs < ownMs && (heldAtMs === null || transit.capMs < heldAtMs)) {
      heldBy = `${this.repartitionTopic}-${transit.task}`;
      heldAtMs = transit.capMs;
      heldKind = "repartition";
    }
    return { ownMs, heldBy, heldAtMs: heldAtMs === Number.NEGATIVE_INFINITY ? null : heldAtMs, heldKind };
  }

  private advance(): void {
    if (this.delayMs === null || this.maxByTask.size === 0) return;
    const candidate = Math.min(Math.max(...this.maxByTask.values()) - this.delayMs, this.hold());
    if (candidate > this.current) this.current = candidate;
  }

  /** A task's progress: its max event time, and the repartition offset it consumed up to (`consumed`, exclusive). */
  progressRecord(task: number, worker: string, consumed: number | null = null): OutRecord {
    if (consumed !== null) this.inTransit.observeConsumed(task, consumed);
    const offset = this.inTransit.consumedOffset(task);
    return {
      topic: this.topic,
      partition: 0,
      key: Buffer.from(`task-${task}`),
      value: Buffer.from(JSON.stringify({ maxEventTimeMs: this.maxByTask.get(task) ?? null, worker, offset })),
      headers: [],
    };
  }

  /**
   * The record of this worker's repartition writes not yet read (this batch's included, per task:
   * its end offset and oldest event time), for the batch's transaction; `commit()` after it commits.
   */
  stageWrites(worker: string, written: ReadonlyMap<number, RepartitionWrite>): StagedWrites {
    return this.inTransit.stage(this.topic, worker, written);
  }

  sourceRecord(tp: TopicPartition, maxEventTimeMs: number | null, offset: number): OutRecord {
    const key = `${tp.topic}-${tp.partition}`;
    this.observeSource(key, maxEventTimeMs, offset);
    const s = this.sources.get(key)!;
    return {
      topic: this.topic,
      partition: 0,
      key: Buffer.from(`src-${key}`),
      value: Buffer.from(JSON.stringify({ maxEventTimeMs: s.maxEventTimeMs, offset: s.offset })),
      headers: [],
    };
  }

  /** The pipeline's fingerprint: recorded by the first worker, checked by every later one. */
  checkFingerprint(fingerprint: string, group: string): OutRecord | null {
    if (this.fingerprint === null) {
      return {
        topic: this.topic,
        partition: 0,
        key: Buffer.from(FINGERPRINT_KEY),
        value: Buffer.from(JSON.stringify({ fingerprint })),
        headers: [],
      };
    }
    if (this.fingerprint !== fingerprint) {
      throw new ArusError(
        "CLUSTER_PIPELINE_MISMATCH",
        `arus.cluster.group '${group}' already runs a different pipeline (its plan differs from this one's). Give a different pipeline its own group name, or reset the group's internal topics (arus-${group}-*) to replace the pipeline.`,
      );
    }
    return null;
  }
}
