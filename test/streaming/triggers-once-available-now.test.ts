/**
 * Triggers (semantics.md §5.1): Once runs exactly one batch with everything available (or the
 * uncommitted batch of the checkpoint) and ends; AvailableNow fixes the end offsets at start,
 * honours read limits, runs the trailing no-data batches the watermark asks for, then ends,
 * and falls back to a single batch when a source lacks AvailableNow support; processingTime
 * triggers fire at multiples of the interval and never replay missed slots.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { batchFromRows } from "../../src/columnar/batch.js";
import { registerSource } from "../../src/connectors/registry.js";
import type { Offset, ReadLimit, StreamSource } from "../../src/connectors/source.js";
import {
  addData,
  advanceClock,
  assertOnQuery,
  awaitTermination,
  checkAnswer,
  checkLastBatch,
  execute,
  ManualClock,
  startStream,
  stopStream,
  testStream,
  win,
} from "../../src/testing/index.js";
import { field, IntegerType, StructOf } from "../../src/types/datatypes.js";
import { sec, utcSession, windowedCount } from "./helpers.js";

const session = utcSession();
const batchIds = (q: { recentProgress: { batchId: number; numInputRows: number }[] }) =>
  q.recentProgress.map((p) => [p.batchId, p.numInputRows]);

/** A source of values 0..total-1, at most 2 per batch, that does not support AvailableNow (like Spark's `rate`). */
registerSource("test-two-per-batch", {
  schema: () => StructOf([field("v", IntegerType)]),
  create(options): StreamSource {
    const total = Number(options.total);
    return {
      description: "TwoPerBatch",
      schema: StructOf([field("v", IntegerType)]),
      supportsAvailableNow: false,
      defaultReadLimit: (): ReadLimit => ({ kind: "maxRows", max: 2 }),
      prepareForAvailableNow: async () => {},
      latestOffset: async (start: Offset | null) => Math.min(((start as number | null) ?? 0) + 2, total),
      getBatch: async (start: Offset | null, end: Offset) => {
        const from = (start as number | null) ?? 0;
        return [
          batchFromRows(
            [IntegerType],
            Array.from({ length: (end as number) - from }, (_, i) => [from + i]),
          ),
        ];
      },
      commit: async () => {},
      stop: async () => {},
    };
  },
});

describe("trigger once", () => {
  it("runs one batch with every available block, no trailing no-data batch, then ends", async () => {
    const { ms, df } = windowedCount(session, "5 seconds");
    await testStream(df, "append", [
      addData(ms, [{ ts: sec(1) }]),
      addData(ms, [{ ts: sec(30) }]),
      startStream({ trigger: { once: true } }),
      awaitTermination(),
      assertOnQuery((q) => {
        assert.deepEqual(batchIds(q), [[0, 2]]);
        assert.deepEqual([q.isActive, q.status.message], [false, "Stopped"]);
        assert.equal(q.currentWatermarkMs, 25_000);
      }),
      checkAnswer([]),
      // the next Once run has no new data and no previous plan: nothing runs, not even the no-data batch
      startStream(),
      awaitTermination(),
      assertOnQuery((q) => q.recentProgress.length === 0),
      addData(ms, [{ ts: sec(31) }]),
      startStream(),
      awaitTermination(),
      checkAnswer([{ window: win(0, 10_000), count: 1 }]), // evicted with W = :25 in the data batch
    ]);
  });

  it("runs the checkpoint's uncommitted batch, and only that one", async () => {
    const ms = session.memoryStream("v INT");
    await testStream(ms.toDF(), "append", [
      addData(ms, [{ v: 1 }]),
      checkAnswer([{ v: 1 }]),
      stopStream(),
      execute((_q, ctx) => rm(path.join(ctx.checkpointLocation, "commits", "0"))),
      addData(ms, [{ v: 2 }]),
      startStream({ trigger: { once: true } }),
      awaitTermination(),
      assertOnQuery((q, ctx) => {
        assert.deepEqual(batchIds(q), [[0, 1]]);
        assert.deepEqual(ctx.replayedBatchIds, [0]);
      }),
      startStream(),
      awaitTermination(),
      checkAnswer([{ v: 1 }, { v: 2 }]),
    ]);
  });
});

