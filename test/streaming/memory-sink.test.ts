/**
 * The memory sink (semantics.md §13): `format("memory").queryName(t)` keeps committed batches
 * readable as `session.table(t)`; append and update add each batch's rows, complete keeps only
 * the latest batch; a batch id at or below the last stored one is ignored (a replay after a
 * restart is not duplicated); the sink reports its true numOutputRows.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";
import { memorySink } from "../../src/api/streaming/sinks.js";
import { batchFromRows } from "../../src/columnar/batch.js";
import type { SinkBatch } from "../../src/connectors/source.js";
import { functions as F } from "../../src/index.js";
import {
  addData,
  assertOnQuery,
  checkAnswer,
  checkLastBatch,
  execute,
  startStream,
  stopStream,
  testStream,
} from "../../src/testing/index.js";
import { field, IntegerType, StructOf } from "../../src/types/datatypes.js";
import { utcSession } from "./helpers.js";

const session = utcSession();
const schema = StructOf([field("v", IntegerType)]);
const batchOf = (...vs: number[]): SinkBatch => ({
  names: ["v"],
  schema,
  batches: [
    batchFromRows(
      [IntegerType],
      vs.map((v) => [v]),
    ),
  ],
  outputMode: "append",
  timeZone: "UTC",
});
const values = async (table: string) => (await session.table(table).collect()).map((r) => r.v).sort();

describe("memory sink", () => {
  it("append: adds each batch; a replayed batch id is ignored", async () => {
    const sink = memorySink(session, "mem_append_unit", "append");
    await sink.addBatch(0, batchOf(1, 2));
    await sink.addBatch(1, batchOf(3));
    await sink.addBatch(1, batchOf(3)); // re-executed batch 1
    await sink.addBatch(0, batchOf(9)); // even with different rows: ignored
    assert.deepEqual(await values("mem_append_unit"), [1, 2, 3]);
  });

  it("complete: each batch replaces the table", async () => {
    const sink = memorySink(session, "mem_complete_unit", "complete");
    await sink.addBatch(0, batchOf(1, 2));
    await sink.addBatch(1, batchOf(5));
    await sink.addBatch(1, batchOf(7));
    assert.deepEqual(await values("mem_complete_unit"), [5]);
  });

  it("end to end: append, update and complete queries, with the sink's progress fields", async () => {
    const ms = session.memoryStream("k STRING");
    const counts = ms.toDF().groupBy("k").count();
    const upd = await counts.writeStream.format("memory").queryName("mem_upd").outputMode("update").start();
    const cmp = await counts.writeStream.format("memory").queryName("mem_cmp").outputMode("complete").start();
    const app = await ms.toDF().writeStream.format("memory").queryName("mem_app").start();
    after(() => Promise.all([upd, cmp, app].map((q) => q.stop())));
    const run = async () => Promise.all([upd, cmp, app].map((q) => q.processAllAvailable()));
    ms.addData([{ k: "a" }, { k: "b" }]);
    await run();
    ms.addData([{ k: "a" }]);
    await run();
    const rows = async (t: string) => (await session.table(t).collect()).map((r) => `${r.k}${r.count ?? ""}`).sort();
    assert.deepEqual(await rows("mem_upd"), ["a1", "a2", "b1"]);
    assert.deepEqual(await rows("mem_cmp"), ["a2", "b1"]);
    assert.deepEqual(await rows("mem_app"), ["a", "a", "b"]);
    assert.deepEqual(
      [upd, cmp, app].map((q) => [q.lastProgress!.sink.description, q.lastProgress!.sink.numOutputRows]),
      [
        ["MemorySink", 1],
        ["MemorySink", 2],
        ["MemorySink", 1],
      ],
    );
    await Promise.all([upd, cmp, app].map((q) => q.stop()));
  });

  it("needs a queryName", async () => {
    const ms = session.memoryStream("k STRING");
    await assert.rejects(ms.toDF().writeStream.format("memory").start(), /queryName must be specified for memory sink/);
  });

  it("a restarted query under the same name replaces the table (Spark re-creates the temp view)", async () => {
    const ms = session.memoryStream("v INT");
    const q1 = await ms.toDF().writeStream.format("memory").queryName("mem_restart").start();
    ms.addData([{ v: 1 }]);
    await q1.processAllAvailable();
    await q1.stop();
    const q2 = await ms.toDF().select(F.col("v").multiply(10).alias("v")).writeStream.format("memory").queryName("mem_restart").start();
    ms.addData([{ v: 2 }]);
    await q2.processAllAvailable();
    await q2.stop();
    // q2 has no checkpoint, so it starts over, reads both blocks and writes into a fresh sink
    assert.deepEqual(await values("mem_restart"), [10, 20]);
  });

  it("the table exists, empty, as soon as the query starts", async () => {
    const ms = session.memoryStream("v INT");
    const q = await ms.toDF().writeStream.format("memory").queryName("mem_empty").start();
    try {
      await q.processAllAvailable();
      assert.deepEqual(await session.table("mem_empty").collect(), []);
    } finally {
      await q.stop();
    }
  });

  it("a batch re-executed after a restart (commit lost) reaches the sink again and is ignored", async () => {
    const ms = session.memoryStream("ts TIMESTAMP, k STRING");
    const df = ms.toDF().groupBy("k").agg(F.count("*").alias("n"));
    await testStream(df, "update", [
      addData(ms, [{ ts: new Date(0), k: "a" }]),
      checkLastBatch([{ k: "a", n: 1 }]),
      addData(ms, [{ ts: new Date(0), k: "a" }]),
      checkLastBatch([{ k: "a", n: 2 }]),
      stopStream(),
      // lose commits/1: on restart batch 1 runs again with the same offsets (state version 1 -> 2)
      execute(async (q, ctx) => {
        await rm(path.join(ctx.checkpointLocation, "commits", String(q.lastProgress!.batchId)));
      }, "delete the last commit"),
      startStream(),
      assertOnQuery((q, ctx) => {
        assert.deepEqual(ctx.replayedBatchIds, [1]);
        assert.equal(q.lastProgress!.batchId, 1);
      }),
      addData(ms, [{ ts: new Date(0), k: "a" }]),
      checkLastBatch([{ k: "a", n: 3 }]),
      checkAnswer([
        { k: "a", n: 1 },
        { k: "a", n: 2 },
        { k: "a", n: 3 },
      ]),
    ]);
  });
});
