/**
 * Issue 13 item 6: taking the checkpoint lock is atomic and fails closed. Two processes started
 * together on a stale lock: exactly one gets it. A lock path that is a directory stops the query
 * with an error naming it (it used to run with no lock at all).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";

const root = mkdtempSync(join(tmpdir(), "arus-lockrace-"));
after(() => rmSync(root, { recursive: true, force: true }));
const session = Session.builder().config("spark.sql.shuffle.partitions", "2").getOrCreate();
const CHILD = new URL("./lock-child.ts", import.meta.url).pathname;

function child(ckpt: string): { line: Promise<string>; release: () => Promise<void> } {
  const c = spawn(process.execPath, ["--import", "tsx", CHILD, ckpt], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  const line = new Promise<string>((resolve, reject) => {
    c.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.trim());
    });
    c.on("exit", (code) => reject(new Error(`lock child exited (${code}) before answering: ${out}`)));
  });
  const exited = new Promise<void>((resolve) => c.on("exit", () => resolve()));
  return {
    line,
    release: async () => {
      c.stdin.end();
      await exited;
    },
  };
}

describe("checkpoint lock: atomic, fails closed", () => {
  it("two processes started together on a stale lock: exactly one takes it", async () => {
    for (let round = 0; round < 4; round++) {
      const ckpt = join(root, `race-${round}`);
      mkdirSync(ckpt, { recursive: true });
      writeFileSync(join(ckpt, ".arus-lock"), String(4_194_305)); // above pid_max: a dead owner
      const a = child(ckpt);
      const b = child(ckpt);
      // Both children are released whatever happens, or a failed round leaves one waiting
      // on its stdin and the test file never ends.
      const lines = await Promise.all([a.line, b.line]).finally(() => Promise.all([a.release(), b.release()]));
      assert.equal(lines.filter((l) => l === "ok").length, 1, `round ${round}: ${lines.join(" | ")}`);
      assert.ok(
        lines.some((l) => /CONCURRENT_QUERY|in use/.test(l)),
        lines.join(" | "),
      );
    }
  });

  it("a directory at the lock path stops the query with an error naming it", async () => {
    const ckpt = join(root, "dir-lock");
    mkdirSync(join(ckpt, ".arus-lock"), { recursive: true });
    const ms = session.memoryStream("k STRING");
    await assert.rejects(
      ms.toDF().writeStream.format("noop").option("checkpointLocation", ckpt).start(),
      (e: Error) => e.message.includes(join(ckpt, ".arus-lock")) && /not a regular file/.test(e.message),
    );
  });
});
