/**
 * The seams of one micro-batch that can be checked alone: the trigger pacer's decisions between
 * triggers (runtime/trigger-pacer.ts) and the BatchReport's derived figures
 * (execution/stateful/batch-report.ts). A ManualClock drives time; nothing sleeps.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Batch } from "../../src/columnar/batch.js";
import type { OpenGroups, PhysicalOperator } from "../../src/execution/operator.js";
import { BatchReport } from "../../src/execution/stateful/batch-report.js";
import { newMetrics } from "../../src/execution/stateful/common.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { IdleWaiters } from "../../src/runtime/idle-waiters.js";
import { TriggerPacer } from "../../src/runtime/trigger-pacer.js";

describe("TriggerPacer", () => {
  it("runs back to back after a batch and polls after a trigger that ran nothing (default trigger)", () => {
    const pacer = new TriggerPacer({ kind: "processingTime", intervalMs: 0 }, new ManualClock(0), 10, false);
    const t = pacer.beginTrigger();
    assert.deepEqual(pacer.nextWait(t, true), { kind: "none" });
    assert.deepEqual(pacer.nextWait(pacer.beginTrigger(), false), { kind: "poll" });
  });

  it("skips the poll when a source reported data during the trigger", () => {
    const pacer = new TriggerPacer({ kind: "processingTime", intervalMs: 0 }, new ManualClock(0), 10, false);
    const t = pacer.beginTrigger();
    pacer.wake();
    assert.deepEqual(pacer.nextWait(t, false), { kind: "none" });
  });

  it("waits for the next aligned instant of a processingTime interval, or not at all when the batch overran it", () => {
    const clock = new ManualClock(1_000);
    const pacer = new TriggerPacer({ kind: "processingTime", intervalMs: 500 }, clock, 10, false);
    const t = pacer.beginTrigger();
    clock.advance(100);
    assert.deepEqual(pacer.nextWait(t, true), { kind: "interval", untilMs: 1_500 });
    const t2 = pacer.beginTrigger();
    clock.advance(600);
    assert.deepEqual(pacer.nextWait(t2, true), { kind: "none" });
  });

  it("ends once, single-batch availableNow, an availableNow trigger that ran nothing, and after stop()", () => {
    const clock = new ManualClock(0);
    assert.equal(new TriggerPacer({ kind: "once" }, clock, 10, true).nextWait(0, true).kind, "end");
    const available = new TriggerPacer({ kind: "availableNow" }, clock, 10, false);
    assert.equal(available.nextWait(available.beginTrigger(), true).kind, "none");
    assert.equal(available.nextWait(available.beginTrigger(), false).kind, "end");
    const stopped = new TriggerPacer({ kind: "processingTime", intervalMs: 0 }, clock, 10, false);
    stopped.stop();
    assert.equal(stopped.stopped, true);
    assert.equal(stopped.nextWait(stopped.beginTrigger(), true).kind, "end");
  });

  it("answers waitForIdle at the first trigger that starts after the call and finds nothing", async () => {
    const pacer = new TriggerPacer({ kind: "processingTime", intervalMs: 0 }, new ManualClock(0), 10, false);
    let idle = false;
    const t0 = pacer.beginTrigger();
    const waiting = pacer.waitForIdle().then(() => {
      idle = true;
    });
    assert.equal(pacer.idleAwaited, false, "the trigger in flight began before the call");
    pacer.nextWait(t0, false); // the trigger in flight began before the call: not an answer
    await Promise.resolve();
    assert.equal(idle, false);
    const t1 = pacer.beginTrigger();
    assert.equal(pacer.idleAwaited, true, "the trigger that answers must ask its sources as of now");
    pacer.nextWait(t1, false);
    await waiting;
    assert.equal(idle, true);
    assert.equal(pacer.idleAwaited, false);
  });
});

describe("IdleWaiters", () => {
  it("a trigger answers only the waiters that called before it began; releaseAll answers the rest", async () => {
    const idle = new IdleWaiters();
    const answered: string[] = [];
    const t1 = idle.beginTrigger();
    void idle.wait().then(() => answered.push("a")); // during trigger 1
    assert.equal(idle.awaited, false, "trigger 1 began before the call");
    idle.foundNothing(t1);
    await Promise.resolve();
    assert.deepEqual([...answered], [], "answered by a trigger already under way");
    const t2 = idle.beginTrigger();
    assert.equal(idle.awaited, true);
    void idle.wait().then(() => answered.push("b")); // during trigger 2
    idle.foundNothing(t2);
    await Promise.resolve();
    assert.deepEqual([...answered], ["a"]);
    idle.releaseAll();
    await Promise.resolve();
    assert.deepEqual([...answered], ["a", "b"]);
    assert.equal(idle.awaited, false);
  });
});

describe("BatchReport", () => {
  const leaf = (open: OpenGroups | undefined): PhysicalOperator => ({
    name: "Leaf",
    output: [],
    children: [],
    execute: async (): Promise<Batch[]> => [],
    describe: () => "",
    ...(open ? { openGroups: () => open } : {}),
  });

  it("counts input rows from the scans, or from the read where no scan ran, and sums drops over operators", () => {
    const r = new BatchReport(3, leaf(undefined));
    r.addScanRows("a", 4);
    r.addScanRows("a", 4); // a self-union scans twice
    assert.deepEqual(r.inputRows(["a", "b"], [4, 7]), [8, 7]);
    const m1 = { ...newMetrics("stateStoreSave", 1), numRowsDroppedByWatermark: 2, numLateInputRows: 5 };
    const m0 = { ...newMetrics("dedupe", 1), numRowsDroppedByWatermark: 1, numLateInputRows: 1 };
    r.addStateOperator(1, m1);
    r.addStateOperator(0, m0);
    assert.deepEqual(r.dropped(), { groups: 3, inputRows: 6 });
    assert.deepEqual(
      r.stateOperatorList().map((m) => m.operatorName),
      ["dedupe", "stateStoreSave"],
    );
  });

  it("collects open groups from the operators that declare them, parent before children", () => {
    const child = leaf({ operatorId: 1, eventTimesMicros: [2_000] });
    const root: PhysicalOperator = { ...leaf({ operatorId: 0, eventTimesMicros: [1_000] }), children: [child] };
    assert.deepEqual(
      new BatchReport(0, root).openGroups().map((g) => g.operatorId),
      [0, 1],
    );
  });
});
