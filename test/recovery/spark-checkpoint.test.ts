// A checkpoint that Apache Spark wrote (files as PySpark 4.3.0 writes them, copied from a real
// run): a query without state continues where Spark stopped — its offsets, commits and file
// source log are Spark's layout —; a query with state is refused at start with a message naming
// Spark's operator metadata, and nothing in the checkpoint changes (arus crashed with
// "before is not iterable" reading Spark's `state/<op>/_metadata/metadata`).
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { pathToFileURL } from "node:url";
import { type DataFrame, functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tmp = tempDirsSync("arus-spark-ckpt-");
const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();

/** Input files part-0 and part-1, and a checkpoint in which Spark ran batch 0 over part-0. */
function sparkCheckpoint(withState: boolean): { input: string; ckpt: string } {
  const root = tmp();
  const input = path.join(root, "in");
  mkdirSync(input);
  for (const i of [0, 1]) {
    const f = path.join(input, `part-${i}.json`);
    writeFileSync(f, `{"k":${i},"t":"2024-01-01 00:00:${i}0"}\n{"k":${i + 100},"t":"2024-01-01 00:00:${i}1"}\n`);
    utimesSync(f, 1_700_000_000 + i * 10, 1_700_000_000 + i * 10);
  }
  const ckpt = path.join(root, "ckpt");
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(ckpt, rel)), { recursive: true });
    writeFileSync(path.join(ckpt, rel), text);
  };
  put("metadata", '{"id":"e75b5c79-3621-45db-946b-856c11af7b96"}');
  const conf = {
    "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider",
    "spark.sql.streaming.multipleWatermarkPolicy": "min",
    "spark.sql.streaming.aggregation.stateFormatVersion": "2",
    "spark.sql.shuffle.partitions": "2",
    "spark.sql.streaming.join.stateFormatVersion": "2",
    "spark.sql.streaming.stateStore.compression.codec": "lz4",
  };
  put("offsets/0", `v1\n${JSON.stringify({ batchWatermarkMs: 0, batchTimestampMs: 1796604883668, conf })}\n{"logOffset":0}`);
  put("commits/0", withState ? 'v1\n{"nextBatchWatermarkMs":1704067196000}' : 'v1\n{"nextBatchWatermarkMs":0}');
  put(
    "sources/0/0",
    `v1\n${JSON.stringify({ path: pathToFileURL(path.join(input, "part-0.json")).href, timestamp: 1_700_000_000_000, batchId: 0 })}`,
  );
  if (withState) {
    put(
      "state/0/_metadata/metadata",
      'v1\n{"operatorInfo":{"operatorId":0,"operatorName":"stateStoreSave"},"stateStoreInfo":[{"storeName":"default","numColsPrefixKey":0,"numPartitions":2}]}',
    );
    put("state/0/0/1.delta", "\u0000\u0000\u0000\u0000"); // Spark's own format (not read)
  }
  return { input, ckpt };
}

async function run(df: DataFrame, ckpt: string): Promise<[number, number[]][]> {
  const got: [number, number[]][] = [];
  const q = await df.writeStream
    .foreachBatch(async (b, id) => {
      got.push([id, (await b.collect()).map((r) => r.k as number).sort((x, y) => x - y)]);
    })
    .option("checkpointLocation", ckpt)
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  return got;
}

it("a stateless query continues a Spark checkpoint at the next batch and file", async () => {
  const { input, ckpt } = sparkCheckpoint(false);
  const df = s.readStream.schema("k INT, t TIMESTAMP").option("maxFilesPerTrigger", 1).json(input);
  assert.deepEqual(await run(df, ckpt), [[1, [1, 101]]]);
  assert.deepEqual(readdirSync(path.join(ckpt, "commits")).sort(), ["0", "1"]);
});

it("a query with state is refused by name, the checkpoint left as it was", async () => {
  const { input, ckpt } = sparkCheckpoint(true);
  const df = s.readStream
    .schema("k INT, t TIMESTAMP")
    .option("maxFilesPerTrigger", 1)
    .json(input)
    .withWatermark("t", "5 seconds")
    .groupBy(F.window("t", "10 seconds"))
    .count();
  await assert.rejects(run(df, ckpt), (e: Error & { errorClass?: string }) => {
    assert.equal(e.errorClass, "STATE_WRITTEN_BY_SPARK");
    assert.match(e.message, /written by Apache Spark .*state\/0\/_metadata\/metadata is Spark's operator metadata/);
    return true;
  });
  assert.deepEqual(readdirSync(path.join(ckpt, "offsets")), ["0"]);
  assert.deepEqual(readdirSync(path.join(ckpt, "commits")), ["0"]);
  assert.deepEqual(readdirSync(path.join(ckpt, "state", "0", "_metadata")), ["metadata"]);
});
