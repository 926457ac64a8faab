/** runFor(query, clock, seconds): N seconds of query time on a ManualClock, with real time's batches. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { ManualClock, runFor } from "../../src/testing/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const START = Date.UTC(2026, 9, 16, 9, 0, 0);

describe("runFor", () => {
  it("runs every trigger that falls due in N seconds of query time, and leaves the query running", async () => {
    const clock = new ManualClock(START);
    const q = await session.readStream
      .format("rate")
      .option("rowsPerSecond", 2)
      .load()
      .writeStream.format("noop")
      .trigger({ processingTime: "4 seconds" })
      .withClock(clock)
      .start();
    try {
      assert.equal(await runFor(q, clock, 30), false);
      assert.equal(clock.now(), START + 30_000);
      // Triggers at :00, :04, ..., :28: eight batches.
      assert.equal(q.lastProgress?.batchId, 7);
      assert.ok(q.isActive);
      await runFor(q, clock, 4);
      assert.equal(q.lastProgress?.batchId, 8);
    } finally {
      await q.stop();
    }
  });
  it("resolves true when the query ends by itself", async () => {
    const clock = new ManualClock(START);
    const ms = session.memoryStream("id INT");
    ms.addData([{ id: 1 }]);
    const q = await ms.toDF().writeStream.format("noop").trigger({ availableNow: true }).withClock(clock).start();
    assert.equal(await runFor(q, clock, 10), true);
  });
  it("rejects with the query's error when it fails", async () => {
    const clock = new ManualClock(START);
    const ms = session.memoryStream("id INT");
    const q = await ms
      .toDF()
      .writeStream.foreachBatch(async (df) => {
        if ((await df.count()) > 0) throw new Error("boom in batch");
      })
      .trigger({ processingTime: "1 second" })
      .withClock(clock)
      .start();
    ms.addData([{ id: 1 }]);
    await assert.rejects(runFor(q, clock, 5), /boom in batch/);
    await q.stop();
  });
  it("rejects a negative duration", async () => {
    const clock = new ManualClock(START);
    const q = await session.memoryStream("id INT").toDF().writeStream.format("noop").withClock(clock).start();
    await assert.rejects(runFor(q, clock, -1), /seconds must be a non-negative number/);
    await q.stop();
  });
});
