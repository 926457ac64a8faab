// The global watermark's hold for rows in transit between the stages (src/runtime/cluster/
// repartition-hold.ts): while a worker's committed repartition write ends beyond the offset its
// task has consumed, the watermark stays below the write's oldest event time. Workers here share
// an in-memory progress log (the compacted topic's one partition), each with its own view.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { KafkaAdmin, KafkaFetcher, OutRecord } from "../../src/connectors/kafka/client.js";
import { GlobalWatermark } from "../../src/runtime/cluster/global-watermark.js";
import { MAX_WRITES_PER_TASK } from "../../src/runtime/cluster/repartition-hold.js";

const DELAY = 2000;

/** The progress topic's partition: records appended by committed transactions, read by refresh(). */
class ProgressLog {
  readonly records: OutRecord[] = [];
  /** The last records not yet readable: their transaction committed, its marker not yet in this partition. */
  unmarked = 0;
  readonly admin = {
    latestOffsets: async () => new Map([["progress-0", this.records.length - this.unmarked]]),
    offsetRange: async () => new Map(),
  } as unknown as KafkaAdmin;
  readonly fetcher = {
    fetch: async (_tp: unknown, from: number, until: number) =>
      this.records.slice(from, until).map((r, i) => ({ ...r, offset: from + i, timestamp: 0, timestampType: 0 })),
  } as unknown as KafkaFetcher;

  async refresh(w: GlobalWatermark): Promise<number> {
    await w.refresh(this.admin, this.fetcher, []);
    return w.watermarkMs;
  }
}

/** One committed batch of `worker` that wrote `write` to `task`'s partition, ending at offset `end`. */
function commitWrite(log: ProgressLog, w: GlobalWatermark, worker: string, task: number, end: number, minEventTimeMs: number): void {
  const staged = w.stageWrites(worker, new Map([[task, { end, minEventTimeMs }]]));
  log.records.push(staged.record!);
  staged.commit();
}

/** One committed batch of a task: its max event time so far, and consumed up to `offset`. */
function commitTask(log: ProgressLog, w: GlobalWatermark, worker: string, task: number, maxEventTimeMs: number, offset: number): void {
  w.observe(task, maxEventTimeMs);
  log.records.push(w.progressRecord(task, worker, offset));
}

const writesOf = (r: OutRecord) => (JSON.parse(Buffer.from(r.value!).toString()) as { writes: Record<string, [number, number][]> }).writes;

