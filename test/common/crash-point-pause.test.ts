/**
 * The ":pause" crash point (src/common/crash-points.ts): a child process armed with
 * "insideSink:1:pause" passes batch 0's point, stops itself (SIGSTOP) at batch 1's, and goes on
 * from there once it gets SIGCONT; the point is then disarmed (a second pass does not stop it).
 * A malformed spec names the expected form.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { armCrashPoint, armedCrashPoint } from "../../src/common/crash-points.js";

const MODULE = path.join(import.meta.dirname, "..", "..", "src", "common", "crash-points.ts");

function state(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? null;
  } catch {
    return null;
  }
}

describe("crash point ':pause'", () => {
  it("parses and round-trips the spec; refuses a malformed one", () => {
    armCrashPoint("afterSendOffsets:3:pause");
    assert.equal(armedCrashPoint(), "afterSendOffsets:3:pause");
    armCrashPoint("insideSink:2");
    assert.equal(armedCrashPoint(), "insideSink:2");
    assert.throws(() => armCrashPoint("insideSink:2:sleep"), /insideSink:3:pause/);
    armCrashPoint(undefined);
    assert.equal(armedCrashPoint(), undefined);
  });

  it("stops the process at the armed batch, and it goes on after SIGCONT", {
    skip: process.platform !== "linux" && "reads /proc",
  }, async () => {
    const code = `
      const { armCrashPoint, crashPoint } = await import(${JSON.stringify(MODULE)});
      armCrashPoint("insideSink:1:pause");
      crashPoint("insideSink", 0);
      process.stdout.write("before\\n");
      crashPoint("insideSink", 1);
      crashPoint("insideSink", 1);
      process.stdout.write("after\\n");
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    const exited = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    const deadline = Date.now() + 60_000;
    while (state(child.pid!) !== "T") {
      assert.ok(Date.now() < deadline, "the child never stopped");
      assert.notEqual(state(child.pid!), null, `the child ended without stopping: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(state(child.pid!), "T", "still stopped");
    assert.equal(out, "before\n");
    child.kill("SIGCONT");
    assert.equal(await exited, 0);
    assert.equal(out, "before\nafter\n");
  });
});
