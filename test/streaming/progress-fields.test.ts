/**
 * StreamingQueryProgress (semantics.md §5.4, §6): the per-batch counts (numInputRows, the
 * stateOperators row counts), eventTime (watermark = W(N), min/max/avg only with data), key
 * order, rates on a manual clock, recentProgress retention, idle entries and listener events.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamingQueryProgress } from "../../src/index.js";
import {
  addData,
  advanceClock,
  assertOnQuery,
  checkLastBatch,
  execute,
  ManualClock,
  processAllAvailable,
  startStream,
  stopStream,
  testStream,
  win,
} from "../../src/testing/index.js";
import { iso, sec, stateOp, utcSession, windowedCount } from "./helpers.js";

const session = utcSession();
const tick = advanceClock(1000);
const manual = { trigger: { processingTime: "1 second" } } as const;

/** [numRowsTotal, numRowsUpdated, numRowsRemoved, numRowsDroppedByWatermark] of the last batch. */
const counts = (q: Parameters<typeof stateOp>[0]) => {
  const op = stateOp(q);
  return [op.numRowsTotal, op.numRowsUpdated, op.numRowsRemoved, op.numRowsDroppedByWatermark];
};

describe("progress fields", () => {
  it("counts rows in and state rows batch by batch (append windowed count)", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(
      df,
      "append",
      [
        addData(ms, [{ ts: sec(1) }, { ts: sec(2) }, { ts: sec(15) }]),
        tick,
        assertOnQuery((q) => {
          const p = q.lastProgress!;
          assert.equal(p.numInputRows, 3);
          assert.equal(p.sources[0]!.numInputRows, 3);
          assert.deepEqual(counts(q), [2, 2, 0, 0]);
          assert.deepEqual(p.eventTime, { avg: iso(6), max: iso(15), min: iso(1), watermark: iso(0) });
          assert.equal(p.sink.numOutputRows, 0);
        }, "batch 0"),
        tick, // watermark :05: no-data batch, nothing to evict yet ([:00,:10) ends at :10)
        assertOnQuery(
          (q) =>
            q.lastProgress!.numInputRows === 0 &&
            q.lastProgress!.eventTime!.watermark === iso(5) &&
            Object.keys(q.lastProgress!.eventTime!).length === 1,
        ),
        addData(ms, [{ ts: sec(3) }, { ts: sec(4) }, { ts: sec(25) }]),
        tick, // W = :05, late filter :05: [:00,:10) is not late; updated groups: [:00,:10) and [:20,:30)
        assertOnQuery((q) => assert.deepEqual(counts(q), [3, 2, 0, 0])),
        tick, // W = :15: evicts [:00,:10)
        assertOnQuery((q) => {
          assert.deepEqual(counts(q), [2, 0, 1, 0]);
          assert.equal(q.lastProgress!.sink.numOutputRows, 1);
        }),
        checkLastBatch([{ window: win(0, 10_000), count: 4 }]),
        addData(ms, [{ ts: sec(6) }, { ts: sec(7) }, { ts: sec(8) }, { ts: sec(16) }]),
        tick, // three late raw rows in one window: one dropped group; [:10,:20) updated
        assertOnQuery((q) => {
          assert.deepEqual(counts(q), [2, 1, 0, 1]);
          assert.equal(q.lastProgress!.arus?.numLateInputRows, 3, "arus counts the raw late rows");
        }),
      ],
      manual,
    );
  });

  it("uses Spark's key order, operator fields, timestamps and rates on a manual clock", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(
      df,
      "update",
      [
        addData(ms, [{ ts: sec(1) }, { ts: sec(2) }]),
        tick,
        assertOnQuery((q) => {
          const p = q.lastProgress!;
          const keys = Object.keys(p).filter((k) => k !== "arus");
          assert.deepEqual(keys, [
            "id",
            "runId",
            "name",
            "timestamp",
            "batchId",
            "batchDuration",
            "numInputRows",
            "inputRowsPerSecond",
            "processedRowsPerSecond",
            "durationMs",
            "eventTime",
            "stateOperators",
            "sources",
            "sink",
          ]);
          assert.equal(p.timestamp, "1970-01-01T00:00:01.000Z");
          assert.equal(p.batchDuration, 0);
          // input time = 1 s since the previous trigger; processing time = max(1, 0) ms
          assert.deepEqual([p.inputRowsPerSecond, p.processedRowsPerSecond], [2, 2000]);
          assert.deepEqual(Object.keys(p.durationMs!), [...Object.keys(p.durationMs!)].sort());
          for (const k of ["addBatch", "commitOffsets", "getBatch", "latestOffset", "queryPlanning", "triggerExecution", "walCommit"])
            assert.ok(k in p.durationMs!, `durationMs.${k}`);
          const op = p.stateOperators[0]!;
          assert.deepEqual(Object.keys(op).slice(0, 11), [
            "operatorName",
            "numRowsTotal",
            "numRowsUpdated",
            "allUpdatesTimeMs",
            "numRowsRemoved",
            "allRemovalsTimeMs",
            "commitTimeMs",
            "memoryUsedBytes",
            "numRowsDroppedByWatermark",
            "numShufflePartitions",
            "numStateStoreInstances",
          ]);
          assert.deepEqual([op.operatorName, op.numShufflePartitions, op.numStateStoreInstances], ["stateStoreSave", 2, 2]);
          assert.deepEqual(
            [p.sources[0]!.description, p.sources[0]!.startOffset, p.sources[0]!.endOffset],
            ["MemoryStream[ts#timestamp]", null, 0],
          );
        }),
      ],
      manual,
    );
  });

  it("a stateless query without a watermark has no eventTime and no stateOperators", async () => {
    const ms = session.memoryStream("v INT");
    await testStream(ms.toDF().filter("v > 1"), "append", [
      addData(ms, [{ v: 1 }, { v: 2 }]),
      assertOnQuery((q) => {
        const p = q.lastProgress!;
        assert.equal(p.eventTime, undefined);
        assert.deepEqual(p.stateOperators, []);
        assert.deepEqual([p.numInputRows, p.sink.numOutputRows], [2, 1]);
      }),
    ]);
  });

  it("keeps id across restarts, a new runId per start, and at most numRecentProgressUpdates - 1 entries", async () => {
    const ms = session.memoryStream("v INT");
    let first = { id: "", runId: "" };
    await testStream(
      ms.toDF(),
      "append",
      [
        addData(ms, [{ v: 1 }]),
        execute((q) => {
          first = { id: q.id, runId: q.runId };
        }),
        stopStream(),
        startStream(),
        assertOnQuery((q) => q.id === first.id && q.runId !== first.runId),
        ...[2, 3, 4, 5].flatMap((v) => [addData(ms, [{ v }]), processAllAvailable()]),
        assertOnQuery((q) => {
          assert.deepEqual(
            q.recentProgress.map((p) => p.batchId),
            [3, 4],
          );
          assert.equal(q.lastProgress, q.recentProgress.at(-1));
        }),
      ],
      { conf: { "spark.sql.streaming.numRecentProgressUpdates": 3 } },
    );
  });

  it("idle triggers add an entry at most every noDataProgressEventInterval, posted as onQueryIdle", async () => {
    const { ms, df } = windowedCount(session);
    const events: string[] = [];
    const idle: StreamingQueryProgress[] = [];
    const listener = {
      onQueryProgress: (e: { progress: StreamingQueryProgress }) => events.push(`progress ${e.progress.batchId}`),
      onQueryIdle: (e: { progress: StreamingQueryProgress }) => {
        events.push(`idle ${e.progress.batchId}`);
        idle.push(e.progress);
      },
    };
    session.streams.addListener(listener);
    try {
      await testStream(
        df,
        "append",
        [
          addData(ms, [{ ts: sec(30) }]),
          tick, // batch 0 at t = 1 s
          tick, // batch 1 (no-data, watermark :20) at t = 2 s
          ...Array.from({ length: 9 }, () => tick), // idle triggers up to t = 11 s: < 10 s since the last progress
          assertOnQuery(() => assert.deepEqual(events, ["progress 0", "progress 1"])),
          tick, // t = 12 s: 10 s after the last progress
          assertOnQuery((q) => {
            assert.deepEqual(events, ["progress 0", "progress 1", "idle 2"]);
            assert.equal(q.lastProgress, idle[0]);
          }),
          tick,
          assertOnQuery(() => events.length === 3, "the next idle entry waits another 10 s"),
        ],
        manual,
      );
    } finally {
      session.streams.removeListener(listener);
    }
    const p = idle[0]!;
    assert.deepEqual([p.batchId, p.numInputRows, p.sink.numOutputRows], [2, 0, 0]);
    assert.deepEqual(p.eventTime, { watermark: iso(20) });
    assert.deepEqual(
      [p.stateOperators[0]!.numRowsTotal, p.stateOperators[0]!.numRowsUpdated, p.stateOperators[0]!.numRowsDroppedByWatermark],
      [1, 0, 0],
    );
    assert.deepEqual(Object.keys(p.durationMs!).sort(), ["latestOffset", "triggerExecution"]);
  });

  it("posts started, progress and terminated events to listeners", async () => {
    const ms = session.memoryStream("v INT");
    const events: string[] = [];
    const listener = {
      onQueryStarted: () => events.push("started"),
      onQueryProgress: () => events.push("progress"),
      onQueryTerminated: (e: { exception: string | null }) => events.push(`terminated ${e.exception}`),
    };
    session.streams.addListener(listener);
    const clock = new ManualClock(0);
    try {
      await testStream(ms.toDF(), "append", [addData(ms, [{ v: 1 }]), tick, stopStream()], { ...manual, clock });
    } finally {
      session.streams.removeListener(listener);
    }
    assert.deepEqual(events, ["started", "progress", "terminated null"]);
  });
});
