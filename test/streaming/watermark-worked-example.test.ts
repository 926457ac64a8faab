/**
 * semantics.md §1.6, batch by batch: append, window(ts, "10 seconds"), delay 10 s. Each
 * manual-clock tick is one trigger, so every batch (the no-data ones included) is observed:
 * the watermark it used for eviction (W(N), progress eventTime.watermark and offsets/N), the
 * late-filter watermark (W(N-1), offsets/N-1), what it emitted and the watermark after it
 * (commits/N).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import {
  addData,
  advanceClock,
  assertOnQuery,
  checkAnswer,
  checkLastBatch,
  type ExpectedRow,
  type StreamAction,
  testStream,
  win,
} from "../../src/testing/index.js";
import { commitWatermark, iso, offsetsMeta, sec, utcSession } from "./helpers.js";

const session = utcSession();

/** The §1.6 query over a fresh memory stream: counts per 10-second window, watermark delay 10 s. */
function workedExample() {
  const ms = session.memoryStream("id INT, ts TIMESTAMP");
  const counts = ms.toDF().withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count();
  return { ms, counts };
}

/** §1.6's first input batch (every test starts with it). */
const FIRST_ROWS = [
  { id: 1, ts: sec(5) },
  { id: 2, ts: sec(12) },
];

/** Actions asserting what batch `n` did (run right after the tick that ran it). */
function batch(
  n: number,
  e: { evictWm: number; lateWm: number; emitted: ExpectedRow[]; wmAfter: number; inputRows: number },
): StreamAction[] {
  return [
    assertOnQuery((q, ctx) => {
      const p = q.lastProgress!;
      assert.equal(p.batchId, n, "batch id");
      assert.equal(p.numInputRows, e.inputRows, "input rows");
      assert.equal(p.eventTime?.watermark, iso(e.evictWm), "W(N) in progress");
      assert.equal(offsetsMeta(ctx.checkpointLocation, n).batchWatermarkMs, e.evictWm * 1000, "W(N) in offsets/N");
      const late = n === 0 ? 0 : offsetsMeta(ctx.checkpointLocation, n - 1).batchWatermarkMs;
      assert.equal(late, e.lateWm * 1000, "late-filter watermark W(N-1)");
      assert.equal(commitWatermark(ctx.checkpointLocation, n), e.wmAfter * 1000, "watermark after the batch (commits/N)");
      assert.equal(q.currentWatermarkMs, e.wmAfter * 1000);
    }, `batch ${n}`),
    checkLastBatch(e.emitted),
  ];
}

describe("watermark worked example (§1.6)", () => {
  it("runs batch by batch, no-data batches included", async () => {
    const { ms, counts } = workedExample();
    const tick = advanceClock(1000);
    await testStream(
      counts,
      "append",
      [
        addData(ms, FIRST_ROWS),
        tick,
        ...batch(0, { inputRows: 2, evictWm: 0, lateWm: 0, emitted: [], wmAfter: 2 }),
        tick,
        // no data: the watermark moved from 0 to :02, so a no-data batch runs; [:00,:10) ends at :10 > :02
        ...batch(1, { inputRows: 0, evictWm: 2, lateWm: 0, emitted: [], wmAfter: 2 }),
        addData(ms, [{ id: 3, ts: sec(25) }]),
        tick,
        ...batch(2, { inputRows: 1, evictWm: 2, lateWm: 2, emitted: [], wmAfter: 15 }),
        tick,
        ...batch(3, { inputRows: 0, evictWm: 15, lateWm: 2, emitted: [{ window: win(0, 10_000), count: 1 }], wmAfter: 15 }),
        tick,
        // the watermark did not move: no batch
        assertOnQuery((q) => q.lastProgress!.batchId === 3, "no batch 4 without data or watermark movement"),
        checkAnswer([{ window: win(0, 10_000), count: 1 }]),
      ],
      { trigger: { processingTime: "1 second" } },
    );
  });

  it("keeps [:10,:20) until a batch has seen max event time >= :30, then emits it in the next no-data batch", async () => {
    const { ms, counts } = workedExample();
    const tick = advanceClock(1000);
    await testStream(
      counts,
      "append",
      [
        addData(ms, FIRST_ROWS),
        tick,
        tick,
        addData(ms, [{ id: 3, ts: sec(25) }]),
        tick,
        tick,
        addData(ms, [{ id: 4, ts: sec(29) }]),
        tick,
        ...batch(4, { inputRows: 1, evictWm: 15, lateWm: 15, emitted: [], wmAfter: 19 }),
        tick,
        ...batch(5, { inputRows: 0, evictWm: 19, lateWm: 15, emitted: [], wmAfter: 19 }),
        addData(ms, [{ id: 5, ts: sec(30) }]),
        tick,
        ...batch(6, { inputRows: 1, evictWm: 19, lateWm: 19, emitted: [], wmAfter: 20 }),
        tick,
        ...batch(7, { inputRows: 0, evictWm: 20, lateWm: 19, emitted: [{ window: win(10_000, 20_000), count: 1 }], wmAfter: 20 }),
      ],
      { trigger: { processingTime: "1 second" } },
    );
  });

  it("gives the same batches with the default trigger: processAllAvailable runs the no-data batch too", async () => {
    const { ms, counts } = workedExample();
    await testStream(counts, "append", [
      addData(ms, FIRST_ROWS),
      checkAnswer([]),
      assertOnQuery((_q, ctx) =>
        assert.deepEqual(
          ctx.sinkBatches.map((b) => b.batchId),
          [0, 1],
        ),
      ),
      addData(ms, [{ id: 3, ts: sec(25) }]),
      checkAnswer([{ window: win(0, 10_000), count: 1 }]),
      assertOnQuery((q, ctx) => {
        assert.deepEqual(
          ctx.sinkBatches.map((b) => [b.batchId, b.rows.length]),
          [
            [0, 0],
            [1, 0],
            [2, 0],
            [3, 1],
          ],
        );
        assert.deepEqual(
          q.recentProgress.map((p) => p.eventTime?.watermark),
          [iso(0), iso(2), iso(2), iso(15)],
        );
      }),
    ]);
  });
});
