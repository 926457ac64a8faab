/**
 * Exactly-once under SIGKILL. A child process (crash-harness.ts) runs the checkpointed query
 * file source → watermark → windowed count → JSON file sink and → foreachBatch upsert into
 * PostgreSQL (examples/postgres-upsert.ts); the parent kills it at random moments and at named
 * crash points, restarts it until the input is done, and compares what the sinks committed
 * with an uninterrupted run: nothing lost, nothing duplicated, and foreachBatch got the same
 * rows every time it was handed the same batch id.
 *
 * CI runs ARUS_CRASH_CYCLES (default 50) random kills per sink; `npm run soak` runs 1 000.
 * PostgreSQL: ARUS_PG_URL, else scripts/start-postgres.sh when PostgreSQL is installed; without
 * a server (or the `pg` package) the PostgreSQL cases are skipped, unless ARUS_REQUIRE_PG=1.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { SinkKind } from "./crash-harness.js";
import { CrashDriver, closePg, connectPg, type EpisodeResult, randomKills, rng, type Timings } from "./driver.js";
import { expectedRows, minus, type Workload, watermarkAfterFile } from "./workload.js";

const CYCLES = Number(process.env.ARUS_CRASH_CYCLES ?? 50);
const SEED = Number(process.env.ARUS_CRASH_SEED ?? 20_240_101);
const WORKLOAD: Workload = { files: 20, rows: 20 };
/** Data batches 0..21 (20 files + 2 flush files), then the no-data batch 22 that evicts. */
const LAST_BATCH = WORKLOAD.files + 2;

const pgConn = await connectPg();
const pg = "skip" in pgConn ? null : pgConn;
const pgSkip = "skip" in pgConn ? pgConn.skip : false;
const root = mkdtempSync(join(tmpdir(), "arus-crash-"));
const driver = new CrashDriver(root, WORKLOAD, pg);
let timings: Timings;

function summary(results: readonly EpisodeResult[]): string {
  const sum = (k: keyof EpisodeResult) => results.reduce((n, r) => n + (r[k] as number), 0);
  return `${results.length} episodes, ${sum("kills")} kills, ${sum("runs")} runs, ${sum("replays")} replayed batches (${sum("fencedReplays")} fenced), ${sum("orphanFiles")} orphan files, ${sum("deferredWindows")} deferred windows`;
}

describe("crash recovery under SIGKILL", { timeout: 15 * 60_000 }, () => {
  before(async () => {
    timings = await driver.reference(["file", "pg"]);
  });
  after(async () => {
    if (pg) await closePg(pg);
    rmSync(root, { recursive: true, force: true });
  });

  it(`random SIGKILLs: ${CYCLES} per sink, output equals the uninterrupted run (seed ${SEED})`, async (t) => {
    const sinks: SinkKind[] = ["file", "pg"];
    const killPlan = randomKills(rng(SEED), timings);
    const results: EpisodeResult[] = [];
    let kills = 0;
    for (let i = 0; kills < CYCLES; i++) {
      // Both sinks' queries run in the same child, so every kill hits both of them.
      const r = await driver.episode({ name: `random-${i}`, sinks, killPlan, deferred: "any" });
      results.push(r);
      kills += r.kills;
    }
    t.diagnostic(
      `${driver.usable(sinks).join("+")}: ${summary(results)}; clean run ${Math.round(timings.bootToReadyMs)} ms startup + ${Math.round(timings.readyToDoneMs)} ms batches`,
    );
    assert.ok(kills >= CYCLES);
  });

  // Named crash points (src/common/crash-points.ts): the child kills itself exactly there.
  const points = (sink: SinkKind): string[] => [
    "beforeOffsetLog:3",
    "afterOffsetLog:3",
    "beforeSink:3",
    "insideSink:3",
    "afterSink:3",
    "beforeCommitLog:3",
    "afterCommitLog:3",
    // The first maintenance of a run (after its 10th batch) writes state snapshots.
    "insideStateSnapshot:9",
    // The file sink compacts its manifest every 10 batches: 9.compact.
    ...(sink === "file" ? ["insideSink:9"] : []),
    // The trailing no-data batch that evicts the last windows.
    `afterOffsetLog:${LAST_BATCH}`,
    `afterSink:${LAST_BATCH}`,
  ];
  for (const sink of ["file", "pg"] as const) {
    describe(`named crash points, ${sink === "file" ? "file sink" : "foreachBatch → PostgreSQL"}`, {
      skip: sink === "pg" ? pgSkip : false,
    }, () => {
      for (const point of points(sink)) {
        it(`${point}: restart gives exactly the uninterrupted output`, async (t) => {
          const r = await driver.episode({ name: `${sink}-${point}`, sinks: [sink], crashPoint: point });
          assert.equal(r.kills, 1);
          if (sink === "pg" && /^(afterSink|beforeCommitLog):/.test(point)) {
            // The writer had committed: the restart delivers the batch again and the fence skips it.
            assert.equal(r.replays, 1, "one replayed delivery");
            assert.equal(r.fencedReplays, 1, "skipped by the batch-id fence");
          }
          if (sink === "pg" && /^insideSink:/.test(point))
            assert.equal(r.fencedReplays, 0, "the transaction died before COMMIT: the replay writes");
          t.diagnostic(JSON.stringify(r));
        });
      }
    });
  }

  it("a restart right after the last data batch defers the windows it closed until new data arrives (Spark's rule), then emits them once", async () => {
    // No flush files: batch 19 (the last file) commits, the process dies before the no-data
    // batch 20 that would emit the windows batch 19's data closed. After a restart there is
    // no previous plan, so no no-data batch runs (semantics.md §1.5) until new data arrives.
    const w: Workload = { ...WORKLOAD, flushFiles: false };
    const closedBefore = expectedRows(w, watermarkAfterFile(w, w.files - 2));
    const deferred = minus(expectedRows(w), closedBefore);
    const closedByLastBatch = minus(expectedRows(w, watermarkAfterFile(w, w.files - 1)), closedBefore);
    assert.ok(closedByLastBatch.length > 0, "the workload has windows that only the no-data batch emits");
    // One sink per child: a crash point fires in whichever query reaches it first.
    for (const sink of driver.usable(["file", "pg"])) {
      const r = await driver.episode({
        name: `tail-deferral-${sink}`,
        sinks: [sink],
        workload: w,
        crashPoint: `afterCommitLog:${w.files - 1}`,
        deferred,
      });
      assert.equal(r.deferredWindows, deferred.length, sink);
    }
  });
});
