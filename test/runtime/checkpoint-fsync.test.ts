import assert from "node:assert/strict";
import fs, { readdirSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tmpFsync = tempDirsSync("arus-fsync-");
const tmpRetain = tempDirsSync("arus-retain-");

const at = (sec: number) => new Date(sec * 1000);

/** Runs `batches` one-row batches of a windowed count with a checkpoint; counts fdatasync calls meanwhile. */
async function run(_s: Session, ms: ReturnType<Session["memoryStream"]>, dir: string, batches: number, from: number) {
  const out: string[] = [];
  const q = await ms
    .toDF()
    .withWatermark("ts", "5 seconds")
    .groupBy(F.window("ts", "10 seconds"))
    .agg(F.count("*").alias("n"))
    .writeStream.outputMode("update")
    .option("checkpointLocation", dir)
    .foreachBatch(async (df) => {
      for (const r of await df.collect()) out.push(`${(r.window as { start: Date }).start.getTime() / 1000}=${r.n}`);
    })
    .start();
  // Every way the write path flushes a file: fdatasyncSync, fdatasync, FileHandle.datasync.
  const realSync = fs.fdatasyncSync;
  const realAsync = fs.fdatasync;
  const handle = await fs.promises.open(dir, "r");
  const FileHandle = Object.getPrototypeOf(handle) as { datasync(): Promise<void> };
  await handle.close();
  const realHandle = FileHandle.datasync;
  let syncs = 0;
  fs.fdatasyncSync = (fd) => {
    syncs++;
    realSync(fd);
  };
  (fs as { fdatasync: unknown }).fdatasync = (fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => {
    syncs++;
    realAsync(fd, cb);
  };
  FileHandle.datasync = function (this: unknown) {
    syncs++;
    return realHandle.call(this);
  };
  try {
    for (let i = 0; i < batches; i++) {
      ms.addData([{ ts: at(from + i) }]);
      await q.processAllAvailable();
    }
  } finally {
    fs.fdatasyncSync = realSync;
    (fs as { fdatasync: unknown }).fdatasync = realAsync;
    FileHandle.datasync = realHandle;
  }
  await q.stop();
  return { out, syncs, id: q.id };
}

const session = (fsync?: string) => {
  let b = Session.builder()
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.sql.streaming.minBatchesToRetain", "3");
  if (fsync !== undefined) b = b.config("arus.checkpoint.fsync", fsync);
  const s = b.getOrCreate();
  if (fsync !== undefined) s.conf.set("arus.checkpoint.fsync", fsync);
  else s.conf.unset("arus.checkpoint.fsync");
  return s;
};

describe("arus.checkpoint.fsync", () => {
  it("fdatasyncs every per-batch file by default, none with false; both restart from the checkpoint", async () => {
    for (const fsync of [undefined, "false"]) {
      const dir = tmpFsync();
      const s = session(fsync);
      // As in Spark's StreamTest, the same in-process MemoryStream feeds the restarted query.
      const ms = s.memoryStream("ts TIMESTAMP");
      const first = await run(s, ms, dir, 4, 1);
      // Per batch: offsets/N, the state delta of the one partition written, its writes log, commits/N.
      if (fsync === "false") assert.equal(first.syncs, 0, "no fdatasync with arus.checkpoint.fsync=false");
      else assert.ok(first.syncs >= 4 * 4, `default: ${first.syncs} fdatasyncs for 4 batches`);
      // A restart continues the state (counts 4 then 5 for the window [0, 10)).
      const second = await run(s, ms, dir, 1, 5);
      assert.equal(second.id, first.id);
      assert.deepEqual(first.out, ["0=1", "0=2", "0=3", "0=4"]);
      assert.deepEqual(second.out, ["0=5"]);
    }
  });

  it("keeps minBatchesToRetain batches of the logs (the retention runs during the next trigger)", async () => {
    const dir = tmpRetain();
    const s = session("false");
    await run(s, s.memoryStream("ts TIMESTAMP"), dir, 8, 1);
    const ids = (d: string) =>
      readdirSync(path.join(dir, d))
        .filter((f) => /^\d+$/.test(f))
        .map(Number)
        .sort((a, b) => a - b);
    // 8 data batches and the no-data batches the watermark asked for; the retention after the
    // last batch L keeps the ids >= L - 3, also when the query stops right after that batch.
    const last = ids("commits").at(-1)!;
    assert.ok(last >= 7, `last batch ${last}`);
    const kept = [last - 3, last - 2, last - 1, last];
    assert.deepEqual(ids("offsets"), kept);
    assert.deepEqual(ids("commits"), kept);
    // Only batches that changed the state have a writes record.
    const writes = ids("state/0/_metadata/writes");
    assert.ok(writes.length > 0 && writes.every((id) => id >= last - 3), `writes records ${writes}`);
  });
});
