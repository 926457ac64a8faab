/**
 * Property: a stream-stream join over JSON files under `arus.state.threads` = auto, which starts
 * on the main thread and moves its state to the state threads once it has joined there for
 * `arus.state.threads.moveAfter` (here a random number of batches of each run,
 * `arus.test.stateMoveAfterBatches`; a reload of the committed version from the checkpoint; the
 * decode threads start splitting the rows by owner from then on, a file read ahead before that
 * comes unsplit), gives the same rows in every batch and the same state metrics as the query
 * with its state on the main thread throughout — whichever batch the move falls on, across
 * restarts (each run starts on the main thread again and moves again). Random rows (NULL and
 * NaN keys, -0) cut into random micro-batches, one file per side per batch, every join type and
 * shape of join-scenarios.ts, random watermark delays, partition counts and restart points.
 */
import assert from "node:assert/strict";
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { scanThreads } from "../../src/connectors/files/decode-pool.js";
import { StateMove } from "../../src/execution/parallel/state-move.js";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import {
  type JoinRow,
  type JoinRun,
  joinKind,
  joinQuery,
  joinRow,
  jsonLine,
  LEFT_SCHEMA,
  RIGHT_SCHEMA,
  recordJoinStats,
} from "../state/join-scenarios.js";
import { utcSession } from "../streaming/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const s = utcSession();
const tempDir = tempDirs("arus-join-move-");

const scenario = fc.record({
  ...joinKind,
  partitions: fc.constantFrom(1, 2, 3, 5),
  batches: fc.array(fc.tuple(fc.array(joinRow, { maxLength: 6 }), fc.array(joinRow, { maxLength: 6 })), { minLength: 2, maxLength: 6 }),
  // per step after the first: does a new run (stop, restart) read it?
  restarts: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
  // the batches each run joins on the main thread before moving (0: threads from the start)
  moveAfter: fc.integer({ min: 0, max: 5 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/**
 * Every step's files (one per side; modification times in step order), read by runs with
 * trigger availableNow, one file per side per batch: a run reads the steps since the last
 * restart. `conf`: the query's state thread settings.
 */
async function run(sc: Scenario, conf: Record<string, string>): Promise<JoinRun | null> {
  const dir = await tempDir();
  const input = { l: join(dir, "l"), r: join(dir, "r") };
  await mkdir(input.l);
  await mkdir(input.r);
  const side = (name: "l" | "r") =>
    s.readStream
      .format("json")
      .schema(name === "l" ? LEFT_SCHEMA : RIGHT_SCHEMA)
      .option("maxFilesPerTrigger", 1)
      .load(input[name]);
  if (!joinQuery(side("l"), side("r"), sc)) return null;
  const out: JoinRun = { rows: [], stats: [] };
  const checkpoint = join(dir, "checkpoint");
  const write = async (b: number, left: readonly JoinRow[], right: readonly JoinRow[]) => {
    const file = `part-${String(b).padStart(3, "0")}.json`;
    const mtime = new Date(1_700_000_000_000 + b * 1000);
    for (const [name, rows] of [
      ["l", left],
      ["r", right],
    ] as const) {
      const path = join(input[name], file);
      await writeFile(path, rows.map((e) => `${jsonLine(name, e)}\n`).join(""));
      await utimes(path, mtime, mtime);
    }
  };
  const runOnce = async () => {
    for (const [k, v] of Object.entries(conf)) s.conf.set(k, v);
    s.conf.set("spark.sql.shuffle.partitions", String(sc.partitions));
    const q = await joinQuery(side("l"), side("r"), sc)!
      .writeStream.outputMode("append")
      .option("checkpointLocation", checkpoint)
      .trigger({ availableNow: true })
      .foreachBatch(async (batch, id) => {
        out.rows[id] = (await batch.collect()).map((r) => JSON.stringify(r)).sort();
      })
      .start()
      .finally(() => {
        for (const k of Object.keys(conf)) s.conf.unset(k);
        s.conf.set("spark.sql.shuffle.partitions", "2");
      });
    await q.awaitTermination();
    recordJoinStats(q, out);
  };
  // Far-future rows on both sides move the watermark past everything: outer rows come out.
  const far = (k: string, ms: number) => ({ k, d: 9, ms, v: 0 }) as unknown as JoinRow;
  const steps: [JoinRow[], JoinRow[]][] = [...sc.batches, [[far("z", 1_000_000)], [far("y", 1_000_000)]], [[far("z", 2_000_000)], []]];
  for (let b = 0; b < steps.length; b++) {
    if (b > 0 && sc.restarts[b - 1]) await runOnce();
    await write(b, ...steps[b]!);
  }
  await runOnce();
  return out;
}

describe("stream-stream join moving from the main thread to the state threads", () => {
  it("equals the main thread's, batch by batch, wherever the move falls and across restarts", async (t) => {
    if (scanThreads() < 2) return t.skip("one decode thread here: the join's state stays on the main thread");
    const threadBatches = StatePartitionThreads.batchesRun;
    const moves = StateMove.movedFromMain;
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const reference = await run(sc, { "arus.state.threads": "1" });
        const moving = await run(sc, {
          "spark.master": "local[2]",
          "arus.state.threads": "auto",
          "arus.test.stateMoveAfterBatches": String(sc.moveAfter),
        });
        assert.deepEqual(moving, reference);
      }),
      { numRuns: 15 },
    );
    assert.ok(StatePartitionThreads.batchesRun > threadBatches, "some batches ran on the state threads");
    assert.ok(StateMove.movedFromMain > moves, "some runs moved the state after batches on the main thread");
  });
});
