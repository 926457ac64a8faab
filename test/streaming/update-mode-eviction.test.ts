/**
 * Update mode (semantics.md §2.1, §1.5): every batch emits the groups it changed; keys at or
 * below the eviction watermark are then removed silently; late rows for removed windows are
 * dropped, never re-opened. Grouping without the event-time column never evicts, yet the
 * watermark still moving asks for (empty) no-data batches.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addData, assertOnQuery, checkAnswer, checkLastBatch, checkNewRows, testStream, win } from "../../src/testing/index.js";
import { sec, stateOp, utcSession, windowedCount } from "./helpers.js";

const session = utcSession();

describe("update mode eviction", () => {
  it("emits changed windows each batch and removes windows behind the watermark without emitting them", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(df, "update", [
      addData(ms, [{ ts: sec(1) }, { ts: sec(2) }, { ts: sec(11) }]),
      checkNewRows([
        { window: win(0, 10_000), count: 2 },
        { window: win(10_000, 20_000), count: 1 },
      ]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsTotal, 2)),
      addData(ms, [{ ts: sec(3) }, { ts: sec(25) }]),
      // batch: [:00,:10) updated to 3 and [:20,:30) opened; then the watermark moves to :15 and a
      // no-data batch removes [:00,:10) (end :10 <= :15) without emitting anything
      checkNewRows([
        { window: win(0, 10_000), count: 3 },
        { window: win(20_000, 30_000), count: 1 },
      ]),
      checkLastBatch([]),
      assertOnQuery((q) => {
        const op = stateOp(q);
        assert.deepEqual([q.lastProgress!.numInputRows, op.numRowsRemoved, op.numRowsTotal, op.numRowsUpdated], [0, 1, 2, 0]);
      }),
      addData(ms, [{ ts: sec(4) }, { ts: sec(12) }]),
      // [:00,:10) is late now (end <= :15): dropped, not re-opened with count 1
      checkNewRows([{ window: win(10_000, 20_000), count: 2 }]),
      // the watermark stays at :15 (max :12 - 10 s < :15), so this data batch was the last one
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 1)),
    ]);
  });

  it("grouping without the event-time column: no late filter, no eviction, but no-data batches still run", async () => {
    const ms = session.memoryStream("k STRING, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "5 seconds").groupBy("k").count();
    await testStream(df, "update", [
      addData(ms, [
        { k: "a", ts: sec(100) },
        { k: "b", ts: sec(1) },
      ]),
      checkAnswer([
        { k: "a", count: 1 },
        { k: "b", count: 1 },
      ]),
      // the watermark moved to :95 after the data batch: one empty no-data batch follows
      assertOnQuery((_q, ctx) =>
        assert.deepEqual(
          ctx.sinkBatches.map((b) => [b.batchId, b.rows.length]),
          [
            [0, 2],
            [1, 0],
          ],
        ),
      ),
      addData(ms, [{ k: "b", ts: sec(2) }]),
      checkLastBatch([{ k: "b", count: 2 }]),
      assertOnQuery((q) => {
        const op = stateOp(q);
        assert.deepEqual([op.numRowsDroppedByWatermark, op.numRowsRemoved, op.numRowsTotal], [0, 0, 2]);
      }),
    ]);
  });

  it("without any watermark: no no-data batches at all", async () => {
    const ms = session.memoryStream("k STRING");
    await testStream(ms.toDF().groupBy("k").count(), "update", [
      addData(ms, [{ k: "a" }]),
      addData(ms, [{ k: "a" }]),
      checkLastBatch([{ k: "a", count: 2 }]),
      assertOnQuery((_q, ctx) => ctx.sinkBatches.every((b) => b.rows.length > 0), "every batch carried data"),
    ]);
  });
});