describe("trigger availableNow", () => {
  it("processes what was there at start, runs the trailing no-data batch, then ends", async () => {
    const { ms, df } = windowedCount(session, "5 seconds");
    await testStream(df, "append", [
      addData(ms, [{ ts: sec(1) }]),
      addData(ms, [{ ts: sec(30) }]),
      startStream({ trigger: { availableNow: true } }),
      awaitTermination(),
      assertOnQuery((q) =>
        assert.deepEqual(batchIds(q), [
          [0, 2],
          [1, 0],
        ]),
      ),
      checkAnswer([{ window: win(0, 10_000), count: 1 }]),
    ]);
  });

  it("honours read limits: one file per batch with maxFilesPerTrigger = 1", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arus-available-now-"));
    after(() => rm(dir, { recursive: true, force: true }));
    for (let i = 0; i < 3; i++) writeFileSync(path.join(dir, `part-${i}.json`), `{"v":${i}}\n`);
    const df = session.readStream.format("json").schema("v INT").option("maxFilesPerTrigger", 1).load(dir);
    await testStream(df, "append", [
      startStream({ trigger: { availableNow: true } }),
      awaitTermination(),
      assertOnQuery((q) =>
        assert.deepEqual(batchIds(q), [
          [0, 1],
          [1, 1],
          [2, 1],
        ]),
      ),
      checkAnswer([{ v: 0 }, { v: 1 }, { v: 2 }]),
    ]);
  });

  it("falls back to a single batch when a source does not support AvailableNow (Spark 4.0)", async () => {
    const df = session.readStream.format("test-two-per-batch").option("total", 5).load();
    await testStream(df, "append", [
      startStream({ trigger: { availableNow: true } }),
      awaitTermination(),
      assertOnQuery((q) => assert.equal(q.recentProgress.length, 1, `batches: ${JSON.stringify(batchIds(q))}`)),
    ]);
  });
});

describe("trigger processingTime", () => {
  it("fires at multiples of the interval since the epoch and does not replay missed slots", async () => {
    const ms = session.memoryStream("v INT");
    const clock = new ManualClock(1_500);
    await testStream(
      ms.toDF(),
      "append",
      [
        addData(ms, [{ v: 1 }]),
        advanceClock(499), // 1 999: before the 2 000 slot
        checkAnswer([]),
        advanceClock(1), // 2 000
        checkLastBatch([{ v: 1 }]),
        assertOnQuery((q) => q.lastProgress!.timestamp === "1970-01-01T00:00:02.000Z"),
        addData(ms, [{ v: 2 }]),
        advanceClock(5_500), // 7 500: slots 3 000 .. 7 000 were missed; one trigger runs now
        checkLastBatch([{ v: 2 }]),
        assertOnQuery((q) => q.lastProgress!.timestamp === "1970-01-01T00:00:07.500Z" && q.recentProgress.length === 2),
        addData(ms, [{ v: 3 }]),
        advanceClock(499), // 7 999
        checkAnswer([{ v: 1 }, { v: 2 }]),
        advanceClock(1), // 8 000
        checkLastBatch([{ v: 3 }]),
      ],
      { trigger: { processingTime: "1 second" }, clock },
    );
  });

  it("rejects invalid trigger specs", () => {
    const w = session.memoryStream("v INT").toDF().writeStream;
    assert.throws(() => w.trigger({ once: true, availableNow: true }), /Only one trigger can be set: pass exactly one of/);
    assert.throws(() => w.trigger({ processingTime: "-1 second" }), /must be non-negative/);
    assert.throws(() => w.trigger({ continuous: "1 second" }), /Continuous processing is not supported/);
  });
});
