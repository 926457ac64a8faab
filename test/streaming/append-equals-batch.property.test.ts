/**
 * Property: an append-mode windowed count, run incrementally over random events cut into
 * random micro-batches (with random idle triggers between them), emits exactly what a batch
 * query computes over the (row, window) pairs Spark's rule keeps: a pair is kept iff
 * `window.end > W(N-1)`, the watermark of the batch before the one that read the row.
 * A final far-future event flushes every real window out of state.
 *
 * The reference decides W(N-1) by simulating Spark's batch construction trigger by trigger
 * (semantics.md §1.3-§1.5): a trigger runs a batch when it has data, or when no-data batches
 * are enabled, some batch ran before and the watermark moved past the last batch's W. The
 * aggregation itself is left to a batch DataFrame.
 */
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F } from "../../src/index.js";
import { addData, advanceClock, checkAnswer, type StreamAction, testStream } from "../../src/testing/index.js";
import { utcSession } from "./helpers.js";

const session = utcSession();
const FAR_FUTURE_US = 10_000_000 * 1_000_000; // ~4 months after the epoch: beyond every window

/** A Date carrying exact microseconds, the way arus reads and returns timestamps. */
function dateOf(micros: number): Date {
  const d = new Date(Math.floor(micros / 1000));
  Object.defineProperty(d, "micros", { value: micros, enumerable: false });
  return d;
}

// Event times in [0, 60 s]: whole seconds (window and watermark boundaries), ms and µs.
const eventTime = fc.oneof(
  fc.integer({ min: 0, max: 60 }).map((s) => s * 1_000_000),
  fc.integer({ min: 0, max: 60_000 }).map((ms) => ms * 1000),
  fc.integer({ min: 0, max: 60_000_000 }),
);

const scenario = fc.record({
  delayMs: fc.constantFrom(0, 1000, 5000, 10_000),
  windowMs: fc.constantFrom(5000, 10_000),
  sliding: fc.boolean(),
  noDataBatches: fc.boolean(),
  batches: fc.array(fc.record({ events: fc.array(eventTime, { minLength: 1, maxLength: 6 }), idleAfter: fc.integer({ min: 0, max: 2 }) }), {
    minLength: 1,
    maxLength: 8,
  }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** Triggers in order: the rows each one finds (empty = nothing new). */
function triggers(sc: Scenario): number[][] {
  const out: number[][] = [[]]; // the query's first trigger, at start, finds nothing
  for (const b of sc.batches) {
    out.push(b.events);
    for (let i = 0; i < b.idleAfter; i++) out.push([]);
  }
  // flush: two far-future data batches (the second evicts even without no-data batches), then idle
  out.push([FAR_FUTURE_US], [FAR_FUTURE_US], [], []);
  return out;
}

/** Spark's batch construction and watermark rules: the late-filter watermark of every real event. */
function lateWatermarks(sc: Scenario): { micros: number; lateWmMs: number }[] {
  let wm = 0; // global watermark after the last executed batch
  let lastBatchW = 0; // W of the last executed batch
  let executed = false;
  const kept: { micros: number; lateWmMs: number }[] = [];
  for (const rows of triggers(sc)) {
    const hasData = rows.length > 0;
    if (!hasData && !(sc.noDataBatches && executed && wm > lastBatchW)) continue;
    const lateWm = executed ? lastBatchW : 0; // W(N-1)
    for (const micros of rows) if (micros !== FAR_FUTURE_US) kept.push({ micros, lateWmMs: lateWm });
    const W = wm; // W(N): fixed when the batch is constructed
    if (hasData) wm = Math.max(wm, Math.max(...rows.map((us) => Math.floor(us / 1000))) - sc.delayMs);
    lastBatchW = W;
    executed = true;
  }
  return kept;
}

function windowOf(sc: Scenario) {
  const size = `${sc.windowMs / 1000} seconds`;
  const slide = `${(sc.sliding ? sc.windowMs / 2 : sc.windowMs) / 1000} seconds`;
  return (col: string) => F.window(col, size, slide);
}

async function expectedCounts(sc: Scenario): Promise<Record<string, unknown>[]> {
  const rows = lateWatermarks(sc).map((r) => ({ ts: dateOf(r.micros), late_wm: new Date(r.lateWmMs) }));
  if (rows.length === 0) return [];
  return session
    .createDataFrame(rows, "ts TIMESTAMP, late_wm TIMESTAMP")
    .select(windowOf(sc)("ts").alias("window"), "late_wm")
    .filter("window.end > late_wm") // each (row, window) pair judged on its own
    .groupBy("window")
    .count()
    .collect();
}

async function runIncrementally(sc: Scenario, expected: Record<string, unknown>[]): Promise<void> {
  const ms = session.memoryStream("ts TIMESTAMP");
  const df = ms.toDF().withWatermark("ts", `${sc.delayMs} milliseconds`).groupBy(windowOf(sc)("ts")).count();
  const actions: StreamAction[] = [];
  for (const rows of triggers(sc).slice(1)) {
    if (rows.length)
      actions.push(
        addData(
          ms,
          rows.map((us) => ({ ts: dateOf(us) })),
        ),
      );
    actions.push(advanceClock(1000));
  }
  actions.push(checkAnswer(expected));
  await testStream(df, "append", actions, {
    trigger: { processingTime: "1 second" },
    conf: { "spark.sql.streaming.noDataMicroBatches.enabled": sc.noDataBatches },
  });
}

describe("append-mode windowed count equals a batch count over the rows Spark keeps", () => {
  it("holds for random events, batch cuts, idle triggers, delays and window shapes", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        await runIncrementally(sc, await expectedCounts(sc));
      }),
      { numRuns: 50 },
    );
  });
});
