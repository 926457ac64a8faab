/**
 * Streaming deduplication (semantics.md §2.2, §2.3): dropDuplicates with and without the
 * event-time column among the keys, without a watermark, and dropDuplicatesWithinWatermark.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { F } from "../../src/index.js";
import { addData, assertOnQuery, checkAnswer, checkNewRows, expectFailure, testStream } from "../../src/testing/index.js";
import { dataBatchOp, sec, stateOp, utcSession } from "./helpers.js";

const session = utcSession();

describe("dropDuplicates", () => {
  it("with the event-time column as a key: first row passes, keys are evicted behind the watermark", async () => {
    const ms = session.memoryStream("id INT, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "5 seconds").dropDuplicates(["id", "ts"]);
    await testStream(df, "append", [
      addData(ms, [
        { id: 1, ts: sec(10) },
        { id: 1, ts: sec(10) },
        { id: 2, ts: sec(10) },
      ]),
      checkNewRows([
        { id: 1, ts: sec(10) },
        { id: 2, ts: sec(10) },
      ]),
      assertOnQuery((q) => {
        const op = dataBatchOp(q);
        assert.equal(op.operatorName, "dedupe");
        assert.deepEqual(op.customMetrics, { numDroppedDuplicateRows: 1 });
        assert.equal(op.numRowsTotal, 2);
      }),
      addData(ms, [{ id: 1, ts: sec(20) }]), // watermark -> :15, the no-data batch evicts both :10 keys
      checkNewRows([{ id: 1, ts: sec(20) }]),
      assertOnQuery((q) => assert.deepEqual([stateOp(q).numRowsRemoved, stateOp(q).numRowsTotal], [2, 1])),
      addData(ms, [{ id: 1, ts: sec(10) }]), // evicted, but late now: still not emitted again
      checkNewRows([]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 1)),
    ]);
  });

  it("without the event-time column as a key: late rows are still dropped, state is never evicted", async () => {
    const ms = session.memoryStream("id INT, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "5 seconds").dropDuplicates(["id"]);
    await testStream(df, "append", [
      addData(ms, [
        { id: 1, ts: sec(10) },
        { id: 2, ts: sec(100) },
      ]),
      checkNewRows([
        { id: 1, ts: sec(10) },
        { id: 2, ts: sec(100) },
      ]),
      // the watermark moved (-> :95): a no-data batch ran, yet nothing was evicted
      assertOnQuery((q, ctx) => {
        assert.deepEqual(
          ctx.sinkBatches.map((b) => b.rows.length),
          [2, 0],
        );
        assert.deepEqual([stateOp(q).numRowsRemoved, stateOp(q).numRowsTotal], [0, 2]);
      }),
      addData(ms, [
        { id: 3, ts: sec(50) }, // a new key, but late: dropped even though ts is not a key
        { id: 1, ts: sec(200) }, // not late, but a duplicate forever
        { id: 4, ts: sec(96) },
      ]),
      checkNewRows([{ id: 4, ts: sec(96) }]),
      assertOnQuery((q) => {
        const data = dataBatchOp(q);
        assert.equal(data.numRowsDroppedByWatermark, 1);
        assert.deepEqual(data.customMetrics, { numDroppedDuplicateRows: 1 });
        assert.equal(stateOp(q).numRowsTotal, 3);
      }),
    ]);
  });

  it("without a watermark: every key is kept forever and no no-data batches run", async () => {
    const ms = session.memoryStream("id INT, ts TIMESTAMP");
    await testStream(ms.toDF().dropDuplicates(["id"]), "append", [
      addData(ms, [
        { id: 1, ts: sec(10) },
        { id: 1, ts: sec(0) },
      ]),
      addData(ms, [{ id: 1, ts: sec(1000) }]),
      addData(ms, [{ id: 2, ts: sec(0) }]),
      checkAnswer([
        { id: 1, ts: sec(10) },
        { id: 2, ts: sec(0) },
      ]),
      assertOnQuery((q) => q.recentProgress.every((p) => p.numInputRows > 0) && stateOp(q).numRowsTotal === 2),
    ]);
  });
});

describe("dropDuplicatesWithinWatermark", () => {
  it("emits the first occurrence, drops duplicates until watermark >= first ts + delay, then accepts the key again", async () => {
    const ms = session.memoryStream("id STRING, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark(["id"]);
    await testStream(df, "append", [
      addData(ms, [{ id: "a", ts: sec(5) }]), // expires at :15
      checkNewRows([{ id: "a", ts: sec(5) }]),
      addData(ms, [
        { id: "a", ts: sec(12) },
        { id: "b", ts: sec(24) },
      ]),
      checkNewRows([{ id: "b", ts: sec(24) }]), // watermark -> :14: "a" stays (14 < 15)
      assertOnQuery((q) => assert.equal(stateOp(q).operatorName, "dedupeWithinWatermark")),
      addData(ms, [{ id: "a", ts: sec(14.5) }]),
      checkNewRows([]), // still a duplicate
      addData(ms, [{ id: "b", ts: sec(25) }]), // watermark -> :15 >= :15: "a" is removed (inclusive)
      checkNewRows([]),
      assertOnQuery((q) => assert.deepEqual([stateOp(q).numRowsRemoved, stateOp(q).numRowsTotal], [1, 1])),
      addData(ms, [
        { id: "a", ts: sec(15) }, // late (<= :15)
        { id: "a", ts: sec(16) },
      ]),
      checkNewRows([{ id: "a", ts: sec(16) }]),
    ]);
  });

  it("is refused on a batch DataFrame with Spark's _LEGACY_ERROR_TEMP_3102", () => {
    const df = session.createDataFrame([[1, "a"]], "k INT, s STRING");
    assert.throws(
      () => df.dropDuplicatesWithinWatermark(),
      (e: Error & { errorClass?: string }) =>
        e.errorClass === "_LEGACY_ERROR_TEMP_3102" &&
        e.message === "dropDuplicatesWithinWatermark is not supported with batch DataFrames/DataSets;",
    );
  });

  it("is rejected without a watermark", async () => {
    const ms = session.memoryStream("id STRING, ts TIMESTAMP");
    await testStream(ms.toDF().dropDuplicatesWithinWatermark(["id"]), "append", [
      expectFailure("dropDuplicatesWithinWatermark is not supported on streaming DataFrames/DataSets without watermark"),
    ]);
  });

  it("is rejected when the event-time column was replaced after withWatermark (Spark reads the input's columns)", async () => {
    const ms = session.memoryStream("id STRING, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "5 seconds").withColumn("ts", F.expr("ts + INTERVAL 1 SECOND"));
    await testStream(df.dropDuplicatesWithinWatermark(["id"]), "append", [
      expectFailure("dropDuplicatesWithinWatermark is not supported on streaming DataFrames/DataSets without watermark"),
    ]);
  });
});
