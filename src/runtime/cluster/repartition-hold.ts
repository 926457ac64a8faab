/**
 * The global watermark's hold for rows between the two stages (docs/scale-out.md, "The watermark
 * stays Spark's"). Stage A's transaction commits a row to the repartition topic and the source
 * offset it came from together, so the source partition's hold lets go of the row at once; its
 * task reads it in a later batch — much later if the task's owner was killed, paused or is
 * restoring. Meanwhile the other tasks move the watermark on, and a row older than the watermark
 * when its task reads it is dropped as late: a single process, which runs both stages in one
 * batch, would have kept it.
 *
 * So every worker publishes, per task, the repartition writes it committed that the task may not
 * have read yet — each write's end offset and the oldest event time in it — and every task
 * publishes the repartition offset its committed batches consumed up to. While a write ends
 * beyond its task's consumed offset, the watermark stays below the write's oldest event time:
 * no unread row can be late when its task reads it (a row is late when its event time is at or
 * below the watermark). The minimum, not the maximum − delay as for a source partition: the rows
 * of one write came from one stage-A batch, in which a single process would judge none of them
 * against another. A task with nothing unread holds nothing.
 *
 * Everything comes from the one partition of the compacted progress topic, in which a write's
 * record and the source offset it releases are in one transaction: a reader sees the hand-over
 * from the source hold to this one whole or not at all (the repartition topic's own end offsets
 * are not used: Kafka makes a transaction visible partition by partition).
 */
import type { OutRecord } from "../../connectors/kafka/client.js";

/** A committed write of a worker to one repartition partition: offsets below `end`, oldest event time `minEventTimeMs`. */
export interface RepartitionWrite {
  readonly end: number;
  readonly minEventTimeMs: number;
}

type WritesByTask = ReadonlyMap<number, readonly RepartitionWrite[]>;

/** Writes a worker keeps per task while its task lags: beyond, the oldest two merge (a longer hold, never a shorter one). */
export const MAX_WRITES_PER_TASK = 16;
export const WRITES_KEY_PREFIX = "rep-";

export interface RepartitionHoldMark {
  readonly consumed: ReadonlyMap<number, number>;
  readonly writes: ReadonlyMap<string, WritesByTask>;
}

/** This batch's writes, staged with the worker's transaction: `commit()` once it committed. */
export interface StagedWrites {
  readonly record: OutRecord | null;
  commit(): void;
}

export class RepartitionHold {
  /** Per task: the repartition offset its committed batches consumed up to (exclusive). */
  private readonly consumed = new Map<number, number>();
  /** Per worker, as the progress topic says: its writes per task, maybe not all consumed. */
  private readonly writes = new Map<string, WritesByTask>();
  /**
   * This worker's own writes as committed: the list it publishes next. Apart from `writes`, which
   * a failed batch rolls back; null until the first batch (then taken from the progress topic, so
   * a restarted static worker keeps its previous run's unread writes).
   */
  private own: WritesByTask | null = null;

  /** A worker's writes record, as read from the progress topic. */
  read(worker: string, value: { writes?: Record<string, [number, number][]> }): void {
    const byTask = new Map<number, RepartitionWrite[]>();
    for (const [task, list] of Object.entries(value.writes ?? {}))
      byTask.set(
        Number(task),
        list.map(([end, minEventTimeMs]) => ({ end, minEventTimeMs })),
      );
    this.writes.set(worker, byTask);
  }

  /** A task's committed batch consumed its repartition partition up to `offset` (exclusive). */
  observeConsumed(task: number, offset: number): void {
    if (offset > (this.consumed.get(task) ?? 0)) this.consumed.set(task, offset);
  }

  consumedOffset(task: number): number {
    return this.consumed.get(task) ?? 0;
  }

  mark(): RepartitionHoldMark {
    return { consumed: new Map(this.consumed), writes: new Map(this.writes) };
  }

  rollback(m: RepartitionHoldMark): void {
    this.consumed.clear();
    for (const [k, v] of m.consumed) this.consumed.set(k, v);
    this.writes.clear();
    for (const [k, v] of m.writes) this.writes.set(k, v);
  }

  /**
   * How far the unread writes let the watermark go (Infinity: none), and the task holding it
   * lowest. This worker's own committed writes count from its commit: Kafka writes a
   * transaction's markers partition by partition after the commit returns, so the progress
   * partition may not show them to the next refresh yet — which already knows what the same
   * batch observed itself (its tasks' event times, its source offsets) and would otherwise let
   * the watermark pass its rows in transit.
   */
  cap(): { capMs: number; task: number | null } {
    let capMs = Number.POSITIVE_INFINITY;
    let task: number | null = null;
    for (const byTask of this.own ? [...this.writes.values(), this.own] : this.writes.values()) {
      for (const [t, list] of byTask) {
        const consumed = this.consumedOffset(t);
        for (const w of list) {
          if (w.end > consumed && w.minEventTimeMs - 1 < capMs) {
            capMs = w.minEventTimeMs - 1;
            task = t;
          }
        }
      }
    }
    return { capMs, task };
  }

  /**
   * The record of `worker`'s writes after this batch's (`written`: per task, this batch's write):
   * its earlier writes still unread, plus these. Null when the batch wrote nothing. It goes in the
   * batch's transaction; `commit()` after that committed makes it the worker's own list.
   */
  stage(progressTopic: string, worker: string, written: ReadonlyMap<number, RepartitionWrite>): StagedWrites {
    if (written.size === 0) return { record: null, commit: () => {} };
    const next = new Map<number, RepartitionWrite[]>();
    for (const [task, list] of this.own ?? this.writes.get(worker) ?? new Map<number, readonly RepartitionWrite[]>()) {
      const unread = list.filter((w) => w.end > this.consumedOffset(task));
      if (unread.length) next.set(task, unread);
    }
    for (const [task, w] of written) {
      const list = next.get(task) ?? [];
      list.push(w);
      while (list.length > MAX_WRITES_PER_TASK) {
        const [a, b] = list.splice(0, 2) as [RepartitionWrite, RepartitionWrite];
        list.unshift({ end: b.end, minEventTimeMs: Math.min(a.minEventTimeMs, b.minEventTimeMs) });
      }
      next.set(task, list);
    }
    const json: Record<string, [number, number][]> = {};
    for (const [task, list] of [...next].sort((a, b) => a[0] - b[0])) json[String(task)] = list.map((w) => [w.end, w.minEventTimeMs]);
    return {
      record: {
        topic: progressTopic,
        partition: 0,
        key: Buffer.from(`${WRITES_KEY_PREFIX}${worker}`),
        value: Buffer.from(JSON.stringify({ writes: json })),
        headers: [],
      },
      commit: () => {
        this.own = next;
      },
    };
  }
}
