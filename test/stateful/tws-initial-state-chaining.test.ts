/**
 * transformWithState's initial state (read in the first batch only), chaining a stateful
 * operator after it through eventTimeColumnName, TTL on list and map state, and
 * transformWithState on a batch DataFrame.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  functions as F,
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
  expectFailure,
  ManualClock,
  startStream,
  stopStream,
  testStream,
  win,
} from "../../src/testing/index.js";
import { sec, stateOp, utcSession } from "../streaming/helpers.js";

const session = utcSession();

class CountFrom extends StatefulProcessor {
  private count!: ValueState;
  init(h: StatefulProcessorHandle) {
    this.count = h.getValueState("count", "n BIGINT");
  }
  override handleInitialState(_key: readonly unknown[], initial: ProcessorRow) {
    this.count.update({ n: initial.start });
  }
  *handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[]) {
    const n = ((this.count.get()?.n as number | undefined) ?? 0) + rows.length;
    this.count.update({ n });
    yield { k: key[0], n };
  }
}

describe("transformWithState initial state", () => {
  it("seeds state in the first batch only; later restarts do not re-apply it", async () => {
    const initial = session.createDataFrame(
      [
        { user: "a", start: 100 },
        { user: "z", start: 7 },
      ],
      "user STRING, start BIGINT",
    );
    const ms = session.memoryStream("k STRING");
    const df = ms.toDF().groupBy("k").transformWithState(new CountFrom(), "k STRING, n BIGINT", "update", "none", initial.groupBy("user"));
    await testStream(df, "update", [
      addData(ms, [{ k: "a" }, { k: "b" }]),
      checkNewRows([
        { k: "a", n: 101 },
        { k: "b", n: 1 },
      ]),
      stopStream(),
      startStream(),
      addData(ms, [{ k: "a" }, { k: "z" }]),
      checkNewRows([
        { k: "a", n: 102 },
        { k: "z", n: 8 },
      ]),
    ]);
  });

  it("two initial rows for one key, and mismatched key types, are errors", async () => {
    const dup = session.createDataFrame(
      [
        { user: "a", start: 1 },
        { user: "a", start: 2 },
      ],
      "user STRING, start BIGINT",
    );
    const ms = session.memoryStream("k STRING");
    const df = ms.toDF().groupBy("k").transformWithState(new CountFrom(), "k STRING, n BIGINT", "update", "none", dup.groupBy("user"));
    await testStream(df, "update", [addData(ms, [{ k: "a" }]), expectFailure(/STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY/)]);
    assert.throws(
      () => ms.toDF().groupBy("k").transformWithState(new CountFrom(), "k STRING, n BIGINT", "update", "none", dup.groupBy("start")),
      /initial state is grouped by \(BIGINT\) but the input by \(STRING\)/,
    );
  });
});

describe("chaining after transformWithState", () => {
  class Sessions extends StatefulProcessor {
    private last!: ValueState;
    private h!: StatefulProcessorHandle;
    init(h: StatefulProcessorHandle) {
      this.h = h;
      this.last = h.getValueState("last", "ts TIMESTAMP");
    }
    handleInputRows(_key: readonly unknown[], rows: readonly ProcessorRow[]) {
      const max = Math.max(...rows.map((r) => (r.ts as Date).getTime()));
      this.last.update({ ts: new Date(max) });
      for (const t of [...this.h.listTimers()]) this.h.deleteTimer(t);
      this.h.registerTimer(max + 3000);
      return [];
    }
    override *handleExpiredTimer(key: readonly unknown[], tv: TimerValues) {
      // the session is emitted at the watermark that closed it (never behind it)
      yield { user: key[0], ended: new Date(tv.getCurrentWatermarkInMs() + 1) };
      this.last.clear();
    }
  }

  it("an aggregation over eventTimeColumnName counts the emitted rows per window", async () => {
    const ms = session.memoryStream("user STRING, ts TIMESTAMP");
    const closed = ms
      .toDF()
      .withWatermark("ts", "1 second")
      .groupBy("user")
      .transformWithState(new Sessions(), "user STRING, ended TIMESTAMP", "append", "eventTime", null, "ended");
    const perWindow = closed.groupBy(F.window("ended", "10 seconds")).count();
    await testStream(perWindow, "append", [
      addData(ms, [
        { user: "a", ts: sec(1) },
        { user: "b", ts: sec(2) },
      ]),
      checkNewRows([]),
      addData(ms, [{ user: "c", ts: sec(9) }]), // watermark 8 s: a and b close (ended 8.001 s)
      checkNewRows([]),
      addData(ms, [{ user: "d", ts: sec(30) }]), // watermark 29 s: c closes (ended 29.001 s); [0, 10) is final
      checkNewRows([{ window: win(0, 10_000), count: 2 }]),
      assertOnQuery((q) => assert.equal(q.lastProgress!.stateOperators.length, 2)),
    ]);
  });

  it("a row emitted behind the watermark fails the query", async () => {
    const ms = session.memoryStream("user STRING, ts TIMESTAMP");
    const stale = {
      init() {},
      handleInputRows: (key: readonly unknown[]) => [{ user: key[0], ended: new Date(5000) }],
    };
    const df = ms
      .toDF()
      .withWatermark("ts", "1 second")
      .groupBy("user")
      .transformWithState(stale, "user STRING, ended TIMESTAMP", "append", "eventTime", null, "ended");
    await testStream(df, "append", [
      addData(ms, [{ user: "a", ts: sec(10) }]),
      checkNewRows([{ user: "a", ended: new Date(5000) }]), // watermark 0: nothing is behind it yet
      addData(ms, [{ user: "b", ts: sec(20) }]),
      expectFailure(/EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED/),
    ]);
  });
});

describe("TTL on list and map state", () => {
  it("expires each element by its own stamp", async () => {
    class Recent extends StatefulProcessor {
      private list!: ListState;
      private map!: MapState;
      init(h: StatefulProcessorHandle) {
        this.list = h.getListState("seen", "v INT", 3000);
        this.map = h.getMapState("byV", "v INT", "at BIGINT", 3000);
      }
      *handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[], tv: TimerValues) {
        for (const r of rows) {
          this.list.appendValue({ v: r.v });
          this.map.updateValue({ v: r.v }, { at: tv.getCurrentProcessingTimeInMs() });
        }
        yield {
          k: key[0],
          list: [...this.list.get()].map((r) => r.v as number).join(","),
          keys: [...this.map.keys()].map((r) => r.v as number).join(","),
        };
      }
    }
    const ms = session.memoryStream("k STRING, v INT");
    const df = ms.toDF().groupBy("k").transformWithState(new Recent(), "k STRING, list STRING, keys STRING", "update", "processingTime");
    const clock = new ManualClock(0);
    await testStream(
      df,
      "update",
      [
        addData(ms, [{ k: "a", v: 1 }]),
        advanceClock(1000), // t=1000: v=1 expires at 4000
        checkNewRows([{ k: "a", list: "1", keys: "1" }]),
        addData(ms, [{ k: "a", v: 2 }]),
        advanceClock(2000), // t=3000
        checkNewRows([{ k: "a", list: "1,2", keys: "1,2" }]),
        addData(ms, [{ k: "a", v: 3 }]),
        advanceClock(1000), // t=4000: v=1 is gone from both
        checkNewRows([{ k: "a", list: "2,3", keys: "2,3" }]),
        assertOnQuery((q) => assert.equal(stateOp(q).customMetrics.numValuesRemovedDueToTTLExpiry, 2)),
      ],
      { trigger: { processingTime: "1 second" }, clock },
    );
  });
});

describe("transformWithState on a batch DataFrame", () => {
  it("runs the processor once over all rows", async () => {
    const df = session.createDataFrame([{ k: "a" }, { k: "a" }, { k: "b" }], "k STRING");
    const rows = await df.groupBy("k").transformWithState(new CountFrom(), "k STRING, n BIGINT", "update", "none").collect();
    assert.deepEqual(rows.map((r) => [r.k, Number(r.n)]).sort(), [
      ["a", 2],
      ["b", 1],
    ]);
  });
});
