/**
 * Restarting a windowed aggregation from its checkpoint (semantics.md §1.5, §7.5, §8): the
 * state of open windows is reloaded from the state files, the watermark comes back from the
 * offset/commit logs, an uncommitted batch is re-run with exactly its recorded offsets,
 * watermark and timestamp, and a restarted query asks for no no-data batch until data arrives.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import {
  addData,
  advanceClock,
  assertOnQuery,
  checkAnswer,
  checkLastBatch,
  checkNewRows,
  execute,
  expectFailure,
  ManualClock,
  startStream,
  stopStream,
  testStream,
  win,
} from "../../src/testing/index.js";
import { dataBatchOp, iso, sec, stateOp, utcSession, windowedCount } from "./helpers.js";

const session = utcSession();
const tick = advanceClock(1000);

describe("restart a windowed aggregation from its checkpoint", () => {
  it("reloads open windows from the state files and keeps counting them", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(df, "append", [
      addData(ms, [{ ts: sec(1) }, { ts: sec(2) }, { ts: sec(11) }]),
      checkAnswer([]),
      assertOnQuery((q, ctx) => {
        assert.equal(stateOp(q).numRowsTotal, 2);
        // arus writes a partition's delta only when it changed (Spark writes one every batch)
        const dir = path.join(ctx.checkpointLocation, "state", "0");
        const files = readdirSync(dir).flatMap((p) => (/^\d+$/.test(p) ? readdirSync(path.join(dir, p)) : []));
        assert.ok(files.includes("1.delta"), `state files: ${files.join(", ")}`);
      }),
      stopStream(),
      startStream(),
      addData(ms, [{ ts: sec(3) }, { ts: sec(12) }]),
      assertOnQuery((q) => assert.equal(stateOp(q).numRowsTotal, 2, "the reloaded windows were updated, not re-created")),
      addData(ms, [{ ts: sec(40) }]),
      checkAnswer([
        { window: win(0, 10_000), count: 3 },
        { window: win(10_000, 20_000), count: 2 },
      ]),
      stopStream(),
      startStream(),
      addData(ms, [{ ts: sec(45) }, { ts: sec(4) }]), // :04 is late: the watermark (:30) survived the restart
      checkNewRows([]),
      assertOnQuery((q) => {
        assert.equal(q.recentProgress[0]!.eventTime!.watermark, iso(30));
        assert.equal(dataBatchOp(q).numRowsDroppedByWatermark, 1);
      }),
    ]);
  });

  it("restores the watermark from the commit log and runs no no-data batch after a restart until data arrives", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(
      df,
      "append",
      [
        addData(ms, [{ ts: sec(5) }, { ts: sec(25) }]),
        tick, // batch 0; the watermark becomes :15, the no-data batch that would emit [:00,:10) is due next tick
        stopStream(),
        startStream(),
        tick,
        tick,
        assertOnQuery((q, ctx) => {
          assert.equal(q.lastProgress, null, "no batch ran after the restart");
          assert.equal(q.currentWatermarkMs, 15_000);
          assert.deepEqual(
            ctx.sinkBatches.map((b) => b.batchId),
            [0],
          );
        }),
        addData(ms, [{ ts: sec(26) }]),
        tick, // batch 1 evicts with W = :15 restored from commits/0
        checkLastBatch([{ window: win(0, 10_000), count: 1 }]),
        assertOnQuery((q) => q.lastProgress!.batchId === 1 && q.lastProgress!.eventTime!.watermark === iso(15)),
      ],
      { trigger: { processingTime: "1 second" } },
    );
  });

  it("re-runs an uncommitted batch with its recorded offsets and watermark, without double counting", async () => {
    const { ms, df } = windowedCount(session);
    let offsetsText = "";
    await testStream(
      df,
      "update",
      [
        addData(ms, [{ ts: sec(1) }]),
        tick, // batch 0
        addData(ms, [{ ts: sec(2) }, { ts: sec(30) }]),
        tick, // batch 1
        stopStream(),
        execute(async (_q, ctx) => {
          offsetsText = readFileSync(path.join(ctx.checkpointLocation, "offsets", "1"), "utf8");
          await rm(path.join(ctx.checkpointLocation, "commits", "1"));
        }, "lose commits/1"),
        addData(ms, [{ ts: sec(3) }]), // must not leak into the re-run of batch 1
        advanceClock(5000),
        startStream(),
        assertOnQuery((q, ctx) => {
          const p = q.recentProgress[0]!;
          assert.deepEqual([p.batchId, p.numInputRows, p.eventTime!.watermark], [1, 2, iso(0)]);
          assert.equal(readFileSync(path.join(ctx.checkpointLocation, "offsets", "1"), "utf8"), offsetsText);
          assert.deepEqual(ctx.replayedBatchIds, [1]);
        }),
        tick,
        checkLastBatch([{ window: win(0, 10_000), count: 3 }]),
      ],
      { trigger: { processingTime: "1 second" } },
    );
  });

  it("re-runs an uncommitted batch with its recorded batch timestamp (current_timestamp() is stable)", async () => {
    const ms = session.memoryStream("v INT");
    const dir = mkdtempSync(path.join(tmpdir(), "arus-restart-ts-"));
    const clock = new ManualClock(1_000);
    const seen: string[] = [];
    const start = () =>
      ms
        .toDF()
        .select("v", F.current_timestamp().alias("now"))
        .writeStream.option("checkpointLocation", dir)
        .trigger({ once: true })
        .withClock(clock)
        .foreachBatch(async (df, id) => {
          for (const r of await df.collect()) seen.push(`${id}:${r.v}@${(r.now as Date).toISOString()}`);
        })
        .start();
    try {
      ms.addData([{ v: 1 }]);
      await (await start()).awaitTermination();
      await rm(path.join(dir, "commits", "0"));
      clock.advance(60_000);
      await (await start()).awaitTermination();
      assert.deepEqual(seen, ["0:1@1970-01-01T00:00:01.000Z", "0:1@1970-01-01T00:00:01.000Z"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a restart with other shuffle partitions than the checkpoint recorded (arus: Spark silently keeps the old count)", async () => {
    const { ms, df } = windowedCount(session);
    await testStream(df, "update", [
      addData(ms, [{ ts: sec(1) }]),
      checkLastBatch([{ window: win(0, 10_000), count: 1 }]),
      stopStream(),
      startStream({ conf: { "spark.sql.shuffle.partitions": 5 } }),
      expectFailure(/spark.sql.shuffle.partitions is 5 but checkpoint .* was written with 2/),
      startStream({ conf: { "spark.sql.shuffle.partitions": 2 } }),
      addData(ms, [{ ts: sec(2) }]),
      checkLastBatch([{ window: win(0, 10_000), count: 2 }]),
      assertOnQuery((q) => stateOp(q).numShufflePartitions === 2),
    ]);
  });
});
