/**
 * Property: a stream-stream join over JSON files, whose rows the decode threads split by the
 * state thread owning their key (parallel/join-routing.ts: the thread then keys them and drops
 * the late ones itself), gives the same rows in every batch and the same state metrics as the
 * same query with its state on the main thread — across restarts that change the thread count.
 * Random rows (NULL and NaN keys, -0) cut into random micro-batches, one file per side per
 * batch, each step read by a query with trigger availableNow, every join type and shape of
 * join-scenarios.ts, random watermark delays and partition counts. Rows are compared per batch,
 * sorted: threads answer in partition order.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { scanThreads } from "../../src/connectors/files/decode-pool.js";
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
const tempDir = tempDirs("arus-join-files-");

const scenario = fc.record({
  ...joinKind,
  partitions: fc.constantFrom(1, 2, 3, 5),
  batches: fc.array(fc.tuple(fc.array(joinRow, { maxLength: 6 }), fc.array(joinRow, { maxLength: 6 })), { minLength: 1, maxLength: 5 }),
  // per batch (and the two closing ones): the thread count of the query under test (a change = stop and restart)
  threads: fc.array(fc.constantFrom(2, 2, 3, 1), { minLength: 7, maxLength: 7 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** Step b runs with `sc.threads[b]` state threads (`onThreads`), or on the main thread (the reference). */
async function run(sc: Scenario, onThreads: boolean): Promise<JoinRun | null> {
  const threadsAt = (b: number) => sc.threads[Math.min(b, sc.threads.length - 1)]!;
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
  // Each step's files are written, then a query with trigger availableNow reads them (one file per
  // side per batch) and ends: a running query could take one side's file before the other's.
  const step = async (b: number, left: readonly JoinRow[], right: readonly JoinRow[]) => {
    const file = `part-${String(b).padStart(3, "0")}.json`;
    await writeFile(join(input.l, file), left.map((e) => `${jsonLine("l", e)}\n`).join(""));
    await writeFile(join(input.r, file), right.map((e) => `${jsonLine("r", e)}\n`).join(""));
    s.conf.set("arus.state.threads", onThreads ? String(threadsAt(b)) : "1");
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
        s.conf.unset("arus.state.threads");
        s.conf.set("spark.sql.shuffle.partitions", "2");
      });
    await q.awaitTermination();
    recordJoinStats(q, out);
  };
  for (let b = 0; b < sc.batches.length; b++) await step(b, ...sc.batches[b]!);
  // Far-future rows on both sides move the watermark past everything: outer rows come out.
  const far = (k: string, ms: number) => ({ k, d: 9, ms, v: 0 }) as unknown as JoinRow;
  const n = sc.batches.length;
  await step(n, [far("z", 1_000_000)], [far("y", 1_000_000)]);
  await step(n + 1, [far("z", 2_000_000)], []);
  return out;
}

describe("stream-stream join over JSON files on the state threads", () => {
  it("equals the main thread's, batch by batch, with the rows split by owner on the decode threads", async (t) => {
    if (scanThreads() < 2) return t.skip("one decode thread here: no scan runs on threads");
    const before = StatePartitionThreads.joinSidesRoutedAhead;
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const reference = await run(sc, false);
        const threaded = await run(sc, true);
        assert.deepEqual(threaded, reference);
      }),
      { numRuns: 15 },
    );
    assert.ok(StatePartitionThreads.joinSidesRoutedAhead > before, "sides came split by owner from the decode threads");
  });
});
