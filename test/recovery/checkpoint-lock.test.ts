/**
 * The checkpoint lock (`<checkpoint>/.arus-lock`, the owner's pid and start time) after a crash. A killed
 * query leaves its lock behind; the restarted query must take it over. In a container the
 * restarted process very often has the *same* pid as the killed one (the query runs as pid 1,
 * or the pids of a fresh container are handed out in the same order), so a lock holding our own
 * pid that no query of this process holds is stale too.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";

const root = mkdtempSync(join(tmpdir(), "arus-lock-"));
after(() => rmSync(root, { recursive: true, force: true }));
const session = Session.builder().config("spark.sql.shuffle.partitions", "2").getOrCreate();

async function runOnce(ckpt: string): Promise<void> {
  const ms = session.memoryStream("k STRING");
  const q = await ms.toDF().writeStream.format("noop").option("checkpointLocation", ckpt).start();
  ms.addData([{ k: "a" }]);
  await q.processAllAvailable();
  await q.stop();
}

describe("checkpoint lock left by a killed process", () => {
  it("a lock holding a pid that no longer runs is taken over", async () => {
    const ckpt = join(root, "dead-pid");
    await runOnce(ckpt);
    // pid 2^22 + 1 is above Linux's pid_max limit: no such process.
    writeFileSync(join(ckpt, ".arus-lock"), String(4_194_305));
    await runOnce(ckpt);
  });

  it("an empty lock (killed between creating and writing it) is taken over", async () => {
    const ckpt = join(root, "empty");
    await runOnce(ckpt);
    writeFileSync(join(ckpt, ".arus-lock"), "");
    await runOnce(ckpt);
  });

  it("a lock holding our own pid, left by an earlier process (a restarted container), is taken over", async () => {
    const ckpt = join(root, "same-pid");
    await runOnce(ckpt);
    writeFileSync(join(ckpt, ".arus-lock"), String(process.pid));
    await runOnce(ckpt);
  });

  it("a lock naming a live pid with another start time (the pid reused since) is taken over", {
    skip: !existsSync("/proc/1/stat") && "needs Linux's /proc",
  }, async () => {
    const ckpt = join(root, "reused-pid");
    await runOnce(ckpt);
    // pid 1 runs, but it did not start in 2001: the lock's owner is gone.
    writeFileSync(join(ckpt, ".arus-lock"), "1 1000000000000");
    await runOnce(ckpt);
  });

  it("a lock naming a live pid with its own start time stops the query and names the lock", {
    skip: !existsSync("/proc/1/stat") && "needs Linux's /proc",
  }, async () => {
    const ckpt = join(root, "live-owner");
    await runOnce(ckpt);
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 200));
      const lock = join(ckpt, ".arus-lock");
      writeFileSync(lock, `${child.pid} ${Date.now() - 200}`);
      await assert.rejects(runOnce(ckpt), (e: Error) => /in use by another running query/.test(e.message) && e.message.includes(lock));
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("a query of this process still holding the checkpoint keeps it", async () => {
    const ckpt = join(root, "held");
    const ms = session.memoryStream("k STRING");
    const q = await ms.toDF().writeStream.format("noop").option("checkpointLocation", ckpt).start();
    assert.match(readFileSync(join(ckpt, ".arus-lock"), "utf8"), new RegExp(`^${process.pid} \\d+$`));
    await assert.rejects(
      ms.toDF().writeStream.format("noop").option("checkpointLocation", ckpt).start(),
      /CONCURRENT_QUERY|already active|in use/,
    );
    await q.stop();
    await runOnce(ckpt);
  });
});
