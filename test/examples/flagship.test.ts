/**
 * examples/flagship.ts (`npm start`): accelerated for a full minute, and for real with Ctrl-C.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { FAST_START_MS, type FlagshipResult } from "../../examples/flagship.js";
import { parseConsoleBatches, runExample } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("flagship: a minute of TokoKita checkouts, late mobile rows reported by onLateRows and lastProgress.arus", async () => {
  const { stdout, result } = await runExample<FlagshipResult>("flagship.ts", "flagship", {
    clockStartMs: FAST_START_MS,
    timeZone: "UTC",
  });
  // Ends by itself after 60 s: batch 0, then one batch per 5 s trigger.
  assert.equal(result.stoppedBy, "timeout");
  assert.equal(result.statusAfterStop, "Stopped");
  assert.match(stdout, /^Dashboard: http:\/\/127\.0\.0\.1:\d+ \(live charts/m, "npm start prints the dashboard's URL");
  const batches = parseConsoleBatches(stdout);
  assert.deepEqual(
    batches.map((b) => b.batchId),
    Array.from({ length: 13 }, (_, i) => i),
  );
  assert.equal(result.batches, 13);
  for (const b of batches) assert.deepEqual(b.columns, ["window", "sumber", "checkout", "omzet_rp"]);
  const rows = batches.flatMap((b) => b.rows);
  assert.ok(rows.some((r) => r[1] === "web") && rows.some((r) => r[1] === "mobile"));
  // Windows are 10 s long.
  for (const r of rows) {
    const [s, e] = /^\{(.+), (.+)\}$/
      .exec(r[0]!)!
      .slice(1)
      .map((t) => Date.parse(`${t.replace(" ", "T")}Z`));
    assert.equal(e! - s!, 10_000);
  }

  // Only mobile rows are ever late; onLateRows and lastProgress.arus agree on how many.
  assert.deepEqual(Object.keys(result.lateBySource), ["mobile"]);
  assert.ok(result.lateBySource.mobile! > 0);
  assert.equal(result.lateFromProgress, result.lateBySource.mobile);
  assert.match(
    stdout,
    /\[arus\] batch \d+: \d+ late mobile checkout\(s\) dropped — up to [\d.]+ s behind the watermark \d\d:\d\d:\d\d UTC/,
  );
  assert.match(stdout, /\[arus\] batch \d+: 40 rows in, \d+ dropped as late; event_time lateness p50/);
  // The slowest phones are 35 s behind: that is the delay that would keep 99 % of the rows.
  assert.equal(result.delayFor99Ms, 35_000);
  assert.match(stdout, /== why are these windows still open\? \(q\.explainWatermark\(\)\) ==\nWatermark: /);
  // Every [arus] line of batch N sits under the Batch: N table (after it, before the next one).
  let current = -1;
  for (const line of stdout.split("\n")) {
    const header = /^Batch: (\d+)$/.exec(line);
    if (header) current = Number(header[1]);
    const arus = /^ {2}\[arus\] batch (\d+):/.exec(line);
    if (arus) assert.equal(Number(arus[1]), current, `"${line}" is not under its own table`);
  }
  // The demo says which output mode it uses and why counts grow, and what its two lateness figures mean.
  assert.match(stdout, /^Output mode: update — .*a window reappears with a bigger count/m);
  assert.match(stdout, /'lateness p99' = .*; 'behind the watermark' = /);
  assert.match(stdout, /\nstatus: Stopped after 13 batches\n$/);
});

test("flagship: Ctrl-C (SIGINT) stops the query and the script ends normally", { timeout: 20_000 }, async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "examples/flagship.ts"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("Batch: 0\n")) resolve();
    });
    child.on("exit", () => reject(new Error(`exited before its first batch\n${out}\n${err}`)));
  });
  child.kill("SIGINT");
  const code = await exited;
  assert.equal(code, 0, err);
  assert.match(out, /Ctrl-C: stopping the query/);
  assert.match(out, /\nstatus: Stopped after \d+ batches\n$/);
});
