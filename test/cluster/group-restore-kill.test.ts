/**
 * A worker killed while it restores its tasks from the changelog (issue 20, "SIGKILL ... during
 * restore"), then started again: w1 builds state (open windows) over the first half of the input
 * and is killed; w2 takes every task over and kills itself (crash point `insideRestore`) after
 * restoring the first of them; restarted, w2 restores them all from the changelog again (a
 * restore only reads: the dead run left nothing to undo) and processes the rest. read_committed
 * then holds every input record once and every window once with the oracle's count and sum.
 * Independent of state snapshots: the changelog alone is replayed here.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { kafkaBootstrap, kafkaSkip } from "../connectors/kafka-helpers.js";
import { assertExactlyOnce, failureRun, sleep, until } from "./group-process-failures.js";
import type { Worker } from "./harness/workers.js";

const bootstrap = kafkaBootstrap() ?? "";
const running: Worker[] = [];
after(async () => {
  for (const w of running) await w.stop(5000).catch(() => {});
});

type ClusterFacts = { restore?: { tasks: number; records: number } | null } | null;

describe("group mode: a worker killed during restore", kafkaSkip(), () => {
  it("killed after restoring one task of four, restarted: restores again and every row is once", { timeout: 400_000 }, async () => {
    const run = await failureRun(bootstrap, { events: 2000, partitions: 4 });
    const half = Math.floor(run.events.filter((e) => !e.flush).length / 2);
    await run.produceNext(half);
    const w1 = run.worker("w1");
    const w2 = run.worker("w2");
    running.push(w1, w2);
    w1.start();
    await until("w1 read the first half", () => run.rawRowsRead() >= half, 120_000);
    // w1's aggregation has committed state (a loaded machine can run the raw query well ahead of it).
    await until("w1's agg state in the changelog", async () => (await run.changelogRecords()) > 0, 120_000);
    await sleep(2000); // w1's last agg batches commit (its state is in the changelog once committed)
    await w1.kill();
    w2.start("insideRestore:0");
    const died = await w2.awaitExit(120_000);
    assert.ok(died, "w2 reached its crash point inside the restore");
    assert.equal(w2.runs[0]!.exit?.signal, "SIGKILL", `w2's first run: ${JSON.stringify(w2.runs[0]!.exit)} ${w2.stderr.slice(-2000)}`);
    assert.ok(!w2.events.some((e) => e.ev === "progress" && e.query === "agg" && e.run === 0), "w2's first run died before any agg batch");
    w2.start();
    await run.produceNext(half + 1);
    await run.produceFlush();
    const regular = run.events.filter((e) => !e.flush).length;
    await until("every input row read", () => run.rawRowsRead() >= regular + 4, 180_000);
    const expectedWindows = (await run.verdict()).agg.expectedWindows;
    await until("every window", async () => (await run.verdict()).agg.committed >= expectedWindows, 120_000).catch(() => {});
    await sleep(1500);
    await w2.stop();
    const restores = w2.events
      .filter((e) => e.ev === "progress" && e.query === "agg" && e.run === 1)
      .map((e) => (e.cluster as ClusterFacts)?.restore)
      .filter((r) => r != null);
    assert.ok(
      restores.some((r) => r!.tasks === 4 && r!.records > 0),
      `w2's second run restored the 4 tasks from the changelog: ${JSON.stringify(restores)}`,
    );
    const v = await run.verdict();
    assertExactlyOnce(v);
    assert.deepEqual(w2.errors(), []);
  });
});
