/**
 * File-source lag without Kafka: a file source with maxFilesPerTrigger reports the files and
 * bytes it listed but has not read yet in progress `arus.sourceBacklog`, and /metrics exports
 * them as arus_streaming_source_lag{unit="files"|"bytes"}.
 */
import assert from "node:assert/strict";
import { statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { prometheusMetrics, Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const tempDir = tempDirs("arus-file-lag-");
const session = new Session({ "spark.app.name": "file-lag", "spark.ui.enabled": "false", "spark.sql.session.timeZone": "UTC" });
after(() => session.stop());

it("reports files and bytes behind, and they shrink as triggers read them", async () => {
  const dir = await tempDir();
  const files = [0, 1, 2, 3].map((i) => {
    const f = path.join(dir, `part-${i}.json`);
    writeFileSync(f, `${JSON.stringify({ n: i, pad: "x".repeat(i * 10) })}\n`);
    return f;
  });
  const q = await session.readStream
    .format("json")
    .schema("n INT, pad STRING")
    .option("maxFilesPerTrigger", 1)
    .load(dir)
    .writeStream.format("memory")
    .queryName("file_lag")
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  const data = q.recentProgress.filter((p) => p.numInputRows > 0);
  assert.equal(data.length, 4);
  const size = (i: number) => statSync(files[i]!).size;
  assert.deepEqual(
    data.map((p) => p.arus?.sourceBacklog),
    [
      [{ files: 3, bytes: size(1) + size(2) + size(3) }],
      [{ files: 2, bytes: size(2) + size(3) }],
      [{ files: 1, bytes: size(3) }],
      [{ files: 0, bytes: 0 }],
    ],
  );
  const text = await prometheusMetrics(session);
  assert.match(text, /arus_streaming_source_lag\{[^}]*query_name="file_lag"[^}]*unit="files"\} 0/);
  assert.match(text, /arus_streaming_source_lag\{[^}]*query_name="file_lag"[^}]*unit="bytes"\} 0/);
});
