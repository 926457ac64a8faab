/**
 * The query handle (semantics.md §5.3, §5.5): processAllAvailable, stop, awaitTermination,
 * failures and the status messages a query reports along the way.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamingQuery } from "../../src/index.js";
import { type DataFrame, functions as F, IllegalArgumentException, StreamingQueryException } from "../../src/index.js";
import { ManualClock } from "../../src/testing/index.js";
import { waitUntilQuiet } from "../../src/testing/wait.js";
import { sec, utcSession } from "./helpers.js";

const session = utcSession();

/** Start `df` to the noop sink, stopping it after `body` whatever happens. */
async function withQuery(
  df: DataFrame,
  body: (q: StreamingQuery) => Promise<void>,
  configure = (w: DataFrame["writeStream"]) => w,
): Promise<void> {
  const q = await configure(df.writeStream.format("noop")).start();
  try {
    await body(q);
  } finally {
    await q.stop();
  }
}

describe("query lifecycle", () => {
  it("status: waiting for data after processAllAvailable, Stopped after stop", async () => {
    const ms = session.memoryStream("v INT");
    await withQuery(ms.toDF(), async (q) => {
      ms.addData([{ v: 1 }]);
      await q.processAllAvailable();
      assert.deepEqual(q.status, { message: "Waiting for data to arrive", isDataAvailable: false, isTriggerActive: false });
      assert.equal(q.isActive, true);
      assert.ok(session.streams.active.includes(q));
      await q.stop();
      assert.deepEqual(q.status, { message: "Stopped", isDataAvailable: false, isTriggerActive: false });
      assert.equal(q.isActive, false);
      assert.ok(!session.streams.active.includes(q));
      assert.equal(q.exception, null);
      await q.processAllAvailable(); // on a stopped query: returns at once
    });
  });

  it("status inside a batch: processing new data, or cleaning up state in a no-data batch", async () => {
    const ms = session.memoryStream("ts TIMESTAMP");
    const clock = new ManualClock(0);
    const seen: string[] = [];
    let query: StreamingQuery | null = null;
    const df = ms.toDF().withWatermark("ts", "0 seconds").groupBy(F.window("ts", "10 seconds")).count();
    const q = await df.writeStream
      .outputMode("append")
      .trigger({ processingTime: "1 second" })
      .withClock(clock)
      .foreachBatch((_df, id) => {
        const s = query!.status;
        seen.push(`${id}: ${s.message} data=${s.isDataAvailable} active=${s.isTriggerActive}`);
      })
      .start();
    query = q;
    try {
      ms.addData([{ ts: sec(15) }]);
      for (let i = 0; i < 2; i++) {
        await waitUntilQuiet(q, clock, 5000);
        clock.advance(1000);
      }
      await waitUntilQuiet(q, clock, 5000);
      assert.deepEqual(seen, [
        "0: Processing new data data=true active=true",
        "1: No new data but cleaning up state data=false active=true",
      ]);
      assert.deepEqual(q.status, { message: "Waiting for next trigger", isDataAvailable: false, isTriggerActive: false });
    } finally {
      await q.stop();
    }
  });

  it("awaitTermination: false on timeout, true once stopped; the timeout must be positive", async () => {
    const ms = session.memoryStream("v INT");
    await withQuery(ms.toDF(), async (q) => {
      assert.equal(await q.awaitTermination(0.005), false);
      await assert.rejects(q.awaitTermination(0), IllegalArgumentException);
      await assert.rejects(q.awaitTermination(0.0001), /should be positive/, "0.1 ms truncates to 0 ms");
      const ended = q.awaitTermination();
      await q.stop();
      assert.equal(await ended, true);
      assert.equal(await q.awaitTermination(0.005), true);
    });
  });

  it("a failing batch ends the query: awaitTermination and processAllAvailable reject with the cause", async () => {
    const ms = session.memoryStream("v INT");
    const terminated: (string | null)[] = [];
    const listener = { onQueryTerminated: (e: { exception: string | null }) => terminated.push(e.exception) };
    session.streams.addListener(listener);
    try {
      await withQuery(ms.toDF().select(F.expr("100 / v").alias("r")), async (q) => {
        ms.addData([{ v: 0 }]);
        const err = await q.awaitTermination().then(
          () => assert.fail("awaitTermination resolved"),
          (e: unknown) => e,
        );
        assert.ok(err instanceof StreamingQueryException);
        assert.match(err.message, /^\[STREAM_FAILED\] Query terminated with exception: \[DIVIDE_BY_ZERO\]/);
        assert.match((err.cause as Error).message, /^\[DIVIDE_BY_ZERO\]/);
        assert.equal(q.exception, err);
        assert.equal(q.isActive, false);
        assert.match(q.status.message, /^Terminated with exception: \[DIVIDE_BY_ZERO\]/);
        assert.deepEqual([q.status.isDataAvailable, q.status.isTriggerActive], [false, false]);
        await assert.rejects(q.processAllAvailable(), StreamingQueryException);
        await assert.rejects(q.awaitTermination(1), StreamingQueryException);
      });
    } finally {
      session.streams.removeListener(listener);
    }
    assert.equal(terminated.length, 1);
    assert.match(terminated[0]!, /DIVIDE_BY_ZERO/);
  });

  it("stop() ends a query waiting on its manual clock without moving the clock", async () => {
    const ms = session.memoryStream("v INT");
    const clock = new ManualClock(0);
    const q = await ms.toDF().writeStream.format("noop").trigger({ processingTime: "1 hour" }).withClock(clock).start();
    await waitUntilQuiet(q, clock, 5000);
    await q.stop();
    assert.equal(q.isActive, false);
    assert.equal(clock.now(), 0);
  });

  it("refuses a second active query with the same name; the name is free again after stop", async () => {
    const ms = session.memoryStream("v INT");
    await withQuery(
      ms.toDF(),
      async () => {
        await assert.rejects(
          ms.toDF().writeStream.format("noop").queryName("lifecycle_q").start(),
          /Cannot start query with name lifecycle_q as a query with that name is already active/,
        );
      },
      (w) => w.queryName("lifecycle_q"),
    );
    await withQuery(
      ms.toDF(),
      async (q) => assert.equal(q.name, "lifecycle_q"),
      (w) => w.queryName("lifecycle_q"),
    );
  });
});
