/**
 * The `rate-micro-batch` source (semantics.md §9.2): batch k holds values
 * [k*rowsPerBatch, (k+1)*rowsPerBatch), all stamped startTimestamp + k*advanceMillisPerBatch,
 * partition p emitting start + p + j*numPartitions; every trigger has data; offsets are
 * {offset, timestamp}; W(k+1) = max(0, startTimestamp + k*advance - delay); AvailableNow runs
 * exactly one data batch. Each manual-clock tick is one trigger.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import {
  advanceClock,
  assertOnQuery,
  awaitTermination,
  checkAnswer,
  checkLastBatch,
  expectFailure,
  startStream,
  stopStream,
  testStream,
} from "../../src/testing/index.js";
import { iso, utcSession } from "./helpers.js";

const session = utcSession();
const tick = advanceClock(1000);
const manual = { trigger: { processingTime: "1 second" } } as const;

function rate(options: Record<string, number>) {
  let r = session.readStream.format("rate-micro-batch");
  for (const [k, v] of Object.entries(options)) r = r.option(k, v);
  return r.load();
}

describe("rate-micro-batch source", () => {
  it("emits rowsPerBatch values per batch with one timestamp per batch, in partition order", async () => {
    const df = rate({ rowsPerBatch: 5, numPartitions: 2, startTimestamp: 1000, advanceMillisPerBatch: 500 });
    const batch = (k: number) => {
      const ts = new Date(1000 + k * 500);
      // partition 0: start, start+2, start+4; partition 1: start+1, start+3
      return [0, 2, 4, 1, 3].map((p) => ({ timestamp: ts, value: 5 * k + p }));
    };
    await testStream(
      df,
      "append",
      [
        checkLastBatch(batch(0)), // the first trigger at start already has data
        tick,
        checkLastBatch(batch(1)),
        tick,
        checkLastBatch(batch(2)),
        assertOnQuery((q, ctx) => {
          assert.deepEqual(
            ctx.sinkBatches.map((b) => b.rows.map((r) => r.value)),
            [0, 1, 2].map((k) => batch(k).map((r) => r.value)),
            "row order within a batch",
          );
          const s = q.lastProgress!.sources[0]!;
          assert.equal(
            s.description,
            "RatePerMicroBatchStream[rowsPerBatch=5, numPartitions=2, startTimestamp=1000, advanceMsPerBatch=500]",
          );
          assert.deepEqual(
            [s.startOffset, s.endOffset, s.numInputRows],
            [{ offset: 10, timestamp: 2000 }, { offset: 15, timestamp: 2500 }, 5],
          );
          assert.equal(q.recentProgress[0]!.sources[0]!.startOffset, null);
        }),
      ],
      manual,
    );
  });

  it("never runs a no-data batch, and the watermark follows W(k+1) = max(0, start + k*advance - delay)", async () => {
    const df = rate({ rowsPerBatch: 2, startTimestamp: 10_000, advanceMillisPerBatch: 3000 })
      .withWatermark("timestamp", "12 seconds")
      .groupBy(F.window("timestamp", "5 seconds"))
      .count();
    const watermarks = (k: number) =>
      Array.from({ length: k + 1 }, (_, i) => (i === 0 ? 0 : Math.max(0, 10_000 + (i - 1) * 3000 - 12_000)));
    await testStream(
      df,
      "append",
      [
        tick,
        tick,
        tick,
        tick,
        assertOnQuery((q) => {
          assert.deepEqual(
            q.recentProgress.map((p) => p.numInputRows),
            [2, 2, 2, 2, 2],
            "every trigger reads rowsPerBatch rows",
          );
          assert.deepEqual(
            q.recentProgress.map((p) => p.eventTime!.watermark),
            watermarks(4).map((ms) => iso(ms / 1000)),
          );
        }),
        // data batches k = 0..4 are stamped :10, :13, :16, :19, :22; W(4) = :07 evicted [:00,:05) (empty) only
        checkAnswer([]),
        tick,
        tick,
        checkAnswer([]), // W(6) = :13 < :15
        tick, // W(7) = :16 closes [:10,:15), which holds batches k = 0 (:10) and 1 (:13)
        checkAnswer([{ window: { start: new Date(10_000), end: new Date(15_000) }, count: 4 }]),
      ],
      manual,
    );
  });

  it("continues the sequence after a restart from the checkpoint", async () => {
    const df = rate({ rowsPerBatch: 3, startTimestamp: 0, advanceMillisPerBatch: 1000 });
    await testStream(
      df,
      "append",
      [
        tick, // batches 0 (at start) and 1
        stopStream(),
        startStream(),
        checkLastBatch([6, 7, 8].map((value) => ({ timestamp: new Date(2000), value }))),
        assertOnQuery((q) => q.lastProgress!.batchId === 2),
      ],
      manual,
    );
  });

  it("AvailableNow: exactly one data batch, then the query ends", async () => {
    const df = rate({ rowsPerBatch: 4, startTimestamp: 500 });
    await testStream(df, "append", [
      startStream({ trigger: { availableNow: true } }),
      awaitTermination(),
      checkAnswer([0, 1, 2, 3].map((value) => ({ timestamp: new Date(500), value }))),
      assertOnQuery((q) => q.recentProgress.length === 1 && !q.isActive),
    ]);
  });

  it("validates its options", async () => {
    await testStream(session.readStream.format("rate-micro-batch").load(), "append", [expectFailure(/'rowsPerBatch' must be specified/)]);
    await testStream(rate({ rowsPerBatch: 0 }), "append", [expectFailure(/rowsPerBatch/)]);
    await testStream(rate({ rowsPerBatch: 1, advanceMillisPerBatch: -1 }), "append", [expectFailure(/advanceMillisPerBatch/)]);
    assert.throws(
      () => session.readStream.format("rate-micro-batch").schema("v INT").option("rowsPerBatch", 1).load(),
      /does not support a user-specified schema/,
    );
  });
});
