/**
 * Exactly-once under SIGKILL with a stream-stream join's state on two state threads
 * (arus.state.threads=2): test/recovery/join-crash.test.ts's workload (the events joined with a
 * second read of themselves, then counted per window and key into a file sink) killed between
 * a thread's two join-side commits, after them, around the sink and the commit log, inside a
 * thread's state snapshot, and at random moments; every restart must give exactly the
 * uninterrupted run's output. The same under `arus.state.threads` = auto, where each run's join
 * starts on the main thread and moves its state to the threads after one batch
 * (`arus.test.stateMoveAfterBatches`; a restarted run moves again): killed around the move. ARUS_JOIN_CRASH_KILLS (default
 * 8) sets the random kills of join-crash.test.ts; this file runs half of them, and a quarter
 * more around the move.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CrashDriver, randomKills, rng, type Timings } from "../recovery/driver.js";
import type { Workload } from "../recovery/workload.js";

const RANDOM_KILLS = Math.max(1, Math.round(Number(process.env.ARUS_JOIN_CRASH_KILLS ?? 8) / 2));
const SEED = Number(process.env.ARUS_CRASH_SEED ?? 20_261_203) + 11;
const WORKLOAD: Workload = { files: 20, rows: 20 };
const root = mkdtempSync(join(tmpdir(), "arus-join-crash-threads-"));
const driver = new CrashDriver(root, WORKLOAD, null, { "arus.state.join.columnar": "true", "arus.state.threads": "2" }, "join");
let timings: Timings;
const moveRoot = mkdtempSync(join(tmpdir(), "arus-join-crash-move-"));
const MOVING = { "arus.state.join.columnar": "true", "arus.state.threads": "auto", "arus.test.stateMoveAfterBatches": "1" };
const moving = new CrashDriver(moveRoot, WORKLOAD, null, MOVING, "join");
let movingTimings: Timings;

describe("stream-stream join on state threads: crash recovery under SIGKILL", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    timings = await driver.reference(["file"]);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const point of ["insideJoinCommit:3", "afterStateCommit:6", "afterSink:6", "afterCommitLog:6", "insideStateSnapshot:9"]) {
    it(`${point}: restart gives exactly the uninterrupted output`, async (t) => {
      const r = await driver.episode({ name: `join-threads-${point}`, sinks: ["file"], crashPoint: point });
      assert.equal(r.kills, 1, "the crash point fired");
      t.diagnostic(JSON.stringify(r));
    });
  }

  it(`random SIGKILLs (${RANDOM_KILLS}): output equals the uninterrupted run (seed ${SEED})`, async () => {
    const killPlan = randomKills(rng(SEED), timings);
    let kills = 0;
    for (let i = 0; kills < RANDOM_KILLS; i++) {
      const r = await driver.episode({ name: `join-threads-random-${i}`, sinks: ["file"], killPlan, deferred: "any" });
      kills += r.kills;
    }
    assert.ok(kills >= RANDOM_KILLS);
  });
});

describe("stream-stream join moving to the state threads: crash recovery under SIGKILL", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    movingTimings = await moving.reference(["file"]);
  });
  after(() => rmSync(moveRoot, { recursive: true, force: true }));

  // batch 0 joins on the main thread, batch 1 on the threads after the move
  for (const point of ["insideJoinCommit:0", "afterCommitLog:0", "insideJoinCommit:1", "afterStateCommit:2", "insideStateSnapshot:9"]) {
    it(`${point}: restart gives exactly the uninterrupted output`, async (t) => {
      const r = await moving.episode({ name: `join-move-${point}`, sinks: ["file"], crashPoint: point });
      assert.equal(r.kills, 1, "the crash point fired");
      t.diagnostic(JSON.stringify(r));
    });
  }

  const kills = Math.max(1, Math.round(RANDOM_KILLS / 2));
  it(`random SIGKILLs (${kills}): output equals the uninterrupted run (seed ${SEED + 1})`, async () => {
    const killPlan = randomKills(rng(SEED + 1), movingTimings);
    let n = 0;
    for (let i = 0; n < kills; i++) {
      const r = await moving.episode({ name: `join-move-random-${i}`, sinks: ["file"], killPlan, deferred: "any" });
      n += r.kills;
    }
    assert.ok(n >= kills);
  });
});
