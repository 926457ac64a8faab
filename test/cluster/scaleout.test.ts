/**
 * Issue #20's recipe on one machine (scaleout-harness.ts), small size: worker processes run the
 * same pipeline file, are killed with SIGKILL and restarted while the input arrives; a
 * read_committed reader must then see (a) every input record exactly once in out-raw and
 * (b) every (key, window) exactly once with the oracle's count and sum in out, and no worker may
 * have failed. Needs ARUS_KAFKA_BOOTSTRAP.
 *
 * - single mode (today): one worker with `arus.exactlyOnce`, kill -9 at 60 %, restarted at once
 *   and crashed inside a Kafka transaction (crash point insideSink), restarted from its checkpoint
 *   at 75 %; (c) the aborted transaction's records are visible to read_uncommitted only.
 * - group mode (scaleout.md §6): 1 worker; at 30 % workers 2 and 3 join; at 60 % kill -9 of
 *   worker 2; at 75 % it restarts with its slot, armed to die inside its Kafka transaction
 *   (insideSink), and at 85 % for good; (c) as in single mode. Runs unless ARUS_SCALEOUT_GROUP=0.
 * - static mode (ARUS_SCALEOUT_GROUP=0 only): the same steps with the partitions split between the three workers
 *   once and for all (`assign`, one exactly-once checkpoint each): the harness's multi-worker
 *   paths on today's engine.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import { kafkaBootstrap, kafkaSkip } from "../connectors/kafka-helpers.js";
import { tempDirs } from "../temp-dirs.js";
import { describeReport, GROUP_SCENARIO, runScaleout, type ScaleoutReport, SINGLE_SCENARIO } from "./scaleout-harness.js";

/** Group mode (`arus.cluster.group`) runs the recipe; ARUS_SCALEOUT_GROUP=0 runs the static split instead. */
const GROUP_MODE = process.env.ARUS_SCALEOUT_GROUP !== "0";
const tempDir = tempDirs("arus-scaleout-");

function assertExactlyOnce(t: TestContext, r: ScaleoutReport): void {
  const what = describeReport(r);
  t.diagnostic(what);
  assert.deepEqual(r.workerErrors, [], what);
  assert.ok(r.drained, `the output did not drain:\n${what}`);
  // (a) out-raw: the input ids as a multiset.
  assert.equal(r.raw.duplicates, 0, what);
  assert.equal(r.raw.missing, 0, what);
  assert.equal(r.raw.unexpected, 0, what);
  assert.equal(r.raw.committed, r.inputRecords, what);
  // (b) out: each (key, window) once with the oracle's count and sum.
  assert.equal(r.lateDroppedRows, 0, `rows were dropped as late, the oracle cannot hold:\n${what}`);
  assert.equal(r.agg.duplicates, 0, what);
  assert.equal(r.agg.missing, 0, what);
  assert.equal(r.agg.unexpected, 0, what);
  assert.equal(r.agg.wrong, 0, what);
  assert.equal(r.agg.committed, r.expectedWindows, what);
  assert.ok(r.aborted.raw >= 0 && r.aborted.agg >= 0, what);
  // Every kill was followed by output from the killed worker's partitions.
  for (const k of r.recoveries) assert.notEqual(k.firstRawOutputMs, null, `no output after ${k.worker}'s kill:\n${what}`);
}

describe("scale-out recipe (scaleout.md §6), small", kafkaSkip(), () => {
  it("single mode: kill -9 of the only exactly-once worker, a crash inside its Kafka transaction and the restarts lose and duplicate nothing", {
    timeout: 120_000,
  }, async (t) => {
    const r = await runScaleout({
      bootstrap: kafkaBootstrap()!,
      mode: "single",
      workDir: await tempDir(),
      steps: SINGLE_SCENARIO,
      events: 3000,
      ratePerSec: 250,
      seed: Number(process.env.ARUS_SCALEOUT_SEED ?? 20),
    });
    assertExactlyOnce(t, r);
    assert.deepEqual(
      r.recoveries.map((x) => x.how),
      ["kill -9", r.recoveries[1]?.how.startsWith("insideSink:") ? r.recoveries[1].how : "insideSink:<n>"],
      describeReport(r),
    );
    assert.deepEqual(r.crashPointsMissed, []);
    // (c) the crash inside a transaction left aborted records, hidden from read_committed.
    assert.ok(r.aborted.raw + r.aborted.agg > 0, describeReport(r));
  });

  it("static split: the group scenario's steps, each worker reading its own partitions exactly once", {
    timeout: 180_000,
    skip: GROUP_MODE ? "group mode runs the scenario itself" : false,
  }, async (t) => {
    const r = await runScaleout({
      bootstrap: kafkaBootstrap()!,
      mode: "static",
      workDir: await tempDir(),
      steps: GROUP_SCENARIO,
      events: 3000,
      ratePerSec: 250,
      seed: Number(process.env.ARUS_SCALEOUT_SEED ?? 20),
    });
    assertExactlyOnce(t, r);
    assert.deepEqual(
      r.recoveries.map((x) => [x.worker, x.partitions]),
      [["w2", [1, 4]]],
      describeReport(r),
    );
    for (const w of ["w1", "w2", "w3"]) assert.ok((r.rawRowsByWorker[w] ?? 0) > 0, `${w} read no input:\n${describeReport(r)}`);
    assert.equal(r.rebalances, 0);
  });

  it("group mode: 1 worker, 2 and 3 join at 30 %, kill -9 of worker 2 at 60 %, its restart dying inside a transaction at 75 %, back at 85 %", {
    timeout: 180_000,
    skip: GROUP_MODE ? false : "group mode not in yet: set ARUS_SCALEOUT_GROUP=1 to run it",
  }, async (t) => {
    const r = await runScaleout({
      bootstrap: kafkaBootstrap()!,
      mode: "group",
      workDir: await tempDir(),
      steps: GROUP_SCENARIO,
      // 40 s of input: the kill waits 9 s after the joins (at 30 %), so the restart armed to crash
      // inside its second batch still has a third of the input to get there; with 20 s it had
      // 5 s, too few for a start and a rejoin on a loaded machine (crash point missed), and with
      // 30 s a slow day's rejoin still missed it once (2026-12-04: 15 rebalances, w2 read 336 rows).
      events: 10_000,
      ratePerSec: 250,
      partitionBy: process.env.ARUS_SCALEOUT_PARTITION_BY === "key" ? "key" : "id",
      seed: Number(process.env.ARUS_SCALEOUT_SEED ?? 20),
      drainTimeoutMs: 90_000,
    });
    assertExactlyOnce(t, r);
    assert.deepEqual(
      r.recoveries.map((x) => x.how),
      ["kill -9", r.recoveries[1]?.how.startsWith("insideSink:") ? r.recoveries[1].how : "insideSink:<n>"],
      describeReport(r),
    );
    assert.deepEqual(r.crashPointsMissed, []);
    // (c) the crash inside a group worker's transaction left aborted records, hidden from read_committed
    // (in the outputs, or only in the agg query's internal topics when its batch had no output yet).
    assert.ok(r.aborted.raw + r.aborted.agg + r.abortedInternal > 0, describeReport(r));
    // Workers 2 and 3 did work: the input was spread.
    for (const w of ["w2", "w3"]) assert.ok((r.rawRowsByWorker[w] ?? 0) > 0, `${w} read no input:\n${describeReport(r)}`);
  });
});
