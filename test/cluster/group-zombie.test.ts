/**
 * A zombie worker PROCESS (issue 20, "a worker paused past the session timeout"): two workers run
 * the scale-out pipeline in group mode; worker w2 stops itself (SIGSTOP, the crash point's
 * ":pause") inside a batch's transaction, stays stopped past its 6 s session timeout while w1
 * takes its partitions over, then gets SIGCONT. It must be fenced (KIP-447: its offsets carry a
 * generation that is over, so its transaction aborts; or the broker already aborted it at its
 * transaction timeout), make nothing visible, and rejoin; at the end read_committed holds every
 * input record once in out-raw and every window once with the oracle's count and sum.
 *
 *   insideSink       records sent, offsets not; transaction timeout 60 s > the pause: the
 *                    zombie's own sendOffsets is refused (group fence)
 *   afterSendOffsets offsets sent in the transaction, not committed; transaction timeout 8 s <
 *                    the pause: w1 waits on the unstable offsets (require_stable) until the broker
 *                    aborts the zombie's transaction, the zombie's commit then fails (its producer
 *                    epoch was bumped) and it starts again with a new producer
 *   afterSendOffsets offsets sent, transaction timeout 60 s > the pause: w1 waits on the unstable
 *                    offsets until the zombie wakes and commits its batch whole; the zombie then
 *                    rejoins in a newer generation
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { kafkaBootstrap, kafkaSkip } from "../connectors/kafka-helpers.js";
import { assertExactlyOnce, failureRun, processState, sleep, until } from "./group-process-failures.js";
import type { Worker } from "./harness/workers.js";

const bootstrap = kafkaBootstrap() ?? "";
const running: Worker[] = [];
after(async () => {
  for (const w of running) await w.stop(5000).catch(() => {});
});

const CASES = [
  { point: "insideSink", txnTimeoutMs: 60_000, pauseMs: 14_000, fenced: true },
  { point: "afterSendOffsets", txnTimeoutMs: 8_000, pauseMs: 16_000, fenced: true },
  // Offsets sent before the pause, transaction still open at the wake: the new owner waited
  // (require_stable), so the zombie's commit goes through whole, and its next step is fenced.
  { point: "afterSendOffsets", txnTimeoutMs: 60_000, pauseMs: 12_000, fenced: false },
] as const;

/** Whatever group mode adds to a worker's progress lines (worker-progress.ts). */
type ClusterFacts = { abortedTransactions?: number; generationId?: number } | null;

