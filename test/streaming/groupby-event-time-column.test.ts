/**
 * Grouping on the event-time column itself, no window (semantics.md §2.1): late iff
 * `ts <= W(N-1)`, evicted iff `ts <= W(N)`; append mode accepts this shape.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, assertOnQuery, checkAnswer, checkNewRows, testStream } from "../../src/testing/index.js";
import { sec, stateOp, utcSession } from "./helpers.js";

const session = utcSession();

describe("groupBy on the event-time column", () => {
  it("append: each timestamp group is emitted once the watermark reaches it; late timestamps are dropped", async () => {
    const ms = session.memoryStream("ts TIMESTAMP, v INT");
    const df = ms.toDF().withWatermark("ts", "5 seconds").groupBy("ts").agg(F.sum("v").alias("total"));
    await testStream(df, "append", [
      addData(ms, [
        { ts: sec(1), v: 1 },
        { ts: sec(1), v: 2 },
        { ts: sec(8), v: 3 },
      ]),
      // watermark -> :03: the no-data batch emits ts = :01 (<= :03); :08 stays
      checkAnswer([{ ts: sec(1), total: 3 }]),
      addData(ms, [
        { ts: sec(3), v: 10 }, // exactly at the watermark: late
        { ts: sec(4), v: 20 },
        { ts: sec(8), v: 30 },
      ]),
      checkNewRows([]),
      assertOnQuery((q) => {
        const op = stateOp(q);
        assert.deepEqual([op.numRowsDroppedByWatermark, op.numRowsTotal], [1, 2]);
      }),
      addData(ms, [{ ts: sec(20), v: 0 }]), // watermark -> :15
      checkNewRows([
        { ts: sec(4), total: 20 },
        { ts: sec(8), total: 33 },
      ]),
    ]);
  });

  it("update: works with the event time among other keys", async () => {
    const ms = session.memoryStream("k STRING, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "0 seconds").groupBy("k", "ts").count();
    await testStream(df, "update", [
      addData(ms, [
        { k: "a", ts: sec(10) },
        { k: "b", ts: sec(10) },
      ]),
      checkNewRows([
        { k: "a", ts: sec(10), count: 1 },
        { k: "b", ts: sec(10), count: 1 },
      ]),
      addData(ms, [
        { k: "a", ts: sec(10) }, // late: :10 <= W = :10 (delay 0)
        { k: "a", ts: sec(11) },
      ]),
      checkNewRows([{ k: "a", ts: sec(11), count: 1 }]),
      assertOnQuery((q) => {
        const [data, noData] = q.recentProgress.slice(-2).map((p) => p.stateOperators[0]!);
        assert.equal(data!.numRowsDroppedByWatermark, 1);
        // the watermark moved to :11, so the no-data batch removed (a, :11) too
        assert.deepEqual([noData!.numRowsRemoved, noData!.numRowsTotal], [1, 0]);
      }),
    ]);
  });
});
