// GlobalWatermark (src/runtime/cluster/global-watermark.ts): what a worker's batch records before
// its transaction commits (its tasks' max event time, its source partitions' offsets) is put
// back when the batch aborts. Otherwise the next progress records would claim event time and
// offsets the group never committed: the watermark would pass rows that are read again, and
// drop them as late (a cooperative rebalance aborts a batch that covers a revoked partition).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { GlobalWatermark } from "../../src/runtime/cluster/global-watermark.js";

const progressOf = (w: GlobalWatermark, task: number) =>
  JSON.parse(Buffer.from(w.progressRecord(task, "w").value!).toString()) as { maxEventTimeMs: number | null };
const sourceOf = (w: GlobalWatermark, partition: number) =>
  JSON.parse(Buffer.from(w.sourceRecord({ topic: "in", partition }, null, 0).value!).toString()) as {
    maxEventTimeMs: number | null;
    offset: number;
  };

describe("GlobalWatermark rollback of an aborted batch", () => {
  it("puts back the tasks' max event times and the source offsets a batch recorded before it aborted", () => {
    const step = fc.record({ task: fc.nat(3), time: fc.nat(1_000_000), offset: fc.nat(10_000) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 10 }), fc.array(step, { minLength: 1, maxLength: 10 }), (committed, aborted) => {
        const w = new GlobalWatermark("progress", 2000);
        for (const s of committed) {
          w.observe(s.task, s.time);
          w.sourceRecord({ topic: "in", partition: s.task }, s.time, s.offset);
        }
        const before = [0, 1, 2, 3].map((t) => progressOf(w, t));
        const mark = w.mark();
        for (const s of aborted) {
          w.observe(s.task, s.time + 1);
          w.sourceRecord({ topic: "in", partition: s.task }, s.time + 1, s.offset + 1);
        }
        w.rollback(mark);
        assert.deepEqual(
          [0, 1, 2, 3].map((t) => progressOf(w, t)),
          before,
        );
        // Source partitions: the offset and max event time committed before the aborted batch.
        for (let p = 0; p < 4; p++) {
          const mine = committed.filter((s) => s.task === p);
          const got = sourceOf(w, p);
          assert.equal(got.offset, Math.max(0, ...mine.map((s) => s.offset)));
          assert.equal(got.maxEventTimeMs, mine.length ? Math.max(...mine.map((s) => s.time)) : null);
        }
      }),
    );
  });
});
