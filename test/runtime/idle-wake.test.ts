/**
 * The idle poll ends early when a source reports data (StreamSource.onDataAvailable) or a
 * caller waits for idle. The queries run on a ManualClock that never moves, so a polling wait
 * can only end through a wake-up: without one these tests would never finish (the per-test
 * timeout turns that into a failure).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { batchFromRows } from "../../src/columnar/batch.js";
import { MemorySource } from "../../src/connectors/memory/memory-source.js";
import { TriggerPacer } from "../../src/runtime/trigger-pacer.js";
import { ManualClock } from "../../src/testing/index.js";
import { field, IntegerType, StructOf } from "../../src/types/datatypes.js";
import { utcSession } from "../streaming/helpers.js";

const session = utcSession();

describe("idle wake-up", () => {
  it("processAllAvailable returns without the polling delay passing", { timeout: 20_000 }, async () => {
    const ms = session.memoryStream("v INT");
    const clock = new ManualClock(0);
    const q = await ms.toDF().writeStream.format("noop").withClock(clock).start();
    try {
      await q.processAllAvailable();
      await q.processAllAvailable();
      assert.equal(clock.now(), 0);
      assert.equal(q.status.message, "Waiting for data to arrive");
    } finally {
      await q.stop();
    }
  });

  it("addData on a memory stream starts the next batch of an idle query", { timeout: 20_000 }, async () => {
    const ms = session.memoryStream("v INT");
    const clock = new ManualClock(0);
    const seen: { id: number; rows: number[] }[] = [];
    let delivered: () => void = () => {};
    const q = await ms
      .toDF()
      .writeStream.withClock(clock)
      .foreachBatch(async (df, id) => {
        seen.push({ id, rows: (await df.collect()).map((r) => Number(r.v)) });
        delivered();
      })
      .start();
    try {
      await q.processAllAvailable(); // idle, polling on the manual clock
      for (const v of [1, 2, 3]) {
        const next = new Promise<void>((r) => {
          delivered = r;
        });
        ms.addData([{ v }]);
        await next;
      }
      assert.deepEqual(seen, [
        { id: 0, rows: [1] },
        { id: 1, rows: [2] },
        { id: 2, rows: [3] },
      ]);
      assert.equal(clock.now(), 0, "no batch needed the clock to move");
    } finally {
      await q.stop();
    }
  });

  it("a stopped query no longer listens to its source", async () => {
    const ms = session.memoryStream("v INT");
    const q = await ms.toDF().writeStream.format("noop").start();
    const source = sourceOf(ms);
    assert.equal(listenerCount(source), 1);
    await q.stop();
    assert.equal(listenerCount(source), 0);
    ms.addData([{ v: 1 }]);
  });
});

describe("MemorySource.onDataAvailable", () => {
  it("calls each listener once per block until it unsubscribes", () => {
    const schema = StructOf([field("v", IntegerType, true)]);
    const src = new MemorySource(schema, "test");
    const calls: string[] = [];
    const offA = src.onDataAvailable(() => calls.push("a"));
    src.onDataAvailable(() => calls.push("b"));
    const block = () => batchFromRows([IntegerType], [[1]]);
    src.addBlock(block());
    offA();
    src.addBlock(block());
    assert.deepEqual(calls, ["a", "b", "b"]);
  });
});

describe("TriggerPacer.poll", () => {
  it("ends at once when the wake-up came between choosing to poll and polling", { timeout: 20_000 }, async () => {
    // The clock never moves: only a wake-up can end this poll.
    const pacer = new TriggerPacer({ kind: "processingTime", intervalMs: 0 }, new ManualClock(0), 10, false);
    const started = pacer.beginTrigger();
    assert.deepEqual(pacer.nextWait(started, false), { kind: "poll" });
    pacer.wake(); // e.g. a source's data while the idle trigger waited for its last commit
    await pacer.poll();
    // The next trigger starts afresh: without a wake-up it polls again.
    assert.deepEqual(pacer.nextWait(pacer.beginTrigger(), false), { kind: "poll" });
  });
});

function sourceOf(ms: object): MemorySource {
  return (ms as unknown as { source: MemorySource }).source;
}
function listenerCount(s: MemorySource): number {
  return (s as unknown as { listeners: Set<unknown> }).listeners.size;
}
