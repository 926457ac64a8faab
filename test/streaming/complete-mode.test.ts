/**
 * Complete mode (semantics.md §2.1, §1.5): no late filtering and no eviction even with a
 * watermark; every batch emits the whole state; complete-mode aggregations never ask for
 * no-data batches.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addData, assertOnQuery, checkAnswer, checkLastBatch, testStream, win } from "../../src/testing/index.js";
import { sec, stateOp, utcSession, windowedCount } from "./helpers.js";

const session = utcSession();

describe("complete mode", () => {
  it("keeps and re-emits every window, accepts rows far behind the watermark, and runs no no-data batches", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(df, "complete", [
      addData(ms, [{ ts: sec(5) }, { ts: sec(100) }]),
      checkAnswer([
        { window: win(0, 10_000), count: 1 },
        { window: win(100_000, 110_000), count: 1 },
      ]),
      addData(ms, [{ ts: sec(1) }]), // 89 s behind the watermark
      checkLastBatch([
        { window: win(0, 10_000), count: 2 },
        { window: win(100_000, 110_000), count: 1 },
      ]),
      assertOnQuery((q, ctx) => {
        const op = stateOp(q);
        assert.deepEqual([op.numRowsTotal, op.numRowsRemoved, op.numRowsDroppedByWatermark], [2, 0, 0]);
        // the watermark moved to :90 after batch 0, yet no no-data batch ran
        assert.deepEqual(
          ctx.sinkBatches.map((b) => b.batchId),
          [0, 1],
        );
        assert.equal(q.currentWatermarkMs, 90_000);
      }),
    ]);
  });

  it("re-emits unchanged groups in a batch whose rows touch only one group", async () => {
    const ms = session.memoryStream("k STRING");
    await testStream(ms.toDF().groupBy("k").count(), "complete", [
      addData(ms, [{ k: "a" }, { k: "b" }]),
      checkLastBatch([
        { k: "a", count: 1 },
        { k: "b", count: 1 },
      ]),
      addData(ms, [{ k: "a" }]),
      checkLastBatch([
        { k: "a", count: 2 },
        { k: "b", count: 1 },
      ]),
      assertOnQuery((q) => q.lastProgress!.sink.numOutputRows === 2 && stateOp(q).numRowsUpdated === 1),
    ]);
  });
});
