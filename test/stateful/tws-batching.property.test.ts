/**
 * Property: a transformWithState processor with value, list and map state and event-time
 * timers, run as a query over random keyed events cut into random micro-batches with random
 * stop/restart points (state and pending timers go through the checkpoint), emits exactly what
 * a single-pass reference run of the same processor emits: TwsTester handing each key all its
 * rows at once, then moving the watermark to its final value.
 *
 * The processor's output is chosen not to depend on batching — one row per input row with the
 * key's running counts (rows reach a key in arrival order), one row per fired timer — and event
 * times grow with arrival so no row is late; what may differ is then only the engine's doing.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type ExpiredTimerInfo,
  type ListState,
  type MapState,
  type ProcessorRow,
  StatefulProcessor,
  type StatefulProcessorHandle,
  type ValueState,
} from "../../src/index.js";
import {
  addData,
  processAllAvailable,
  type StreamAction,
  startStream,
  stopStream,
  TwsTester,
  testStream,
} from "../../src/testing/index.js";
import { utcSession } from "../streaming/helpers.js";

const session = utcSession();
const DELAY_MS = 2000;
const TIMER_AFTER_MS = 5000;

class Tally extends StatefulProcessor {
  private h!: StatefulProcessorHandle;
  private n!: ValueState;
  private perSub!: MapState;
  private seen!: ListState;
  init(h: StatefulProcessorHandle) {
    this.h = h;
    this.n = h.getValueState("n", "n BIGINT");
    this.perSub = h.getMapState("perSub", "sub STRING", "c BIGINT");
    this.seen = h.getListState("seen", "v INT");
  }
  *handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[]) {
    let n = (this.n.get()?.n as number | undefined) ?? 0;
    for (const r of rows) {
      n++;
      const c = ((this.perSub.getValue({ sub: r.sub })?.c as number | undefined) ?? 0) + 1;
      this.perSub.updateValue({ sub: r.sub }, { c });
      this.seen.appendValue({ v: r.v });
      this.h.registerTimer((r.ts as Date).getTime() + TIMER_AFTER_MS);
      yield { k: key[0], kind: "row", seq: n, sub: r.sub, c, total: [...this.seen.get()].reduce((a, x) => a + (x.v as number), 0) };
    }
    this.n.update({ n });
  }
  override *handleExpiredTimer(key: readonly unknown[], _tv: unknown, info: ExpiredTimerInfo) {
    yield { k: key[0], kind: "timer", seq: info.getExpiryTimeInMs(), sub: null, c: null, total: null };
  }
}

const OUTPUT = "k STRING, kind STRING, seq BIGINT, sub STRING, c BIGINT, total BIGINT";

const scenario = fc.record({
  events: fc.array(
    fc.record({
      k: fc.constantFrom("a", "b", "c", "d"),
      sub: fc.constantFrom("x", "y"),
      v: fc.integer({ min: -5, max: 20 }),
      gapMs: fc.integer({ min: 0, max: 3000 }),
    }),
    { minLength: 1, maxLength: 25 },
  ),
  cuts: fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
  restarts: fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
});

const canon = (rows: readonly ProcessorRow[]) =>
  rows
    .map((r) =>
      JSON.stringify([
        r.k,
        r.kind,
        Number(r.seq),
        r.sub ?? null,
        r.c === null || r.c === undefined ? null : Number(r.c),
        r.total === null || r.total === undefined ? null : Number(r.total),
      ]),
    )
    .sort();

describe("transformWithState batching and restarts", () => {
  it("equals a single-pass run of the same processor", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        let t = 10_000;
        const events = sc.events.map((e) => {
          t += e.gapMs;
          return { k: e.k, sub: e.sub, v: e.v, ts: new Date(t) };
        });
        const finalWatermark = t - DELAY_MS;

        // Reference: every key's rows in one call, then the final watermark.
        const ref = new TwsTester(new Tally(), { timeMode: "eventTime" });
        const expected: ProcessorRow[] = [];
        for (const k of new Set(events.map((e) => e.k)))
          expected.push(
            ...ref.test(
              k,
              events.filter((e) => e.k === k),
            ),
          );
        expected.push(...ref.setWatermark(finalWatermark));

        // The query: micro-batches cut at random, stopped and restarted at random.
        const ms = session.memoryStream("k STRING, sub STRING, v INT, ts TIMESTAMP");
        const df = ms
          .toDF()
          .withWatermark("ts", `${DELAY_MS} milliseconds`)
          .groupBy("k")
          .transformWithState(new Tally(), OUTPUT, "append", "eventTime");
        const actions: StreamAction[] = [];
        let pending: typeof events = [];
        events.forEach((e, i) => {
          pending.push(e);
          const last = i === events.length - 1;
          if (sc.cuts[i] || last) {
            actions.push(addData(ms, pending), processAllAvailable());
            pending = [];
            if (sc.restarts[i] && !last) actions.push(stopStream(), startStream());
          }
        });
        const { sinkBatches } = await testStream(df, "append", actions);
        const actual = sinkBatches.flatMap((b) => b.rows as ProcessorRow[]);
        assert.deepEqual(canon(actual), canon(expected));
      }),
      { numRuns: Number(process.env.ARUS_PROPERTY_RUNS ?? 25) },
    );
  });
});