describe("the watermark's hold for rows in the repartition topic", () => {
  it("holds below the oldest unread row while its task lags, and lets go once the task consumed it", async () => {
    const log = new ProgressLog();
    const a = new GlobalWatermark("progress", DELAY);
    const b = new GlobalWatermark("progress", DELAY);
    // Both tasks ran up to offset 5 with event time 10 s.
    commitTask(log, a, "a", 0, 10_000, 5);
    commitTask(log, b, "b", 1, 10_000, 5);
    assert.equal(await log.refresh(a), 8000);
    // a's stage A writes rows of 20..21 s to task 1 (offsets 5..9), and of 22 s to task 0.
    commitWrite(log, a, "a", 1, 10, 20_000);
    commitWrite(log, a, "a", 0, 12, 22_000);
    // Task 1's owner stalls; task 0 reads on and sees 60 s: without the hold W would be 58 s.
    commitTask(log, a, "a", 0, 60_000, 12);
    assert.equal(await log.refresh(a), 19_999);
    assert.deepEqual(a.explain(), { ownMs: 58_000, heldBy: "repartition-1", heldAtMs: 19_999, heldKind: "repartition" });
    // Another worker's view is the same: it comes from the progress topic alone.
    assert.equal(await log.refresh(b), 19_999);
    // A later write of task 1's rows, still unread, does not hold lower than the oldest one.
    commitWrite(log, a, "a", 1, 15, 30_000);
    assert.equal(await log.refresh(a), 19_999);
    // Task 1 reads the first write: the second one holds now.
    commitTask(log, b, "b", 1, 21_000, 10);
    assert.equal(await log.refresh(a), 29_999);
    // Task 1 reads everything: nothing unread, nothing held (an idle task holds nothing).
    commitTask(log, b, "b", 1, 31_000, 16);
    assert.equal(await log.refresh(a), 58_000);
    assert.equal(await log.refresh(b), 58_000);
    assert.deepEqual(b.explain(), { ownMs: 58_000, heldBy: null, heldAtMs: null, heldKind: null });
  });

  it("never moves back: a write older than the watermark already reached holds it where it is", async () => {
    const log = new ProgressLog();
    const a = new GlobalWatermark("progress", DELAY);
    commitTask(log, a, "a", 0, 60_000, 1);
    assert.equal(await log.refresh(a), 58_000);
    commitWrite(log, a, "a", 1, 3, 1000);
    assert.equal(await log.refresh(a), 58_000);
    commitTask(log, a, "a", 0, 90_000, 2);
    assert.equal(await log.refresh(a), 58_000, "held by task 1's unread rows");
    commitTask(log, a, "a", 1, 1000, 3);
    assert.equal(await log.refresh(a), 88_000);
  });

  it("survives restarts: a fresh view reads the same hold, and a restarted worker republishes its unread writes", async () => {
    const log = new ProgressLog();
    const a = new GlobalWatermark("progress", DELAY);
    commitTask(log, a, "a", 0, 60_000, 1);
    commitWrite(log, a, "a", 1, 10, 20_000);
    commitWrite(log, a, "a", 2, 4, 25_000);
    assert.equal(await log.refresh(a), 19_999);
    // Worker a restarts (same static id): it reads the topic first, then writes again.
    const again = new GlobalWatermark("progress", DELAY);
    assert.equal(await log.refresh(again), 19_999);
    const staged = again.stageWrites("a", new Map([[2, { end: 8, minEventTimeMs: 40_000 }]]));
    assert.deepEqual(writesOf(staged.record!), {
      "1": [[10, 20_000]],
      "2": [
        [4, 25_000],
        [8, 40_000],
      ],
    });
  });

  it("an aborted batch's writes and consumed offsets are forgotten", async () => {
    const log = new ProgressLog();
    const a = new GlobalWatermark("progress", DELAY);
    commitTask(log, a, "a", 0, 60_000, 1);
    commitWrite(log, a, "a", 1, 10, 20_000);
    await log.refresh(a);
    const mark = a.mark();
    // The batch stages a write and task 1's consumption, then aborts (nothing reaches the log).
    a.stageWrites("a", new Map([[1, { end: 20, minEventTimeMs: 30_000 }]]));
    a.progressRecord(1, "a", 10);
    a.rollback(mark);
    assert.equal(await log.refresh(a), 19_999, "task 1 still holds: its consumption was not committed");
    const next = a.stageWrites("a", new Map([[1, { end: 30, minEventTimeMs: 35_000 }]]));
    assert.deepEqual(writesOf(next.record!), {
      "1": [
        [10, 20_000],
        [30, 35_000],
      ],
    });
  });

  it("holds for the worker's own writes from its commit, before the progress partition shows them", async () => {
    // Kafka writes a committed transaction's markers partition by partition, after the commit
    // returns: the worker's next refresh may not read its own batch's records yet. What the
    // batch observed itself (its tasks' max event time, its source offsets) it knows at once;
    // so must it know its own repartition writes, or the watermark passes its rows in transit.
    const log = new ProgressLog();
    const b = new GlobalWatermark("progress", DELAY);
    commitTask(log, b, "b", 2, 25_000, 5);
    assert.equal(await log.refresh(b), 23_000);
    // b's batch: its stage A writes rows of 27 s to task 2 (offsets 5..9, unread), and its task 3
    // reads a row of 3 600 s; the transaction commits, its progress records not yet readable.
    const before = log.records.length;
    commitWrite(log, b, "b", 2, 10, 27_000);
    commitTask(log, b, "b", 3, 3_600_000, 7);
    log.unmarked = log.records.length - before;
    assert.equal(await log.refresh(b), 26_999);
    // The markers land: the same hold, now read from the topic too.
    log.unmarked = 0;
    assert.equal(await log.refresh(b), 26_999);
    // Task 2 reads the rows: nothing held.
    commitTask(log, b, "b", 2, 27_000, 10);
    assert.equal(await log.refresh(b), 3_598_000);
  });

  it("keeps at most MAX_WRITES_PER_TASK writes per task, merging the oldest (holding longer, never shorter)", async () => {
    const log = new ProgressLog();
    const a = new GlobalWatermark("progress", DELAY);
    commitTask(log, a, "a", 0, 1_000_000, 1);
    for (let i = 1; i <= 40; i++) commitWrite(log, a, "a", 1, i * 10, 100_000 + i * 1000);
    const list = writesOf(log.records.at(-1)!)["1"]!;
    assert.equal(list.length, MAX_WRITES_PER_TASK);
    assert.deepEqual(list.at(-1), [400, 140_000]);
    assert.equal(await log.refresh(a), 100_999);
    // Consumed past the first write's end (10), but the merged entry still covers later offsets.
    commitTask(log, a, "a", 1, 101_000, 11);
    assert.ok((await log.refresh(a)) <= 101_999);
    commitTask(log, a, "a", 1, 140_000, 401);
    assert.equal(await log.refresh(a), 998_000);
  });

  it("property: no row is late when its task reads it unless it was late when written; the watermark never moves back; nothing held once all is read", async () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("write" as const),
        worker: fc.nat(1),
        task: fc.nat(2),
        ahead: fc.array(fc.nat(30_000), { minLength: 1, maxLength: 5 }),
        abort: fc.boolean(),
      }),
      fc.record({ kind: fc.constant("read" as const), worker: fc.nat(1), task: fc.nat(2), abort: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
        const log = new ProgressLog();
        const names = ["a", "b"];
        const views = names.map(() => new GlobalWatermark("progress", DELAY));
        const ends = [0, 0, 0];
        const consumed = [0, 0, 0];
        const maxSeen = [0, 0, 0];
        const rows: { offset: number; e: number; lateWhenWritten: boolean }[][] = [[], [], []];
        const last = views.map(() => 0);
        const highest = () => Math.max(...views.map((v) => v.watermarkMs));
        const readTask = async (worker: number, task: number, abort: boolean) => {
          const v = views[worker]!;
          const W = await log.refresh(v);
          const unread = rows[task]!.filter((r) => r.offset >= consumed[task]!);
          for (const r of unread) assert.ok(r.lateWhenWritten || r.e > W, `row at ${r.e} of task ${task} read with the watermark at ${W}`);
          const mark = v.mark();
          const max = Math.max(maxSeen[task]!, ...unread.map((r) => r.e));
          v.observe(task, max);
          const rec = v.progressRecord(task, names[worker]!, ends[task]!);
          if (abort) return v.rollback(mark);
          log.records.push(rec);
          maxSeen[task] = max;
          consumed[task] = ends[task]!;
        };
        for (const s of steps) {
          if (s.kind === "read") await readTask(s.worker, s.task, s.abort);
          else {
            const v = views[s.worker]!;
            await log.refresh(v);
            const base = highest();
            const times = s.ahead.map((d) => base + d - 5000);
            const mark = v.mark();
            const end = ends[s.task]! + times.length;
            const staged = v.stageWrites(names[s.worker]!, new Map([[s.task, { end, minEventTimeMs: Math.min(...times) }]]));
            ends[s.task] = end + 1; // the transaction's marker
            if (s.abort) {
              v.rollback(mark);
              continue;
            }
            for (const [i, e] of times.entries()) rows[s.task]!.push({ offset: end - times.length + i, e, lateWhenWritten: e <= base });
            log.records.push(staged.record!);
            staged.commit();
          }
          for (const [i, v] of views.entries()) {
            const W = await log.refresh(v);
            assert.ok(W >= last[i]!, "the watermark moved back");
            last[i] = W;
          }
        }
        for (let t = 0; t < 3; t++) await readTask(0, t, false);
        const W = await log.refresh(views[1]!);
        const everMax = Math.max(...maxSeen);
        if (maxSeen.some((m) => m > 0)) assert.equal(W, Math.max(last[1]!, everMax - DELAY), "something still holds");
      }),
      { numRuns: 200 },
    );
  });
});
