/**
 * semantics.md §1.4: each stateful operator drops late input with the *previous* batch's
 * watermark W(N-1) but evicts state with the current one W(N). Seen with two data batches in
 * a row (no no-data batch between them): a row between W(N-1) and W(N) is kept, aggregated and,
 * being already evictable, emitted in the same batch; the same row one batch later is dropped.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, advanceClock, assertOnQuery, checkLastBatch, testStream, win } from "../../src/testing/index.js";
import { iso, sec, stateOp, utcSession, windowedCount } from "./helpers.js";

const session = utcSession();
const tick = advanceClock(1000);
const manual = { trigger: { processingTime: "1 second" } } as const;

describe("late-filter watermark W(N-1) vs eviction watermark W(N)", () => {
  it("append: a row between W(N-1) and W(N) is aggregated and emitted at once; one batch later it is late", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(
      df,
      "append",
      [
        addData(ms, [{ ts: sec(20) }]),
        tick, // batch 0: W = 0, watermark after = :10
        addData(ms, [{ ts: sec(5) }]),
        tick, // batch 1 (data again, so no no-data batch in between): evict with :10, late filter 0
        assertOnQuery((q) => {
          assert.equal(q.lastProgress!.batchId, 1);
          assert.equal(q.lastProgress!.eventTime!.watermark, iso(10));
          assert.equal(stateOp(q).numRowsDroppedByWatermark, 0);
        }),
        checkLastBatch([{ window: win(0, 10_000), count: 1 }]),
        addData(ms, [{ ts: sec(6) }]),
        tick, // batch 2: late filter W(1) = :10 now drops [:00,:10)
        assertOnQuery((q) => q.lastProgress!.batchId === 2 && stateOp(q).numRowsDroppedByWatermark === 1),
        checkLastBatch([]),
      ],
      manual,
    );
  });

  it("groupBy on the event time with no-data batches disabled: the late filter trails one batch", async () => {
    const ms = session.memoryStream("id INT, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "10 seconds").groupBy("ts").agg(F.count("*").alias("n"));
    await testStream(
      df,
      "append",
      [
        addData(ms, [{ id: 0, ts: sec(20) }]),
        checkLastBatch([]),
        addData(ms, [{ id: 1, ts: sec(7) }]),
        // batch 1: 7 > W(0) = 0 so kept; 7 <= W(1) = 10 so evicted and emitted right away
        checkLastBatch([{ ts: sec(7), n: 1 }]),
        addData(ms, [{ id: 2, ts: sec(8) }]),
        checkLastBatch([]),
        assertOnQuery((q) => q.lastProgress!.batchId === 2 && stateOp(q).numRowsDroppedByWatermark === 1),
      ],
      { conf: { "spark.sql.streaming.noDataMicroBatches.enabled": false } },
    );
  });

  it("update: the group re-opened between W(N-1) and W(N) is emitted, then removed silently", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(
      df,
      "update",
      [
        addData(ms, [{ ts: sec(5) }, { ts: sec(20) }]),
        tick, // batch 0 emits both windows (update mode), watermark after = :10
        checkLastBatch([
          { window: win(0, 10_000), count: 1 },
          { window: win(20_000, 30_000), count: 1 },
        ]),
        addData(ms, [{ ts: sec(6) }]),
        tick, // batch 1: not late (W(0) = 0), merged with the stored count, emitted, then evicted (W(1) = :10)
        checkLastBatch([{ window: win(0, 10_000), count: 2 }]),
        assertOnQuery((q) => stateOp(q).numRowsRemoved === 1 && stateOp(q).numRowsTotal === 1),
        addData(ms, [{ ts: sec(7) }]),
        tick,
        checkLastBatch([]),
        assertOnQuery((q) => stateOp(q).numRowsDroppedByWatermark === 1),
      ],
      manual,
    );
  });

  it("with statefulOperator.allowMultiple=false both watermarks are W(N)", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(
      df,
      "append",
      [
        addData(ms, [{ ts: sec(20) }]),
        tick,
        addData(ms, [{ ts: sec(5) }]),
        tick, // batch 1: late filter is W(1) = :10 too, so [:00,:10) is dropped instead of emitted
        checkLastBatch([]),
        assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 1)),
      ],
      { ...manual, conf: { "spark.sql.streaming.statefulOperator.allowMultiple": false } },
    );
  });
});
