/**
 * Property: a sliding-window aggregation gives the same results whether it aggregates per pane
 * first (arus.state.aggregation.panes, the default) or expands every row into its windows:
 * the same rows in every batch, the same state metrics (groups dropped as late, late input
 * rows, state rows total / updated / removed) and the same late rows, in the same order, to the
 * late-rows sink. Random events (late ones included: event times go back and forth, some
 * before the epoch, some NULL) from two unioned streams, window / slide shapes with and without
 * a start offset, watermark delays, output modes, key / value columns with NULLs, and doubles
 * with -0.0 (which must keep the expanded path).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { StreamingAggregateExec } from "../../src/execution/stateful/streaming-aggregate.js";
import { functions as F } from "../../src/index.js";
import { utcSession } from "../streaming/helpers.js";

const session = utcSession();

const event = fc.record({
  // whole seconds often: watermarks then land exactly on window ends (the late boundary);
  // before the epoch too, and NULL now and then (filtered below the Expand)
  ms: fc.option(
    fc.oneof(
      fc.integer({ min: -10, max: 60 }).map((s) => s * 1000),
      fc.integer({ min: -10_000, max: 60_000 }),
    ),
    { nil: null, freq: 20 },
  ),
  key: fc.option(fc.constantFrom("a", "b", "c"), { nil: null, freq: 8 }),
  v: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null, freq: 6 }),
  // -0.0 and 0.0 tie in min / max: a pane merge would keep another one (panes refuse doubles)
  w: fc.constantFrom(0, -0, 1.5, -2.5),
  // which of two unioned streams carries it: a micro-batch then has several input batches
  second: fc.boolean(),
});

const scenario = fc.record({
  // window = slides * slide (panes need a multiple)
  slideS: fc.constantFrom(1, 2, 5),
  slides: fc.constantFrom(2, 3, 5),
  delayS: fc.constantFrom(0, 3, 10),
  mode: fc.constantFrom("append", "update", "complete") as fc.Arbitrary<"append" | "update" | "complete">,
  withKey: fc.boolean(),
  startMs: fc.constantFrom(0, 500),
  withDouble: fc.boolean(),
  batches: fc.array(fc.array(event, { maxLength: 15 }), { minLength: 1, maxLength: 6 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** JSON that tells -0.0 from 0.0. */
const show = (r: unknown): string => JSON.stringify(r, (_k, v) => (Object.is(v, -0) ? "-0" : v));

interface Run {
  batches: Map<number, string[]>;
  metrics: string[];
  late: string[];
}

async function run(sc: Scenario, panes: boolean): Promise<Run> {
  session.conf.set("arus.state.aggregation.panes", String(panes));
  const schema = "ts TIMESTAMP, key STRING, v INT, w DOUBLE";
  const ms = [session.memoryStream(schema), session.memoryStream(schema)] as const;
  const window = F.window("ts", `${sc.slideS * sc.slides} seconds`, `${sc.slideS} seconds`, `${sc.startMs} milliseconds`);
  const keys = sc.withKey ? [window, F.col("key")] : [window];
  const aggs = [
    F.count("*").alias("n"),
    F.count("v").alias("nv"),
    F.sum("v").alias("total"),
    F.min("v").alias("lo"),
    F.max("v").alias("hi"),
    F.avg("v").alias("mean"),
  ];
  if (sc.withDouble) aggs.push(F.min("w").alias("wlo"), F.max("w").alias("whi"));
  const df = ms[0]
    .toDF()
    .union(ms[1].toDF())
    .withWatermark("ts", `${sc.delayS} seconds`)
    .groupBy(...keys)
    .agg(aggs[0]!, ...aggs.slice(1));
  const out: Run = { batches: new Map(), metrics: [], late: [] };
  const q = await df.writeStream
    .outputMode(sc.mode)
    .onLateRows(async (late, id) => {
      for (const r of await late.collect()) out.late.push(`${id} ${show(r)}`);
    })
    .foreachBatch(async (b, id) => {
      out.batches.set(id, (await b.collect()).map((r) => show(r)).sort());
    })
    .start();
  session.conf.unset("arus.state.aggregation.panes");
  try {
    for (const rows of sc.batches) {
      for (const [i, m] of ms.entries()) {
        await m.addData(
          rows
            .filter((e) => e.second === (i === 1))
            .map((e) => ({ ts: e.ms === null ? null : new Date(e.ms), key: e.key, v: e.v, w: e.w })),
        );
      }
      await q.processAllAvailable();
      const p = q.lastProgress!;
      const { numRowsDroppedByWatermark, numRowsTotal, numRowsUpdated, numRowsRemoved } = p.stateOperators[0]!;
      out.metrics.push(
        JSON.stringify({
          batch: p.batchId,
          numRowsDroppedByWatermark,
          numRowsTotal,
          numRowsUpdated,
          numRowsRemoved,
          arus: p.arus?.numLateInputRows,
        }),
      );
    }
  } finally {
    await q.stop();
  }
  return out;
}

describe("sliding windows by panes", () => {
  it("equal the expanded rows: output, state metrics and late rows", async () => {
    session.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false"); // one batch per addData
    try {
      const before = StreamingAggregateExec.withPanes;
      await fc.assert(
        fc.asyncProperty(scenario, async (sc) => {
          const expanded = await run(sc, false);
          const byPanes = await run(sc, true);
          assert.deepEqual(byPanes, expanded);
        }),
        { numRuns: 60 },
      );
      assert.ok(StreamingAggregateExec.withPanes > before, "the pane path ran");
    } finally {
      session.conf.unset("spark.sql.streaming.noDataMicroBatches.enabled");
    }
  });
});
