/**
 * Spare files (src/checkpoint/spare-files.ts): a checkpoint folder written more than once gets
 * an empty file made ahead, which the next atomic write takes as its temp file instead of
 * creating one; a stopped query leaves none behind, a crash's leftovers are swept (the logs'
 * folders' when a query starts, a state folder's with its temp files), and the output is the same.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { SPARE_NAME_RE, SpareFiles } from "../../src/checkpoint/spare-files.js";
import { functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tempDir = tempDirsSync("arus-spares-");
const spares = (dir: string) => readdirSync(dir).filter((f) => SPARE_NAME_RE.test(f));

/** Every spare file anywhere under `root`. */
function sparesUnder(root: string): string[] {
  const found: string[] = [];
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true }))
    if (e.isFile() && SPARE_NAME_RE.test(e.name)) found.push(path.join(e.parentPath, e.name));
  return found;
}

describe("spare files", () => {
  it("a folder's second write makes a spare, and the third write takes it", async () => {
    const dir = tempDir();
    const pool = new SpareFiles();
    assert.equal(pool.claim(path.join(dir, ".0.a.tmp")), false, "first write: nothing made ahead");
    await pool.made();
    assert.deepEqual(spares(dir), [], "a folder written once gets no spare");
    assert.equal(pool.claim(path.join(dir, ".1.a.tmp")), false);
    await pool.made();
    const [spare] = spares(dir);
    assert.ok(spare, "the second write made one");
    assert.ok(pool.holds(path.join(dir, spare)));
    const tmp = path.join(dir, ".2.a.tmp");
    assert.equal(pool.claim(tmp), true);
    assert.equal(statSync(tmp).size, 0, "the temp file is the spare, empty");
    assert.ok(!existsSync(path.join(dir, spare)), "renamed, not copied");
    await pool.made();
    assert.equal(spares(dir).length, 1, "and the next one is made");
  });

  it("a spare deleted meanwhile is skipped: the caller creates its file", async () => {
    const dir = tempDir();
    const pool = new SpareFiles();
    pool.claim(path.join(dir, ".0.tmp"));
    pool.claim(path.join(dir, ".1.tmp"));
    await pool.made();
    for (const f of spares(dir)) rmSync(path.join(dir, f));
    const tmp = path.join(dir, ".2.tmp");
    assert.equal(pool.claim(tmp), false);
    assert.ok(!existsSync(tmp));
  });

  it("retention's old files become spares while the folder has room, and are deleted after", async () => {
    const dir = tempDir();
    const pool = new SpareFiles();
    const old = [0, 1, 2, 3].map((i) => path.join(dir, String(i)));
    for (const f of old) writeFileSync(f, `entry ${f}`);
    await pool.recycle(old[0]!);
    assert.ok(!existsSync(old[0]!), "deleted: the folder is not being written");
    assert.deepEqual(spares(dir), []);
    pool.claim(path.join(dir, ".4.tmp"));
    pool.claim(path.join(dir, ".5.tmp")); // the second write makes a spare
    await pool.made();
    await pool.recycle(old[1]!);
    await pool.recycle(old[2]!);
    assert.ok(!existsSync(old[1]!) && !existsSync(old[2]!));
    assert.equal(spares(dir).length, 2, "one made, one recycled: the folder is full");
    // a recycled spare is written over with truncation
    const tmp = path.join(dir, ".6.tmp");
    assert.equal(pool.claim(tmp), true);
    writeFileSync(tmp, "new");
    assert.equal(readFileSync(tmp, "utf8"), "new");
    await pool.drain(dir);
    assert.deepEqual(spares(dir), []);
    await pool.recycle(old[3]!);
    assert.ok(!existsSync(old[3]!), "deleted: the drained folder starts over");
    assert.deepEqual(spares(dir), []);
  });

  it("drain deletes the spares under a folder only", async () => {
    const a = tempDir();
    const b = tempDir();
    const pool = new SpareFiles();
    for (const dir of [path.join(a, "x"), b]) {
      mkdirSync(dir, { recursive: true });
      pool.claim(path.join(dir, ".0.tmp"));
      pool.claim(path.join(dir, ".1.tmp"));
    }
    await pool.drain(a);
    assert.deepEqual(sparesUnder(a), []);
    await pool.made();
    assert.equal(spares(b).length, 1, "another folder keeps its spare");
    await pool.drain();
    assert.deepEqual(spares(b), []);
  });

  for (const threads of [null, "2"]) {
    it(`a query's checkpoint folders use spares while it runs and keep none after stop (state threads: ${threads ?? "default"})`, async () => {
      const session = Session.builder()
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate();
      if (threads) session.conf.set("arus.state.threads", threads);
      else session.conf.unset("arus.state.threads");
      session.conf.set("spark.sql.streaming.minBatchesToRetain", "3"); // retention (and recycling) from batch 3
      const dir = tempDir();
      const out: string[] = [];
      const ms = session.memoryStream("k STRING, ts TIMESTAMP");
      const start = () =>
        ms
          .toDF()
          .withWatermark("ts", "1 second")
          .groupBy(F.col("k"), F.window("ts", "2 seconds"))
          .agg(F.count("*").alias("n"))
          .writeStream.outputMode("append")
          .option("checkpointLocation", dir)
          .foreachBatch(async (df) => {
            for (const r of await df.collect()) out.push(`${r.k}@${(r.window as { start: Date }).start.getTime() / 1000}=${r.n}`);
          })
          .start();
      const q = await start();
      let running: string[];
      try {
        for (let b = 0; b < 6; b++) {
          ms.addData([
            { k: "a", ts: new Date(b * 2000) },
            { k: "b", ts: new Date(b * 2000 + 500) },
            { k: "a", ts: new Date(b * 2000 + 900) },
          ]);
          await q.processAllAvailable();
        }
        running = sparesUnder(dir).map((p) => path.relative(dir, p).split(path.sep)[0]!);
      } finally {
        await q.stop();
      }
      assert.ok(running.includes("offsets") && running.includes("commits"), `spares while running: ${running}`);
      assert.ok(running.filter((d) => d === "offsets").length <= 2, "at most two spares a folder");
      const kept = readdirSync(path.join(dir, "offsets")).filter((f) => !f.startsWith("."));
      assert.ok(!kept.includes("0") && kept.length <= 4, `retention ran (offsets kept: ${kept})`);
      assert.deepEqual(sparesUnder(dir), [], "none left after stop");
      // a crash's leftover in a state folder is swept by the restarted query
      const part = path.join(dir, "state", "0", "0");
      const leftover = path.join(part, ".spare.0123abcd-0000-4000-8000-000000000000.tmp");
      writeFileSync(leftover, "");
      // and those in the logs' folders when it starts, a recycled file's bytes in one
      const logLeftovers = ["offsets", "commits", path.join("state", "0", "_metadata", "writes")].map((d) =>
        path.join(dir, d, ".spare.4567cdef-0000-4000-8000-000000000000.tmp"),
      );
      for (const p of logLeftovers) writeFileSync(p, "v1\n{}");
      const q2 = await start();
      try {
        assert.deepEqual(
          logLeftovers.filter((p) => existsSync(p)),
          [],
          "the logs' leftover spares were swept at start",
        );
        for (let b = 6; b < 18; b++) {
          // maintenance (and its temp sweep) runs every 10 batches
          ms.addData([{ k: "a", ts: new Date(b * 2000) }]);
          await q2.processAllAvailable();
        }
      } finally {
        await q2.stop();
      }
      assert.ok(!existsSync(leftover), "the leftover spare was swept");
      assert.deepEqual(sparesUnder(dir), []);
      assert.deepEqual(out.slice(0, 4).sort(), ["a@0=2", "a@2=2", "b@0=1", "b@2=1"]);
      const last = (log: string) =>
        Math.max(
          ...readdirSync(path.join(dir, log))
            .filter((f) => /^\d+$/.test(f))
            .map(Number),
        );
      assert.equal(last("commits"), last("offsets"), "every batch committed");
      assert.ok(last("commits") >= 17);
      assert.match(readFileSync(path.join(dir, "commits", String(last("commits"))), "utf8"), /^v1\n\{"nextBatchWatermarkMs":\d+\}$/);
      session.conf.unset("spark.sql.streaming.minBatchesToRetain");
    });
  }
});
