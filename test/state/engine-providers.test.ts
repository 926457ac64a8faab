// Both providers behind real queries: a windowed aggregation, dropDuplicates and a session
// window produce the same output and state metrics with either provider, across a restart from
// the checkpoint; the provider class is sticky (the checkpoint's wins) and unknown ones are refused.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const MEMORY = "arus.state.MemoryStateStoreProvider";
const LMDB = "arus.state.LmdbStateStoreProvider";
const lmdbAvailable = await import("lmdb").then(
  () => true,
  () => false,
);

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const dirs: string[] = [];
const ckpt = () => {
  const d = mkdtempSync(path.join(tmpdir(), "arus-state-engine-"));
  dirs.push(d);
  return d;
};
const at = (sec: number) => new Date(sec * 1000);

type Shape = "window" | "dedupe" | "session";

/** Run the query over two runs (restart in between) and return its output rows and state metrics. */
async function run(provider: string, shape: Shape, dir: string): Promise<{ rows: string[]; totals: number[] }> {
  s.conf.set("spark.sql.streaming.stateStore.providerClass", provider);
  const rows: string[] = [];
  const totals: number[] = [];
  const ms = s.memoryStream("k STRING, ts TIMESTAMP, v INT");
  const start = () => {
    const df = ms.toDF().withWatermark("ts", "5 seconds");
    const q =
      shape === "window"
        ? df.groupBy(F.window("ts", "10 seconds"), "k").agg(F.count("*").alias("n"), F.sum("v").alias("s"))
        : shape === "dedupe"
          ? df.dropDuplicates(["k", "ts"])
          : df.groupBy(F.session_window("ts", "3 seconds"), "k").agg(F.count("*").alias("n"));
    return q.writeStream
      .outputMode(shape === "window" ? "update" : "append")
      .option("checkpointLocation", dir)
      .foreachBatch(async (batch) => {
        for (const r of await batch.collect()) rows.push(JSON.stringify(r));
      })
      .start();
  };
  const feed = [
    [
      { k: "a", ts: at(1), v: 1 },
      { k: "b", ts: at(2), v: 2 },
      { k: "a", ts: at(1), v: 3 },
    ],
    [
      { k: "a", ts: at(4), v: 4 },
      { k: "c", ts: at(12), v: 5 },
    ],
    [
      { k: "b", ts: at(25), v: 6 },
      { k: "a", ts: at(26), v: 7 },
    ],
    [
      { k: "a", ts: at(27), v: 8 },
      { k: "d", ts: at(40), v: 9 },
    ],
  ];
  const q1 = await start();
  for (const b of feed.slice(0, 2)) {
    ms.addData(b);
    await q1.processAllAvailable();
    totals.push(q1.lastProgress!.stateOperators[0]!.numRowsTotal);
  }
  await q1.stop();
  const q2 = await start();
  for (const b of feed.slice(2)) {
    ms.addData(b);
    await q2.processAllAvailable();
    totals.push(q2.lastProgress!.stateOperators[0]!.numRowsTotal);
  }
  await q2.stop();
  return { rows: rows.sort(), totals };
}

describe("state store providers behind queries", { skip: lmdbAvailable ? false : "the lmdb package is not installed" }, () => {
  after(() => {
    s.conf.set("spark.sql.streaming.stateStore.providerClass", MEMORY);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  for (const shape of ["window", "dedupe", "session"] as const) {
    it(`${shape}: lmdb gives the memory provider's output and state counts, across a restart`, async () => {
      const memory = await run(MEMORY, shape, ckpt());
      const dir = ckpt();
      const lmdb = await run(LMDB, shape, dir);
      assert.ok(memory.rows.length > 0);
      assert.deepEqual(lmdb, memory);
      const part = path.join(dir, "state", "0", "0");
      assert.ok(existsSync(path.join(part, "lmdb", "data.mdb")), "the lmdb environment is under the partition's state dir");
      assert.ok(
        readdirSync(part).some((f) => /^\d+\.delta$/.test(f)),
        "the checkpoint still gets delta files",
      );
    });
  }

  it("the provider class is sticky: a restart keeps the checkpoint's provider", async () => {
    const dir = ckpt();
    s.conf.set("spark.sql.streaming.stateStore.providerClass", LMDB);
    const ms = s.memoryStream("k STRING");
    const start = () =>
      ms.toDF().groupBy("k").count().writeStream.format("noop").outputMode("update").option("checkpointLocation", dir).start();
    const q1 = await start();
    ms.addData([{ k: "a" }]);
    await q1.processAllAvailable();
    await q1.stop();
    s.conf.set("spark.sql.streaming.stateStore.providerClass", MEMORY);
    const q2 = await start();
    ms.addData([{ k: "b" }]);
    await q2.processAllAvailable();
    assert.equal(q2.lastProgress!.stateOperators[0]!.numRowsTotal, 2);
    await q2.stop();
    assert.ok(existsSync(path.join(dir, "state", "0", "0", "lmdb")) || existsSync(path.join(dir, "state", "0", "1", "lmdb")));
  });

  it("Spark's RocksDB class name selects the lmdb provider; an unknown class is refused", async () => {
    const dir = ckpt();
    s.conf.set("spark.sql.streaming.stateStore.providerClass", "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider");
    const ms = s.memoryStream("k STRING");
    const q = await ms
      .toDF()
      .groupBy("k")
      .count()
      .writeStream.format("noop")
      .outputMode("update")
      .option("checkpointLocation", dir)
      .start();
    ms.addData([{ k: "a" }, { k: "b" }]);
    await q.processAllAvailable();
    await q.stop();
    assert.ok(readdirSync(path.join(dir, "state", "0")).some((p) => existsSync(path.join(dir, "state", "0", p, "lmdb"))));
    s.conf.set("spark.sql.streaming.stateStore.providerClass", "com.example.Nope");
    const ms2 = s.memoryStream("k STRING");
    await assert.rejects(async () => {
      const q2 = await ms2
        .toDF()
        .groupBy("k")
        .count()
        .writeStream.format("noop")
        .outputMode("update")
        .option("checkpointLocation", ckpt())
        .start();
      ms2.addData([{ k: "a" }]);
      await q2.processAllAvailable();
      await q2.stop();
    }, /Unknown state store provider 'com.example.Nope'/);
    s.conf.set("spark.sql.streaming.stateStore.providerClass", MEMORY);
  });
});
