/**
 * Sliding windows (semantics.md §2.1, §3.2): each (row, window) pair is judged on its own, so
 * one raw row can be late for its older window and still counted in its newer one, and
 * `numRowsDroppedByWatermark` counts dropped (window) groups, not raw rows.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, assertOnQuery, checkLastBatch, checkNewRows, processAllAvailable, testStream, win } from "../../src/testing/index.js";
import { sec, stateOp, utcSession } from "./helpers.js";

const session = utcSession();

function sliding() {
  const ms = session.memoryStream("ts TIMESTAMP");
  const df = ms
    .toDF()
    .withWatermark("ts", "10 seconds")
    .groupBy(F.window("ts", "10 seconds", "5 seconds"))
    .count();
  return { ms, df };
}

describe("sliding windows judged per window", () => {
  it("update: a row is dropped for its window ending at the watermark but counted in the next one", async () => {
    const { ms, df } = sliding();
    await testStream(df, "update", [
      addData(ms, [{ ts: sec(20) }]), // watermark -> :10
      processAllAvailable(),
      addData(ms, [{ ts: sec(7) }, { ts: sec(8) }]),
      // :07 and :08 each fall in [:00,:10) (end :10 <= :10: late) and [:05,:15) (kept)
      checkNewRows([
        { window: win(15_000, 25_000), count: 1 },
        { window: win(20_000, 30_000), count: 1 },
        { window: win(5_000, 15_000), count: 2 },
      ]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 1, "one dropped group for two raw rows")),
    ]);
  });

  it("append: the surviving window is emitted once the watermark passes its end", async () => {
    const { ms, df } = sliding();
    await testStream(df, "append", [
      addData(ms, [{ ts: sec(20) }]),
      processAllAvailable(),
      addData(ms, [{ ts: sec(7) }]),
      checkLastBatch([]),
      addData(ms, [{ ts: sec(26) }]), // watermark -> :16: [:05,:15) is final, [:10,:20) not yet
      checkNewRows([{ window: win(5_000, 15_000), count: 1 }]),
      addData(ms, [{ ts: sec(40) }]), // watermark -> :30
      checkNewRows([
        { window: win(15_000, 25_000), count: 1 },
        { window: win(20_000, 30_000), count: 2 },
      ]),
    ]);
  });
});
