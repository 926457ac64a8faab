/**
 * transformWithState exactly-once under SIGKILL (issue 16). The crash harness's child
 * (crash-harness.ts, query "tws") runs file source → watermark → transformWithState grouped by
 * (key, 10 s window start) with a ValueState running count and an event-time timer at the
 * window's end that emits the count and clears the state → JSON file sink, checkpointed. It is
 * killed at named crash points — inside handleInputRows and handleExpiredTimer (state changed,
 * uncommitted), after the state commit, around the sink and the commit log, in a state snapshot,
 * in the trailing no-data batch that fires the last timers — and at random moments, restarted
 * until the input is done, and its committed output must equal an uninterrupted run's (which
 * equals the computed windowed counts): nothing lost, nothing twice.
 *
 * ARUS_TWS_CRASH_KILLS (default 14) random kills on top of the named points.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CrashDriver, type EpisodeResult, randomKills, rng, type Timings } from "./driver.js";
import type { Workload } from "./workload.js";

const RANDOM_KILLS = Number(process.env.ARUS_TWS_CRASH_KILLS ?? 14);
const SEED = Number(process.env.ARUS_CRASH_SEED ?? 20_261_202);
const WORKLOAD: Workload = { files: 20, rows: 20 };
/** Data batches 0..21 (20 files + 2 flush files), then the no-data batch 22 that fires the flush timers. */
const LAST_BATCH = WORKLOAD.files + 2;

const root = mkdtempSync(join(tmpdir(), "arus-tws-crash-"));
const driver = new CrashDriver(root, WORKLOAD, null, {}, "tws");
let timings: Timings;

// File i holds event times [5 s·i, 5 s·(i+1)): batch 4's eviction watermark (~14.75 s) is the
// first past a window end (10 s), so from batch 4 on even batches fire timers.
const POINTS = [
  "insideHandler:3",
  "insideHandler:4",
  "insideTimerHandler:4",
  "afterStateCommit:4",
  "beforeSink:4",
  "insideSink:4",
  "afterSink:4",
  "beforeCommitLog:4",
  "afterCommitLog:4",
  // The first maintenance of a run (after its 10th batch) writes state snapshots.
  "insideStateSnapshot:9",
  // Batch 21 (second flush file) fires every remaining real timer; batch 22 the flush one.
  `insideTimerHandler:${LAST_BATCH - 1}`,
  `insideTimerHandler:${LAST_BATCH}`,
  `afterSink:${LAST_BATCH}`,
];

describe("transformWithState crash recovery under SIGKILL", { timeout: 10 * 60_000 }, () => {
  let namedKills = 0;
  before(async () => {
    timings = await driver.reference(["file"]);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const point of POINTS) {
    it(`${point}: restart gives exactly the uninterrupted output`, async (t) => {
      const r = await driver.episode({ name: `tws-${point}`, sinks: ["file"], crashPoint: point });
      assert.equal(r.kills, 1, "the crash point fired once");
      namedKills += r.kills;
      t.diagnostic(JSON.stringify(r));
    });
  }

  it(`random SIGKILLs: ${RANDOM_KILLS}, output equals the uninterrupted run (seed ${SEED})`, async (t) => {
    const killPlan = randomKills(rng(SEED), timings);
    const results: EpisodeResult[] = [];
    let kills = 0;
    for (let i = 0; kills < RANDOM_KILLS; i++) {
      const r = await driver.episode({ name: `tws-random-${i}`, sinks: ["file"], killPlan, deferred: "any" });
      results.push(r);
      kills += r.kills;
    }
    const runs = results.reduce((n, r) => n + r.runs, 0);
    t.diagnostic(`${results.length} episodes, ${kills} random kills, ${runs} runs; ${namedKills} named-point kills before`);
    assert.ok(kills >= RANDOM_KILLS);
    assert.ok(kills + namedKills >= 20, "at least 20 kills in all");
  });
});
