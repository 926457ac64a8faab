// Progress `sources[].latestOffset` as Spark 4.3 reports it (checked with PySpark 4.3.0): a source
// with admission control reports what its reportLatestOffset says — nothing for the file source
// and rate-micro-batch (null), the newest offsets for Kafka (kafka tests) —, a source without
// it (memory, rate) its batch's end. arus reported the batch's end for every source.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { DataFrame, StreamingQueryProgress } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";
import { utcSession } from "./helpers.js";

const tmp = tempDirsSync("arus-latest-offset-");
const s = utcSession();

async function progress(df: DataFrame): Promise<StreamingQueryProgress[]> {
  const q = await df.writeStream
    .format("memory")
    .queryName(`latest_${Math.random().toString(36).slice(2)}`)
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  return [...q.recentProgress];
}

it("file source and rate-micro-batch report no latestOffset; a memory stream its batch's end", async () => {
  const dir = tmp();
  mkdirSync(path.join(dir, "in"));
  writeFileSync(path.join(dir, "in", "a.json"), '{"k": 1}\n');
  const files = await progress(s.readStream.schema("k INT").json(path.join(dir, "in")));
  assert.deepEqual(
    files.map((p) => [p.sources[0]!.endOffset, p.sources[0]!.latestOffset]),
    [[{ logOffset: 0 }, null]],
  );
  const rate = await progress(s.readStream.format("rate-micro-batch").option("rowsPerBatch", 5).load());
  assert.deepEqual(
    rate.map((p) => [p.sources[0]!.endOffset, p.sources[0]!.latestOffset]),
    [[{ offset: 5, timestamp: 1000 }, null]],
  );
  const ms = s.memoryStream("k INT");
  ms.addData([{ k: 1 }, { k: 2 }]);
  const mem = await progress(ms.toDF());
  assert.deepEqual(
    mem.map((p) => [p.sources[0]!.endOffset, p.sources[0]!.latestOffset]),
    [[0, 0]],
  );
});
