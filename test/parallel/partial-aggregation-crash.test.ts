/**
 * Exactly-once under SIGKILL with stage A on the decode threads (arus.exec.partialAggregation,
 * local[2]): the crash suite's workload (test/recovery/) — JSON files → watermark → windowed
 * count → file sink, one file per batch and the next trigger's file read ahead through stage A —
 * killed at the named points around the offset log, the sink, the commit log and a state
 * snapshot, and at random moments; every restart must give exactly the uninterrupted run's
 * output, and the uninterrupted run and the restarts must have read their files through stage A
 * on the threads. Two crash points again with the adaptive skipping forced (the threads ship
 * stage A's rows after the first file).
 * ARUS_CRASH_CYCLES (default 50) sets the random kills of test/recovery/crash.test.ts; this file
 * runs a tenth of them.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CrashDriver, randomKills, rng, type Timings } from "../recovery/driver.js";
import type { Workload } from "../recovery/workload.js";

const CYCLES = Math.max(1, Math.round(Number(process.env.ARUS_CRASH_CYCLES ?? 50) / 10));
const SEED = Number(process.env.ARUS_CRASH_SEED ?? 20_240_101) + 11;
const WORKLOAD: Workload = { files: 20, rows: 20 };
/** Data batches 0..21 (20 files + 2 flush files), then the no-data batch 22 that evicts. */
const LAST_BATCH = WORKLOAD.files + 2;
const CONF = { "spark.master": "local[2]", "arus.exec.partialAggregation": "true" };
const root = mkdtempSync(join(tmpdir(), "arus-crash-partial-"));
const driver = new CrashDriver(root, WORKLOAD, null, CONF);
/** Adaptive skipping forced: after the first file with rows, the threads ship stage A's rows. */
const skipping = new CrashDriver(join(root, "skipping"), WORKLOAD, null, {
  ...CONF,
  "arus.exec.partialAggregation.probeRows": "0",
  "arus.exec.partialAggregation.maxGroupRatio": "0",
  // skipping applies with the state on the main thread (routed to state threads, stage A never skips)
  "arus.state.threads": "1",
});
let timings: Timings;

describe("crash recovery with partial aggregation on the decode threads", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    timings = await driver.reference(["file"]);
    assert.ok((timings.stageARanges ?? 0) > 0, "the uninterrupted run read its files through stage A on the threads");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const points = [
    "afterOffsetLog:3",
    "beforeSink:3",
    "afterSink:3",
    "afterCommitLog:3",
    "insideStateSnapshot:9",
    `afterOffsetLog:${LAST_BATCH}`,
  ];
  for (const point of points) {
    it(`${point}: restart gives exactly the uninterrupted output`, async (t) => {
      const r = await driver.episode({ name: `partial-${point}`, sinks: ["file"], crashPoint: point });
      assert.equal(r.kills, 1, "the crash point fired");
      // the restart after batch 3 or 9 reads the remaining files (batch 22 has none left)
      if (!point.endsWith(`:${LAST_BATCH}`))
        assert.ok(r.stageARanges > 0, "the restarted run read its files through stage A on the threads");
      t.diagnostic(JSON.stringify(r));
    });
  }

  for (const point of ["afterOffsetLog:3", "afterCommitLog:3"]) {
    it(`${point}, aggregation skipped after the first file (rows from the threads): restart gives exactly the uninterrupted output`, async (t) => {
      const r = await skipping.episode({ name: `skipping-${point}`, sinks: ["file"], crashPoint: point });
      assert.equal(r.kills, 1, "the crash point fired");
      assert.ok(r.stageARowRanges > 0, "the restarted run's threads shipped stage A's rows");
      t.diagnostic(JSON.stringify(r));
    });
  }

  it(`random SIGKILLs (${CYCLES}): output equals the uninterrupted run (seed ${SEED})`, async () => {
    const killPlan = randomKills(rng(SEED), timings);
    let kills = 0;
    for (let i = 0; kills < CYCLES; i++) {
      const r = await driver.episode({ name: `partial-random-${i}`, sinks: ["file"], killPlan, deferred: "any" });
      kills += r.kills;
    }
    assert.ok(kills >= CYCLES);
  });
});