describe("group mode: a worker process paused past its session timeout (zombie)", kafkaSkip(), () => {
  for (const c of CASES) {
    it(`paused at ${c.point} for ${c.pauseMs / 1000} s (transaction timeout ${c.txnTimeoutMs / 1000} s): ${c.fenced ? "fenced, nothing visible" : "its batch commits whole"}, rejoins; every row once`, {
      timeout: 400_000,
    }, async () => {
      const run = await failureRun(bootstrap, {
        events: 6000,
        partitions: 4,
        env: { SCALEOUT_TXN_TIMEOUT_MS: String(c.txnTimeoutMs) },
      });
      await run.produceNext(300);
      const w1 = run.worker("w1");
      const w2 = run.worker("w2");
      running.push(w1, w2);
      w1.start();
      await until("w1 reading", () => run.rawRowsRead() > 0, 90_000);
      // w2 stops itself in its 3rd batch (a group worker counts batches from 0 in each process).
      w2.start(`${c.point}:2:pause`);
      const pid = w2.runs[0]!.pid;
      // Input keeps coming until w2 has run batches with data and stopped (w1 alone could read it all).
      await until(
        "w2 stopped at its pause point",
        async () => {
          if (processState(pid) === "T") return true;
          await run.produceNext(30);
          return false;
        },
        180_000,
      );
      const pausedAt = Date.now();
      const w1Events = w1.events.length;
      await sleep(c.pauseMs);
      const w1Later = () => w1.events.slice(w1Events).filter((e) => e.ev === "progress");
      // Each query has its own group (scaleout-pipeline.ts), so generations compare within a query.
      const generationOf = (e: { cluster?: unknown }) => (e.cluster as ClusterFacts)?.generationId ?? -1;
      const w2Gens = new Map<string, number>();
      for (const e of w2.events)
        if (e.ev === "progress" && e.query) w2Gens.set(e.query, Math.max(w2Gens.get(e.query) ?? -1, generationOf(e)));
      const w1MovedOn = () =>
        w1Later().some((e) => (e.query === "raw" || e.query === "agg") && generationOf(e) > (w2Gens.get(e.query) ?? -1));
      if (c.fenced) {
        // w2's session (6 s) is over: w1 runs batches in a newer generation while w2 is still
        // stopped. A loaded machine may take longer than the pause to get there; w2 stays
        // stopped meanwhile (at most 30 s more, still inside the 60 s transaction timeout of
        // the insideSink case). Unfenced, w1's takeover waits on the zombie's unstable offsets
        // instead (require_stable).
        // Input keeps coming meanwhile, so w1 has batches to run (and report) in its new generation.
        await until(
          "w1 running in a generation after w2's while w2 is stopped",
          async () => {
            if (w1MovedOn()) return true;
            await run.produceNext(10);
            return false;
          },
          30_000,
        );
        assert.ok(w1Later().length > 0, "w1 kept running while w2 was paused");
        assert.ok(w1MovedOn(), "w1 moved to a generation after w2's");
      }
      process.kill(pid, "SIGCONT");
      const resumedAt = Date.now();
      while ((await run.produceNext(500)) > 0) {}
      // The zombie rejoins (a newer generation) and runs batches again; fenced, it reports its aborted transaction.
      await until(
        "w2 running again after the pause",
        () =>
          w2.events.some((e) => {
            const f = e.cluster as ClusterFacts;
            return (
              e.ev === "progress" &&
              e.t > resumedAt &&
              generationOf(e) > (w2Gens.get(e.query ?? "") ?? -1) &&
              (!c.fenced || (f?.abortedTransactions ?? 0) > 0)
            );
          }) || w2.runs[0]!.exit !== undefined,
        120_000,
      ).catch((e: Error) => {
        const tail = w2.events.slice(-6).map((x) => JSON.stringify(x).slice(0, 400));
        throw new Error(`${e.message}\nw2 state ${processState(pid)}; last events:\n${tail.join("\n")}\nstderr: ${w2.stderr.slice(-3000)}`);
      });
      assert.equal(w2.runs[0]!.exit, undefined, `w2 exited after SIGCONT: ${w2.errors().join("\n")}`);
      await run.produceFlush();
      const regular = run.events.filter((e) => !e.flush).length;
      await until("every input row read", () => run.rawRowsRead() >= regular + 4, 180_000);
      // Windows close once the flush moved the watermark: give the last batches time.
      const expectedWindows = (await run.verdict()).agg.expectedWindows;
      await until("every window", async () => (await run.verdict()).agg.committed >= expectedWindows, 120_000).catch(() => {});
      await sleep(1500);
      for (const w of [w1, w2]) await w.stop();
      const v = await run.verdict();
      assertExactlyOnce(v);
      // The zombie's transaction held records (sent before the pause) that no read_committed reader sees.
      if (c.fenced) assert.ok(v.aborted > 0, "the zombie's records were aborted");
      assert.deepEqual([...w1.errors(), ...w2.errors()], []);
      // A timer may fire up to a millisecond before Date.now() shows its delay passed (libuv's
      // clock is coarser than the wall clock), so the pause is checked to the millisecond's slack.
      assert.ok(resumedAt - pausedAt >= c.pauseMs - 2, `w2 paused ${resumedAt - pausedAt} ms, less than ${c.pauseMs}`);
    });
  }
});
