/**
 * foreachBatch after a failure (in process; crash.test.ts does the same with SIGKILL): the batch
 * whose function failed is handed over again after the restart with the same batch id, the
 * same rows and the same current_timestamp(), and nothing after it runs twice.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const root = mkdtempSync(join(tmpdir(), "arus-feb-"));
after(() => rmSync(root, { recursive: true, force: true }));

describe("foreachBatch replay after a failed batch", () => {
  it("delivers the failed batch again: same id, same rows, same batch timestamp", async () => {
    const input = join(root, "in");
    const ckpt = join(root, "ckpt");
    mkdirSync(input);
    for (let i = 0; i < 4; i++) {
      const p = join(input, `f${i}.json`);
      writeFileSync(p, `${[0, 1, 2].map((j) => JSON.stringify({ v: i * 10 + j })).join("\n")}\n`);
      utimesSync(p, new Date(1_700_000_000_000 + i * 1000), new Date(1_700_000_000_000 + i * 1000));
    }
    const session = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
    const seen: { run: number; batchId: number; rows: string[] }[] = [];
    const start = (run: number, failAt: number | null) =>
      session.readStream
        .format("json")
        .schema("v LONG")
        .option("maxFilesPerTrigger", 1)
        .load(input)
        .withColumn("at", F.current_timestamp())
        .writeStream.option("checkpointLocation", ckpt)
        .trigger({ availableNow: true })
        .foreachBatch(async (df, batchId) => {
          const rows = (await df.collect()).map((r) => `${r.v}@${(r.at as Date).toISOString()}`).sort();
          seen.push({ run, batchId, rows });
          if (batchId === failAt) throw new Error(`downstream unavailable in batch ${batchId}`);
        })
        .start();

    const q1 = await start(1, 2);
    await assert.rejects(q1.awaitTermination(), /downstream unavailable in batch 2/);
    const q2 = await start(2, null);
    assert.equal(q2.id, q1.id);
    await q2.awaitTermination();

    assert.deepEqual(
      seen.map((s) => `${s.run}:${s.batchId}`),
      ["1:0", "1:1", "1:2", "2:2", "2:3"],
    );
    const [first, again] = seen.filter((s) => s.batchId === 2);
    assert.deepEqual(again!.rows, first!.rows, "same rows and the same current_timestamp()");
    assert.equal(first!.rows.length, 3);
  });
});
