// Issue 13 item 2: a file sink's manifest with a batch file deleted, or garbage in a batch or
// compact file, is an error naming that file, in the query and in read.json(out). It used to
// drop the batch's rows from every reader (and later compactions) or raise a bare SyntaxError.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { utcSession } from "../engine/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tmp = tempDirs("arus-manifest-");

/** A file sink with compactInterval 3 that committed batches 0..5 (2.compact and 5.compact). */
async function sinkOutput(): Promise<{ out: string; ckpt: string; run: (v: number) => Promise<void> }> {
  const root = await tmp();
  const out = path.join(root, "out");
  const ckpt = path.join(root, "ckpt");
  const ms = session.memoryStream("v INT");
  const run = async (v: number) => {
    const q = await ms
      .toDF()
      .writeStream.format("json")
      .option("path", out)
      .option("checkpointLocation", ckpt)
      .option("spark.sql.streaming.fileSink.log.compactInterval", "3")
      .start();
    try {
      ms.addData([{ v }]);
      await q.processAllAvailable();
    } finally {
      await q.stop();
    }
  };
  for (let v = 0; v < 7; v++) await run(v);
  return { out, ckpt, run };
}

const meta = (out: string, name: string) => path.join(out, "_spark_metadata", name);

describe("file sink manifest damage is named", () => {
  it("a batch file deleted from the middle: readers fail naming it", async () => {
    const { out } = await sinkOutput();
    assert.equal((await session.read.json(out).collect()).length, 7);
    rmSync(meta(out, "6"));
    writeFileSync(meta(out, "7"), readFileSync(meta(out, "3"))); // a later batch exists
    await assert.rejects(
      async () => session.read.json(out).collect(),
      (e: Error) => e.message.includes(meta(out, "6")),
    );
  });

  it("the newest batch file deleted: the next batch of the query fails naming it", async () => {
    const { out, run } = await sinkOutput();
    rmSync(meta(out, "6"));
    await assert.rejects(run(100), (e: Error) => e.message.includes(meta(out, "6")));
  });

  it("garbage in a batch file or a compact file names the file (query and read.json)", async () => {
    for (const victim of ["6", "5.compact"]) {
      const { out, run } = await sinkOutput();
      writeFileSync(meta(out, victim), 'v1\n{"path":"file:///x","action":"add"\n');
      await assert.rejects(
        async () => session.read.json(out).collect(),
        (e: Error) => e.message.includes(meta(out, victim)) && !/^SyntaxError/.test(e.message),
      );
      // the query reads the manifest at its next compaction (batch 8)
      await assert.rejects(
        async () => {
          await run(100);
          await run(101);
        },
        (e: Error) => e.message.includes(meta(out, victim)),
      );
    }
  });
});
