/**
 * The late / evictable predicate at the exact boundary (semantics.md §2): `eventTime <= wm`
 * judged in microseconds, `window.end <= wm` for window structs. A row exactly at the watermark
 * is late; one microsecond later it is not. Result Dates carry their exact microseconds (a
 * non-enumerable `micros`), which the kit compares.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, assertOnQuery, checkLastBatch, checkNewRows, processAllAvailable, testStream, win } from "../../src/testing/index.js";
import { iso, sec, stateOp, utcSession } from "./helpers.js";

const session = utcSession();
const at = (time: string) => `1970-01-01 00:00:${time}`;

describe("late rows at the exact boundary", () => {
  it("groupBy on the event time: ts == watermark is late, ts == watermark + 1 µs is not", async () => {
    const ms = session.memoryStream("id INT, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "5 seconds").groupBy("ts", "id").count();
    await testStream(df, "update", [
      addData(ms, [{ id: 0, ts: at("15") }]),
      processAllAvailable(), // batch 0, then a no-data batch: the late filter is now :10
      assertOnQuery((q) => q.currentWatermarkMs === 10_000 && q.lastProgress!.eventTime!.watermark === iso(10)),
      addData(ms, [
        { id: 1, ts: at("09.999999") },
        { id: 2, ts: at("10") },
        { id: 3, ts: at("10.000001") },
      ]),
      checkNewRows([
        { id: 0, ts: sec(15), count: 1 },
        { id: 3, ts: at("10.000001"), count: 1 },
      ]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 2)),
    ]);
  });

  it("window struct: end == watermark is late, a window ending 1 µs later is not", async () => {
    const rows = [{ id: 0, ts: at("20") }];
    const late = [{ id: 1, ts: at("09.5") }];
    // aligned windows: [:00,:10) ends exactly at the watermark (:10)
    const ms1 = session.memoryStream("id INT, ts TIMESTAMP");
    const aligned = ms1.toDF().withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count();
    await testStream(aligned, "update", [
      addData(ms1, rows),
      processAllAvailable(),
      addData(ms1, late),
      checkLastBatch([]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 1)),
    ]);
    // windows shifted by startTime = 1 µs: [:00.000001, :10.000001) ends 1 µs after the watermark
    const ms2 = session.memoryStream("id INT, ts TIMESTAMP");
    const shifted = ms2
      .toDF()
      .withWatermark("ts", "10 seconds")
      .groupBy(F.window("ts", "10 seconds", "10 seconds", "1 microsecond"))
      .count();
    await testStream(shifted, "update", [
      addData(ms2, rows),
      processAllAvailable(),
      addData(ms2, late),
      checkLastBatch([{ window: win(at("00.000001"), at("10.000001")), count: 1 }]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 0)),
    ]);
  });

  it("computes the watermark in ms from the max event time floored to ms", async () => {
    const ms = session.memoryStream("id INT, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "10 seconds").groupBy("ts", "id").count();
    await testStream(df, "update", [
      addData(ms, [{ id: 0, ts: at("20.000999") }]),
      processAllAvailable(),
      assertOnQuery((q) => q.currentWatermarkMs === 10_000, "max 20.000999 s - 10 s = 10 000 ms (floored)"),
      addData(ms, [
        { id: 1, ts: at("10.000000") },
        { id: 2, ts: at("10.000500") },
      ]),
      checkLastBatch([{ id: 2, ts: at("10.0005"), count: 1 }]),
    ]);
  });

  it("append eviction: a key exactly at the watermark is emitted, 1 µs later it stays in state", async () => {
    const ms = session.memoryStream("id INT, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "10 seconds").groupBy("ts", "id").count();
    await testStream(df, "append", [
      addData(ms, [
        { id: 1, ts: at("10") },
        { id: 2, ts: at("10.000001") },
        { id: 0, ts: at("20") },
      ]),
      // batch 0 keeps all three (late filter 0); the no-data batch evicts with W = :10
      checkNewRows([{ id: 1, ts: sec(10), count: 1 }]),
      assertOnQuery((q) => assert.deepEqual([stateOp(q).numRowsRemoved, stateOp(q).numRowsTotal], [1, 2])),
      addData(ms, [{ id: 0, ts: at("20.001") }]),
      checkNewRows([{ id: 2, ts: at("10.000001"), count: 1 }]),
    ]);
  });

  it("dropDuplicates with the event-time column: the same boundary", async () => {
    const ms = session.memoryStream("id INT, ts TIMESTAMP");
    const df = ms.toDF().withWatermark("ts", "5 seconds").dropDuplicates(["id", "ts"]);
    await testStream(df, "append", [
      addData(ms, [{ id: 0, ts: at("15") }]),
      processAllAvailable(),
      addData(ms, [
        { id: 1, ts: at("10") },
        { id: 2, ts: at("10.000001") },
      ]),
      checkLastBatch([{ id: 2, ts: at("10.000001") }]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 1)),
    ]);
  });
});
