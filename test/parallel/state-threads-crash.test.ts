/**
 * Exactly-once under SIGKILL with the aggregation state on two state threads
 * (arus.state.threads=2): the crash suite's workload (test/recovery/) killed at the named
 * points that matter for state — after one thread committed its partitions (the other may not
 * have), inside a thread's state snapshot, around the sink and the commit log — and at random
 * moments; every restart must give exactly the uninterrupted run's file-sink output. The same
 * under `arus.state.threads` = auto, where each run's aggregation starts on the main thread and
 * moves its state to the threads after one batch (`arus.test.stateMoveAfterBatches`): killed on
 * either side of the move. ARUS_CRASH_CYCLES (default 50) sets the random kills of
 * test/recovery/crash.test.ts; this file runs a fifth of them, and a tenth more around the move.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CrashDriver, randomKills, rng, type Timings } from "../recovery/driver.js";
import type { Workload } from "../recovery/workload.js";

const CYCLES = Math.max(1, Math.round(Number(process.env.ARUS_CRASH_CYCLES ?? 50) / 5));
const SEED = Number(process.env.ARUS_CRASH_SEED ?? 20_240_101) + 7;
const WORKLOAD: Workload = { files: 20, rows: 20 };
const root = mkdtempSync(join(tmpdir(), "arus-crash-threads-"));
const driver = new CrashDriver(root, WORKLOAD, null, { "arus.state.threads": "2" });
let timings: Timings;
const moveRoot = mkdtempSync(join(tmpdir(), "arus-crash-move-"));
const moving = new CrashDriver(moveRoot, WORKLOAD, null, { "arus.state.threads": "auto", "arus.test.stateMoveAfterBatches": "1" });
let movingTimings: Timings;

describe("crash recovery with state threads", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    timings = await driver.reference(["file"]);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const point of ["afterStateCommit:3", "insideStateSnapshot:9", "beforeSink:3", "afterSink:3", "afterCommitLog:3"]) {
    it(`${point}: restart gives exactly the uninterrupted output`, async (t) => {
      const r = await driver.episode({ name: `threads-${point}`, sinks: ["file"], crashPoint: point });
      assert.equal(r.kills, 1, "the crash point fired");
      t.diagnostic(JSON.stringify(r));
    });
  }

  it(`random SIGKILLs (${CYCLES}): output equals the uninterrupted run (seed ${SEED})`, async () => {
    const killPlan = randomKills(rng(SEED), timings);
    let kills = 0;
    for (let i = 0; kills < CYCLES; i++) {
      const r = await driver.episode({ name: `threads-random-${i}`, sinks: ["file"], killPlan, deferred: "any" });
      kills += r.kills;
    }
    assert.ok(kills >= CYCLES);
  });
});

describe("crash recovery with the state moving to the state threads", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    movingTimings = await moving.reference(["file"]);
  });
  after(() => rmSync(moveRoot, { recursive: true, force: true }));

  // batch 0 aggregates on the main thread, batch 1 on the threads after the move
  for (const point of ["afterStateCommit:0", "afterCommitLog:0", "afterStateCommit:1", "insideStateSnapshot:9"]) {
    it(`${point}: restart gives exactly the uninterrupted output`, async (t) => {
      const r = await moving.episode({ name: `move-${point}`, sinks: ["file"], crashPoint: point });
      assert.equal(r.kills, 1, "the crash point fired");
      t.diagnostic(JSON.stringify(r));
    });
  }

  const kills = Math.max(1, Math.round(CYCLES / 2));
  it(`random SIGKILLs (${kills}): output equals the uninterrupted run (seed ${SEED + 1})`, async () => {
    const killPlan = randomKills(rng(SEED + 1), movingTimings);
    let n = 0;
    for (let i = 0; n < kills; i++) {
      const r = await moving.episode({ name: `move-random-${i}`, sinks: ["file"], killPlan, deferred: "any" });
      n += r.kills;
    }
    assert.ok(n >= kills);
  });
});
