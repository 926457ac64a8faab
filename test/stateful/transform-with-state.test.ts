/**
 * transformWithState (docs/stateful-processing.md): each state variable kind, timers of both
 * kinds, TTL, restarts with state and pending timers, and the errors for bad processors.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import {
  type ListState,
  type MapState,
  type ProcessorRow,
  StatefulProcessor,
  type StatefulProcessorHandle,
  type TimerValues,
  type ValueState,
} from "../../src/index.js";
import {
  addData,
  advanceClock,
  assertOnQuery,
  checkNewRows,
  execute,
  expectFailure,
  ManualClock,
  startStream,
  stopStream,
  testStream,
} from "../../src/testing/index.js";
import { sec, stateOp, utcSession } from "../streaming/helpers.js";

const session = utcSession();

class RunningCount extends StatefulProcessor {
  private count!: ValueState;
  init(handle: StatefulProcessorHandle): void {
    this.count = handle.getValueState("count", "value BIGINT");
  }
  *handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[]) {
    const n = ((this.count.get()?.value as number | undefined) ?? 0) + rows.length;
    this.count.update({ value: n });
    yield { key: key[0], count: n };
  }
}

describe("transformWithState", () => {
  it("ValueState: a running count per key survives a restart", async () => {
    const ms = session.memoryStream("k STRING");
    const df = ms.toDF().groupBy("k").transformWithState(new RunningCount(), "key STRING, count BIGINT", "update", "none");
    await testStream(df, "update", [
      addData(ms, [{ k: "a" }, { k: "a" }, { k: "b" }]),
      checkNewRows([
        { key: "a", count: 2 },
        { key: "b", count: 1 },
      ]),
      assertOnQuery((q) => {
        const op = stateOp(q);
        assert.equal(op.operatorName, "transformWithStateExec");
        assert.equal(op.numRowsTotal, 2);
        assert.equal(op.customMetrics.numValueStateVars, 1);
      }),
      stopStream(),
      startStream(),
      addData(ms, [{ k: "a" }]),
      checkNewRows([{ key: "a", count: 3 }]),
    ]);
  });

  it("ListState buffered until an event-time timer fires, in a no-data batch", async () => {
    class Buffer extends StatefulProcessor {
      private buf!: ListState;
      private handle!: StatefulProcessorHandle;
      init(h: StatefulProcessorHandle) {
        this.handle = h;
        this.buf = h.getListState("buf", "v INT");
      }
      handleInputRows(_key: readonly unknown[], rows: readonly ProcessorRow[]) {
        for (const t of [...this.handle.listTimers()]) this.handle.deleteTimer(t);
        let last = 0;
        for (const r of rows) {
          this.buf.appendValue({ v: r.v });
          last = Math.max(last, (r.ts as Date).getTime());
        }
        this.handle.registerTimer(last + 5000);
        return [];
      }
      override *handleExpiredTimer(key: readonly unknown[], tv: TimerValues, info: { getExpiryTimeInMs(): number }) {
        const vs = [...this.buf.get()].map((r) => r.v as number);
        this.buf.clear();
        assert.equal(info.getExpiryTimeInMs(), key[0] === "a" ? 7000 : 8000);
        yield { k: key[0], total: vs.reduce((a, b) => a + b, 0), n: vs.length, wm: tv.getCurrentWatermarkInMs() };
      }
    }
    const ms = session.memoryStream("k STRING, v INT, ts TIMESTAMP");
    const df = ms
      .toDF()
      .withWatermark("ts", "2 seconds")
      .groupBy("k")
      .transformWithState(new Buffer(), "k STRING, total INT, n INT, wm BIGINT", "append", "eventTime");
    await testStream(df, "append", [
      addData(ms, [
        { k: "a", v: 1, ts: sec(1) },
        { k: "a", v: 2, ts: sec(2) },
        { k: "b", v: 5, ts: sec(3) },
      ]),
      checkNewRows([]),
      // watermark -> 18 s; timers at 6, 7, 8 s fire in the no-data batch
      addData(ms, [{ k: "c", v: 9, ts: sec(20) }]),
      checkNewRows([
        { k: "a", total: 3, n: 2, wm: 18_000 },
        { k: "b", total: 5, n: 1, wm: 18_000 },
      ]),
      assertOnQuery((q) => assert.equal(stateOp(q).customMetrics.numExpiredTimers, 2)),
    ]);
  });

  it("MapState per sub-key, and processing-time timers by the manual clock, across a restart", async () => {
    class PerItem extends StatefulProcessor {
      private items!: MapState;
      private handle!: StatefulProcessorHandle;
      init(h: StatefulProcessorHandle) {
        this.handle = h;
        this.items = h.getMapState("items", "item STRING", "qty INT");
      }
      handleInputRows(_key: readonly unknown[], rows: readonly ProcessorRow[], tv: TimerValues) {
        for (const r of rows) {
          const old = (this.items.getValue({ item: r.item })?.qty as number | undefined) ?? 0;
          this.items.updateValue({ item: r.item }, { qty: old + (r.qty as number) });
        }
        if ([...this.handle.listTimers()].length === 0) this.handle.registerTimer(tv.getCurrentProcessingTimeInMs() + 10_000);
        return [];
      }
      override *handleExpiredTimer(key: readonly unknown[]) {
        for (const [k, v] of this.items.iterator()) yield { user: key[0], item: k.item, qty: v.qty };
        this.items.clear();
      }
    }
    const ms = session.memoryStream("user STRING, item STRING, qty INT");
    const df = ms.toDF().groupBy("user").transformWithState(new PerItem(), "user STRING, item STRING, qty INT", "append", "processingTime");
    const clock = new ManualClock(0);
    await testStream(
      df,
      "append",
      [
        addData(ms, [
          { user: "u", item: "rok", qty: 1 },
          { user: "u", item: "tas", qty: 2 },
          { user: "u", item: "rok", qty: 3 },
        ]),
        advanceClock(1000), // batch 0 at t=1000: timer at 11 000
        checkNewRows([]),
        advanceClock(5000), // no-data batches every trigger (Spark's rule for processing-time timers); not due yet
        checkNewRows([]),
        stopStream(),
        startStream({ clock }),
        // As in Spark, a restarted query runs no no-data batch before its first data batch.
        advanceClock(6000),
        checkNewRows([]),
        addData(ms, [{ user: "v", item: "rok", qty: 1 }]),
        advanceClock(1000), // t=13 000: the timer restored from the checkpoint fires after v's rows
        checkNewRows([
          { user: "u", item: "rok", qty: 4 },
          { user: "u", item: "tas", qty: 2 },
        ]),
        advanceClock(9000), // t=22 000: v's timer (23 000) is not due yet
        checkNewRows([]),
        advanceClock(1000), // t=23 000: due (expiry <= the batch time, as PySpark fires timers)
        checkNewRows([{ user: "v", item: "rok", qty: 1 }]),
      ],
      { trigger: { processingTime: "1 second" }, clock },
    );
  });

  it("TTL: a value unread past its TTL is gone, and cleaned from the store", async () => {
    class Seen extends StatefulProcessor {
      private last!: ValueState;
      init(h: StatefulProcessorHandle) {
        this.last = h.getValueState("last", "n INT", 5000);
      }
      *handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[]) {
        const before = this.last.get();
        this.last.update({ n: rows.length });
        yield { k: key[0], before: (before?.n as number | undefined) ?? null };
      }
    }
    const ms = session.memoryStream("k STRING");
    const df = ms.toDF().groupBy("k").transformWithState(new Seen(), "k STRING, before INT", "update", "processingTime");
    const clock = new ManualClock(0);
    await testStream(
      df,
      "update",
      [
        addData(ms, [{ k: "a" }, { k: "b" }]),
        advanceClock(1000), // t=1000: expires at 6000
        checkNewRows([
          { k: "a", before: null },
          { k: "b", before: null },
        ]),
        addData(ms, [{ k: "a" }]),
        advanceClock(4000), // t=5000: a still live; a re-stamped to 10 000
        checkNewRows([{ k: "a", before: 1 }]),
        advanceClock(1000), // t=6000: b expired (6000 <= 6000), removed in this (no-data) batch
        assertOnQuery((q) => {
          assert.equal(stateOp(q).customMetrics.numValuesRemovedDueToTTLExpiry, 1);
          assert.equal(stateOp(q).numRowsTotal, 1);
        }),
        addData(ms, [{ k: "b" }]),
        advanceClock(1000),
        checkNewRows([{ k: "b", before: null }]),
      ],
      { trigger: { processingTime: "1 second" }, clock },
    );
  });
});

describe("transformWithState: bad input", () => {
  it("a processor that throws fails the query with the key and batch; a restart re-runs the batch", async () => {
    let explode = true;
    class Fragile extends RunningCount {
      override *handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[]) {
        if (explode && key[0] === "boom") throw new Error("kaboom");
        yield* super.handleInputRows(key, rows);
      }
    }
    const ms = session.memoryStream("k STRING");
    const df = ms.toDF().groupBy("k").transformWithState(new Fragile(), "key STRING, count BIGINT", "update", "none");
    await testStream(df, "update", [
      addData(ms, [{ k: "a" }]),
      checkNewRows([{ key: "a", count: 1 }]),
      addData(ms, [{ k: "a" }, { k: "boom" }]),
      expectFailure(/handleInputRows failed for key \["boom"\] in batch 1: kaboom/),
      execute(() => {
        explode = false;
      }),
      startStream(),
      checkNewRows([
        { key: "a", count: 2 },
        { key: "boom", count: 1 },
      ]),
    ]);
  });

  it("registerTimer in time mode none", async () => {
    const ms = session.memoryStream("k STRING");
    const p = {
      init() {},
      handleInputRows(_k: readonly unknown[], _r: readonly ProcessorRow[]) {
        (this as unknown as { h: StatefulProcessorHandle }).h.registerTimer(5);
        return [];
      },
    };
    const proc = {
      h: null as unknown as StatefulProcessorHandle,
      init(h: StatefulProcessorHandle) {
        this.h = h;
      },
      handleInputRows: p.handleInputRows,
    };
    const df = ms.toDF().groupBy("k").transformWithState(proc, "k STRING", "update", "none");
    await testStream(df, "update", [
      addData(ms, [{ k: "a" }]),
      expectFailure(/STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE.*register_timer/s),
    ]);
  });

  it("event-time mode without a watermark is refused at start", async () => {
    const ms = session.memoryStream("k STRING");
    const df = ms.toDF().groupBy("k").transformWithState(new RunningCount(), "key STRING, count BIGINT", "update", "eventTime");
    await testStream(df, "update", [expectFailure(/timeMode "eventTime" needs a watermark/)]);
  });

  it("output rows must match the declared schema", async () => {
    const ms = session.memoryStream("k STRING");
    const proc = {
      init() {},
      handleInputRows: (key: readonly unknown[]) => [{ key: key[0], cnt: 1 }],
    };
    const df = ms.toDF().groupBy("k").transformWithState(proc, "key STRING, count BIGINT", "update", "none");
    await testStream(df, "update", [
      addData(ms, [{ k: "a" }]),
      expectFailure(/output row: the row has a field "cnt" that the schema \(key, count\) does not declare/),
    ]);
  });

  it("a changed state variable is refused on restart, naming the variable", async () => {
    const ms = session.memoryStream("k STRING");
    const make = (schema: string) =>
      ms
        .toDF()
        .groupBy("k")
        .transformWithState(
          {
            init(h: StatefulProcessorHandle) {
              h.getValueState("count", schema);
            },
            handleInputRows: () => [],
          },
          "k STRING",
          "update",
          "none",
        );
    const dir = mkdtempSync(path.join(tmpdir(), "arus-tws-schema-"));
    try {
      await testStream(make("value BIGINT"), "update", [addData(ms, [{ k: "a" }]), checkNewRows([])], { checkpointLocation: dir });
      await testStream(
        make("value STRING"),
        "update",
        [expectFailure(/state variable "count" changed from value<struct<value:bigint>> to value<struct<value:string>>/)],
        { checkpointLocation: dir },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
