/**
 * Spark's one global watermark, across workers: every task publishes the max event time its
 * stage B has seen in the progress topic (inside the worker's transaction, so only committed
 * batches count); every worker reads the whole topic and takes
 *
 *   W = max over tasks of (max event time) − delay, never moving back,
 *
 * applied from its next batch on. A worker that has not read the newest records yet computes a
 * smaller W, which only delays eviction: no worker drops a row a single process would keep
 * with the same batches. The progress topic also holds the pipeline's fingerprint, so a
 * different pipeline started under the same group name is refused.
 */
import { ArusError } from "../../common/errors.js";
import type { KafkaAdmin, KafkaFetcher, OutRecord, TopicPartition } from "../../connectors/kafka/client.js";

const FINGERPRINT_KEY = "pipeline";

export class GlobalWatermark {
  private readonly maxByTask = new Map<number, number>();
  private next = 0;
  private current = 0;
  fingerprint: string | null = null;

  constructor(
    private readonly topic: string,
    /** The watermark delay, or null when the query has no watermark. */
    private readonly delayMs: number | null,
  ) {}

  get hasDelay(): boolean {
    return this.delayMs !== null;
  }
  get watermarkMs(): number {
    return this.current;
  }

  /** Reads the progress records committed since the last call and moves the watermark. */
  async refresh(admin: KafkaAdmin, fetcher: KafkaFetcher): Promise<void> {
    const tp: TopicPartition = { topic: this.topic, partition: 0 };
    const end = (await admin.latestOffsets([tp])).get(`${tp.topic}-0`) ?? 0;
    if (end <= this.next) return;
    for (const r of await fetcher.fetch(tp, this.next, end)) {
      const key = r.key ? Buffer.from(r.key).toString("utf8") : "";
      if (r.value === null) continue;
      const value = JSON.parse(Buffer.from(r.value).toString("utf8")) as { maxEventTimeMs?: number; fingerprint?: string };
      if (key === FINGERPRINT_KEY) this.fingerprint = value.fingerprint ?? null;
      else if (key.startsWith("task-") && typeof value.maxEventTimeMs === "number")
        this.observe(Number(key.slice(5)), value.maxEventTimeMs);
    }
    this.next = end;
    this.advance();
  }

  /** A task's own max event time, as this worker just committed it. */
  observe(task: number, maxEventTimeMs: number): void {
    const prev = this.maxByTask.get(task);
    if (prev === undefined || maxEventTimeMs > prev) this.maxByTask.set(task, maxEventTimeMs);
  }

  taskMax(task: number): number | undefined {
    return this.maxByTask.get(task);
  }

  private advance(): void {
    if (this.delayMs === null || this.maxByTask.size === 0) return;
    const candidate = Math.max(...this.maxByTask.values()) - this.delayMs;
    if (candidate > this.current) this.current = candidate;
  }

  /** Call after observe() of a committed batch: the watermark of the next batch. */
  settle(): void {
    this.advance();
  }

  progressRecord(task: number, worker: string): OutRecord {
    return {
      topic: this.topic,
      partition: 0,
      key: Buffer.from(`task-${task}`),
      value: Buffer.from(JSON.stringify({ maxEventTimeMs: this.maxByTask.get(task) ?? null, worker })),
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
