/**
 * A stream-stream join over the columnar join state (arus.state.join.columnar=true) exactly-once
 * under SIGKILL. The crash harness's child (crash-harness.ts, query "join") joins the events with
 * a second read of themselves on (id, a time range) — each event meets itself — and counts the
 * join's output per 10 s window and key into a JSON file sink, checkpointed, so its output is
 * the plain windowed count. It is killed at named crash points — between the join's two sides'
 * commits, after both (the aggregation downstream not committed), around the sink and the
 * commit log, in a state snapshot, in the trailing batch — and at random moments, restarted until
 * the input is done, and its committed output must equal an uninterrupted run's (which equals
 * the computed counts): nothing lost, nothing twice.
 *
 * ARUS_JOIN_CRASH_KILLS (default 8) random kills on top of the named points.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CrashDriver, type EpisodeResult, randomKills, rng, type Timings } from "./driver.js";
import type { Workload } from "./workload.js";

const RANDOM_KILLS = Number(process.env.ARUS_JOIN_CRASH_KILLS ?? 8);
const SEED = Number(process.env.ARUS_CRASH_SEED ?? 20_261_203);
const WORKLOAD: Workload = { files: 20, rows: 20 };
const LAST_BATCH = WORKLOAD.files + 2;

const root = mkdtempSync(join(tmpdir(), "arus-join-crash-"));
const driver = new CrashDriver(root, WORKLOAD, null, { "arus.state.join.columnar": "true" }, "join");
let timings: Timings;

const POINTS = [
  "insideJoinCommit:3",
  "afterStateCommit:3",
  "insideJoinCommit:6",
  "beforeSink:6",
  "afterSink:6",
  "beforeCommitLog:6",
  "afterCommitLog:6",
  // The first maintenance of a run (after its 10th batch) writes state snapshots.
  "insideStateSnapshot:9",
  `insideJoinCommit:${LAST_BATCH - 1}`,
  `afterSink:${LAST_BATCH}`,
];

describe("columnar stream-stream join crash recovery under SIGKILL", { timeout: 10 * 60_000 }, () => {
  let namedKills = 0;
  before(async () => {
    timings = await driver.reference(["file"]);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const point of POINTS) {
    it(`${point}: restart gives exactly the uninterrupted output`, async (t) => {
      const r = await driver.episode({ name: `join-${point}`, sinks: ["file"], crashPoint: point });
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
      const r = await driver.episode({ name: `join-random-${i}`, sinks: ["file"], killPlan, deferred: "any" });
      results.push(r);
      kills += r.kills;
    }
    const runs = results.reduce((n, r) => n + r.runs, 0);
    t.diagnostic(`${results.length} episodes, ${kills} random kills, ${runs} runs; ${namedKills} named-point kills before`);
    assert.ok(kills >= RANDOM_KILLS);
  });
});
