/** The examples of docs/testing.md, run as written (so the page cannot drift from the kit). */
import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import {
  addData,
  advanceClock,
  assertOnQuery,
  checkAnswer,
  checkLastBatch,
  execute,
  expectFailure,
  startStream,
  stopStream,
  testStream,
  win,
} from "../../src/testing/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

function setup() {
  const events = session.memoryStream("user STRING, ts TIMESTAMP");
  const counts = events.toDF().withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count();
  return { events, counts };
}

describe("docs/testing.md examples", () => {
  it("quick start", async () => {
    const { events, counts } = setup();
    await testStream(counts, "append", [
      addData(events, [
        { user: "a", ts: new Date(5_000) },
        { user: "b", ts: new Date(25_000) },
      ]),
      checkAnswer([{ window: win(0, 10_000), count: 1 }]),
      addData(events, [{ user: "c", ts: new Date(3_000) }]),
      checkLastBatch([]),
    ]);
  });

  it("batch by batch with the manual clock", async () => {
    const { events, counts } = setup();
    const tick = advanceClock(1000);
    await testStream(
      counts,
      "append",
      [
        addData(events, [
          { user: "a", ts: new Date(5_000) },
          { user: "b", ts: new Date(12_000) },
        ]),
        tick,
        assertOnQuery((q) => q.lastProgress!.batchId === 0 && q.currentWatermarkMs === 2_000),
        tick,
        assertOnQuery((q) => q.lastProgress!.eventTime!.watermark === "1970-01-01T00:00:02.000Z"),
        checkLastBatch([]),
      ],
      { trigger: { processingTime: "1 second" } },
    );
  });

  it("restart from the checkpoint, and a lost commit", async () => {
    const { events, counts } = setup();
    await testStream(counts, "update", [
      addData(events, [{ user: "a", ts: new Date(1_000) }]),
      checkLastBatch([{ window: win(0, 10_000), count: 1 }]),
      stopStream(),
      addData(events, [{ user: "b", ts: new Date(2_000) }]),
      startStream(),
      checkLastBatch([{ window: win(0, 10_000), count: 2 }]),
      stopStream(),
      execute((q, ctx) => rm(path.join(ctx.checkpointLocation, "commits", String(q.lastProgress!.batchId)))),
      startStream(),
      assertOnQuery((_q, ctx) => ctx.replayedBatchIds.length === 1),
    ]);
  });

  it("expected failures", async () => {
    const { events } = setup();
    await testStream(events.toDF().groupBy("user").count(), "append", [expectFailure(/Append output mode not supported/)]);
    const e2 = setup().events;
    await testStream(e2.toDF().select(F.expr("1 / 0").alias("x")), "append", [
      addData(e2, [{ user: "a", ts: new Date(0) }]),
      expectFailure("DIVIDE_BY_ZERO"),
      startStream(),
      expectFailure("DIVIDE_BY_ZERO"),
    ]);
  });
});
