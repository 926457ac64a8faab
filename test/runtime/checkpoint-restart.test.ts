import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tmpCkpt = tempDirsSync("arus-ckpt-");

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const ckpt = () => tmpCkpt();
const at = (sec: number) => new Date(sec * 1000);

describe("checkpoint layout and restart", () => {
  it("writes Spark's layout and resumes a windowed aggregation with its state", async () => {
    const dir = ckpt();
    const out: unknown[][] = [];
    const start = async (ms: ReturnType<typeof s.memoryStream>) =>
      ms
        .toDF()
        .withWatermark("ts", "5 seconds")
        .groupBy(F.window("ts", "10 seconds"))
        .agg(F.count("*").alias("n"))
        .writeStream.outputMode("append")
        .option("checkpointLocation", dir)
        .foreachBatch(async (df, id) => {
          out.push([id, ...(await df.collect()).map((r) => `${(r.window as { start: Date }).start.toISOString()}=${r.n}`)]);
        })
        .start();
    const ms1 = s.memoryStream("ts TIMESTAMP");
    const q1 = await start(ms1);
    ms1.addData([{ ts: at(1) }, { ts: at(2) }]);
    await q1.processAllAvailable();
    await q1.stop();
    for (const d of ["offsets", "commits", "state"]) assert.ok(existsSync(path.join(dir, d)), d);
    assert.match(readFileSync(path.join(dir, "metadata"), "utf8"), /^\{"id":"[0-9a-f-]{36}"\}$/);
    assert.match(
      readFileSync(path.join(dir, "offsets", "0"), "utf8"),
      /^v1\n\{"batchWatermarkMs":0,"batchTimestampMs":\d+,"conf":\{.*"spark.sql.shuffle.partitions":"2".*\}\}\n0$/,
    );
    // Spark's commit entry, byte for byte; which state stores wrote a file is arus's own record.
    assert.equal(readFileSync(path.join(dir, "commits", "0"), "utf8"), 'v1\n{"nextBatchWatermarkMs":0}');
    assert.equal(readFileSync(path.join(dir, "state", "0", "_metadata", "writes", "0"), "utf8"), 'v1\n{"0":"0"}');
    assert.ok(readdirSync(path.join(dir, "state", "0")).includes("_metadata"));

    // As in Spark's StreamTest, the same in-process MemoryStream feeds the restarted query.
    const ms2 = ms1;
    const q2 = await start(ms2);
    assert.equal(q2.id, q1.id);
    assert.notEqual(q2.runId, q1.runId);
    ms2.addData([{ ts: at(3) }]);
    ms2.addData([{ ts: at(30) }]);
    await q2.processAllAvailable();
    await q2.stop();
    assert.deepEqual(
      out.flatMap((b) => b.slice(1)),
      ["1970-01-01T00:00:00.000Z=3"],
    );
  });

  it("refuses a restart whose stateful operator changed, listing what changed", async () => {
    const dir = ckpt();
    const ms = s.memoryStream("k STRING, ts TIMESTAMP");
    const q = await ms
      .toDF()
      .groupBy("k")
      .count()
      .writeStream.format("noop")
      .outputMode("update")
      .option("checkpointLocation", dir)
      .start();
    ms.addData([{ k: "a", ts: at(1) }]);
    await q.processAllAvailable();
    await q.stop();
    const ms2 = s.memoryStream("k STRING, ts TIMESTAMP");
    await assert.rejects(
      ms2
        .toDF()
        .groupBy("k", "ts")
        .agg(F.sum(F.lit(1)))
        .writeStream.format("noop")
        .outputMode("update")
        .option("checkpointLocation", dir)
        .start(),
      (e: Error) =>
        /operator 0 \(stateStoreSave, as recorded in [^)]*\) key column "ts" was added/.test(e.message) &&
        /new checkpointLocation/.test(e.message),
    );
  });

  it("refuses a second active query on the same checkpoint", async () => {
    const dir = ckpt();
    const ms = s.memoryStream("k STRING");
    const q = await ms.toDF().writeStream.format("noop").option("checkpointLocation", dir).start();
    await assert.rejects(
      ms.toDF().writeStream.format("noop").option("checkpointLocation", dir).start(),
      /CONCURRENT_QUERY|already active|in use/,
    );
    await q.stop();
  });

  it("names a corrupt offset file instead of skipping it", async () => {
    const dir = ckpt();
    const ms = s.memoryStream("k STRING");
    const q = await ms.toDF().writeStream.format("noop").option("checkpointLocation", dir).start();
    ms.addData([{ k: "a" }]);
    await q.processAllAvailable();
    await q.stop();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(dir, "offsets", "0"), "v7\n{}");
    await assert.rejects(
      s.memoryStream("k STRING").toDF().writeStream.format("noop").option("checkpointLocation", dir).start(),
      (e: Error) => e.message.includes(path.join(dir, "offsets", "0")) && /newer version/.test(e.message),
    );
  });
});
