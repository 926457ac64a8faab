/**
 * flatMapGroupsWithState / mapGroupsWithState with GroupState (Spark's FlatMapGroupsWithStateExec
 * rules, semantics.md §2.6): timeouts by processing time and event time, state removal, the
 * output-mode rules, and the GroupState misuse errors.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GroupState, ProcessorRow } from "../../src/index.js";
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
} from "../../src/testing/index.js";
import { sec, stateOp, utcSession } from "../streaming/helpers.js";

const session = utcSession();

describe("flatMapGroupsWithState", () => {
  it("ProcessingTimeTimeout: a session closes 10 s after its last event, by the manual clock", async () => {
    const ms = session.memoryStream("user STRING");
    const df = ms
      .toDF()
      .groupBy("user")
      .flatMapGroupsWithState(
        (key, rows, state: GroupState) => {
          if (state.hasTimedOut) {
            const n = state.get.n as number;
            state.remove();
            return [{ user: key[0], events: n, closed: true }];
          }
          const n = ((state.getOption?.n as number | undefined) ?? 0) + rows.length;
          state.update({ n });
          state.setTimeoutDuration("10 seconds");
          return [{ user: key[0], events: n, closed: false }];
        },
        "user STRING, events INT, closed BOOLEAN",
        "n INT",
        "update",
        "ProcessingTimeTimeout",
      );
    const clock = new ManualClock(0);
    await testStream(
      df,
      "update",
      [
        addData(ms, [{ user: "a" }, { user: "a" }]),
        advanceClock(1000), // t=1000: timeout at 11 000
        checkNewRows([{ user: "a", events: 2, closed: false }]),
        addData(ms, [{ user: "a" }]),
        advanceClock(5000), // t=6000: data again, timeout moves to 16 000
        checkNewRows([{ user: "a", events: 3, closed: false }]),
        advanceClock(6000), // t=12 000: the old 11 000 timeout was replaced, nothing fires
        checkNewRows([]),
        stopStream(),
        startStream({ clock }),
        addData(ms, [{ user: "b" }]),
        advanceClock(5000), // t=17 000: a restart keeps the timeout; b's batch times a out after b
        checkNewRows([
          { user: "b", events: 1, closed: false },
          { user: "a", events: 3, closed: true },
        ]),
        assertOnQuery((q) => {
          const op = stateOp(q);
          assert.equal(op.operatorName, "flatMapGroupsWithState");
          assert.equal(op.numRowsTotal, 1); // b's state row (its value and timeout, as Spark counts a key); a's is gone
        }),
      ],
      { trigger: { processingTime: "1 second" }, clock },
    );
  });

  it("EventTimeTimeout: fires once the watermark passes it; late rows are dropped", async () => {
    const ms = session.memoryStream("k STRING, ts TIMESTAMP");
    const df = ms
      .toDF()
      .withWatermark("ts", "5 seconds")
      .groupBy("k")
      .flatMapGroupsWithState(
        function* (key, rows, state: GroupState) {
          if (state.hasTimedOut) {
            yield { k: key[0], n: state.get.n as number, wm: state.getCurrentWatermarkMs() };
            state.remove();
            return;
          }
          const maxTs = Math.max(...rows.map((r) => (r.ts as Date).getTime()));
          state.update({ n: ((state.getOption?.n as number | undefined) ?? 0) + rows.length });
          state.setTimeoutTimestamp(maxTs + 1000);
        },
        "k STRING, n INT, wm BIGINT",
        "n INT",
        "append",
        "EventTimeTimeout",
      );
    await testStream(df, "append", [
      addData(ms, [
        { k: "a", ts: sec(10) },
        { k: "a", ts: sec(12) },
      ]),
      checkNewRows([]), // timeout 13 s; watermark 7 s
      addData(ms, [{ k: "b", ts: sec(19) }]), // watermark -> 14 s: a times out in the no-data batch
      checkNewRows([{ k: "a", n: 2, wm: 14_000 }]),
      addData(ms, [{ k: "a", ts: sec(1) }]), // late (<= 14 s): dropped
      checkNewRows([]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsDroppedByWatermark, 1)),
    ]);
  });

  it("mapGroupsWithState: one row per key, update mode only", async () => {
    const ms = session.memoryStream("k STRING, v INT");
    const df = ms
      .toDF()
      .groupBy("k")
      .mapGroupsWithState(
        (key, rows, state: GroupState) => {
          const total = ((state.getOption?.total as number | undefined) ?? 0) + rows.reduce((a, r) => a + (r.v as number), 0);
          state.update({ total });
          return { k: key[0], total };
        },
        "k STRING, total INT",
        "total INT",
      );
    await testStream(df, "update", [
      addData(ms, [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 5 },
      ]),
      checkNewRows([
        { k: "a", total: 3 },
        { k: "b", total: 5 },
      ]),
      addData(ms, [{ k: "a", v: 4 }]),
      checkNewRows([{ k: "a", total: 7 }]),
    ]);
    await testStream(df, "append", [expectFailure(/mapGroupsWithState is not supported with Append output mode/)]);
  });
});

describe("flatMapGroupsWithState: bad input", () => {
  const run = (fn: (key: readonly unknown[], rows: readonly ProcessorRow[], s: GroupState) => ProcessorRow[], timeout = "NoTimeout") => {
    const ms = session.memoryStream("k STRING, ts TIMESTAMP");
    const df = ms
      .toDF()
      .withWatermark("ts", "1 second")
      .groupBy("k")
      .flatMapGroupsWithState(fn, "k STRING", "n INT", "update", timeout as "NoTimeout");
    return { ms, df };
  };

  it("setTimeoutDuration without ProcessingTimeTimeout", async () => {
    const { ms, df } = run((_k, _r, s) => {
      s.setTimeoutDuration(1000);
      return [];
    });
    await testStream(df, "update", [
      addData(ms, [{ k: "a", ts: sec(1) }]),
      expectFailure(/Cannot set timeout duration without enabling processing time timeout/),
    ]);
  });

  it("a timeout timestamp behind the watermark", async () => {
    const { ms, df } = run((_k, rows, s) => {
      if (s.hasTimedOut) return [];
      s.update({ n: 1 });
      s.setTimeoutTimestamp((rows[0]!.ts as Date).getTime() - 60_000);
      return [];
    }, "EventTimeTimeout");
    await testStream(df, "update", [
      addData(ms, [{ k: "a", ts: sec(100) }]),
      checkNewRows([]), // watermark -> 99 s; the 40 s timeout fires in the no-data batch
      addData(ms, [{ k: "a", ts: sec(120) }]), // 60 s < the watermark
      expectFailure(/cannot be earlier than the current watermark/),
    ]);
  });

  it("get without state, and output mode mismatch", async () => {
    const { ms, df } = run((_k, _r, s) => [{ k: String(s.get.n) }]);
    await testStream(df, "update", [
      addData(ms, [{ k: "a", ts: sec(1) }]),
      expectFailure(/State is either not defined or has already been removed/),
    ]);
    await testStream(df, "append", [expectFailure(/flatMapGroupsWithState in update mode is not supported with Append output mode/)]);
  });

  it("event-time timeout without a watermark", async () => {
    const ms = session.memoryStream("k STRING");
    const df = ms
      .toDF()
      .groupBy("k")
      .flatMapGroupsWithState(() => [], "k STRING", "n INT", "update", "EventTimeTimeout");
    await testStream(df, "update", [expectFailure(/Watermark must be specified in the query/)]);
  });
});
