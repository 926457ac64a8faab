/**
 * The one streaming aggregation operator and its state backends: the planner picks the backend
 * from the configuration (row stores, the columnar table, the columnar tables on state threads),
 * and the output-mode rules every backend runs (`emitByMode`) are Spark's.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { makeBatch } from "../../src/columnar/batch.js";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { type EmitView, emitByMode } from "../../src/execution/stateful/aggregation-backend.js";
import { StreamingAggregateExec } from "../../src/execution/stateful/streaming-aggregate.js";
import { type DataFrame, functions as F, Session } from "../../src/index.js";
import { LongType } from "../../src/types/datatypes.js";

describe("the planner picks the aggregation's state backend from the configuration", () => {
  const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
  const KEYS = ["arus.state.aggregation.columnar", "arus.state.threads", "spark.sql.streaming.stateStore.providerClass"];
  after(() => {
    for (const k of KEYS) s.conf.unset(k);
  });

  /** Run one batch of `agg` with the given settings; which backend counter moved, and the rows. */
  async function planned(conf: Record<string, string>, agg: (df: DataFrame) => DataFrame): Promise<{ kind: string; rows: string[] }> {
    for (const k of KEYS) s.conf.unset(k);
    for (const [k, v] of Object.entries(conf)) s.conf.set(k, v);
    const before = { ...StreamingAggregateExec.created };
    const ms = s.memoryStream("k STRING, v INT");
    const rows: string[] = [];
    const q = await agg(ms.toDF())
      .writeStream.outputMode("update")
      .foreachBatch(async (b) => {
        for (const r of await b.collect()) rows.push(JSON.stringify(r));
      })
      .start();
    try {
      ms.addData([
        { k: "a", v: 1 },
        { k: "b", v: 2 },
        { k: "a", v: 3 },
      ]);
      await q.processAllAvailable();
    } finally {
      await q.stop();
    }
    const moved = (Object.keys(before) as (keyof typeof before)[]).filter((k) => StreamingAggregateExec.created[k] !== before[k]);
    assert.equal(moved.length, 1, `exactly one aggregation was planned (${moved.join(", ")})`);
    return { kind: moved[0]!, rows: rows.sort() };
  }

  const sums = (df: DataFrame) => df.groupBy("k").agg(F.sum("v").alias("s"));
  const expected = ['{"k":"a","s":4}', '{"k":"b","s":2}'];

  it("row stores with the flag off, the columnar table with it on, state threads when asked for", async () => {
    assert.deepEqual(await planned({ "arus.state.aggregation.columnar": "false" }, sums), { kind: "row", rows: expected });
    assert.deepEqual(await planned({ "arus.state.aggregation.columnar": "true" }, sums), { kind: "columnar", rows: expected });
    assert.deepEqual(await planned({ "arus.state.aggregation.columnar": "true", "arus.state.threads": "2" }, sums), {
      kind: "threads",
      rows: expected,
    });
    // threads hold columnar state only: with the flag off the row stores stay on this thread
    assert.deepEqual(await planned({ "arus.state.aggregation.columnar": "false", "arus.state.threads": "2" }, sums), {
      kind: "row",
      rows: expected,
    });
  });

  it("row stores for state the columnar table cannot hold", async () => {
    const lists = (df: DataFrame) => df.groupBy("k").agg(F.sort_array(F.collect_list("v")).alias("l"));
    assert.deepEqual(await planned({ "arus.state.aggregation.columnar": "true" }, lists), {
      kind: "row",
      rows: ['{"k":"a","l":[1,3]}', '{"k":"b","l":[2]}'],
    });
  });
});

describe("emitByMode: Spark's output-mode rules, once for every backend", () => {
  /** A state of groups by event time; `log` records what the rules asked for, in order. */
  function view(eventTimes: number[], updated: number[], log: string[]): EmitView<number[]> {
    const live = new Set(eventTimes.map((_, i) => i));
    return {
      updated: () => updated,
      all: () => [...live],
      expired: (w) => [...live].filter((g) => eventTimes[g]! <= w),
      size: (g) => g.length,
      evaluate: (g) => {
        log.push(`evaluate ${g.join(",")}`);
        return makeBatch([vectorFromValues(LongType, g)], g.length);
      },
      remove: (g) => {
        log.push(`remove ${g.join(",")}`);
        for (const x of g) live.delete(x);
      },
    };
  }
  const T = [10, 20, 30, 40];

  it("complete: every group, nothing evicted", () => {
    const log: string[] = [];
    const r = emitByMode(view(T, [1], log), { mode: "complete", watermarked: false, evictMicros: 25 });
    assert.deepEqual([r.output?.numRows, r.removed, log], [4, 0, ["evaluate 0,1,2,3"]]);
  });

  it("update: the updated groups, then the watermark evicts silently", () => {
    const log: string[] = [];
    const r = emitByMode(view(T, [1, 3], log), { mode: "update", watermarked: true, evictMicros: 25 });
    assert.deepEqual([r.output?.numRows, r.removed, log], [2, 2, ["evaluate 1,3", "remove 0,1"]]);
    const quiet: string[] = [];
    const none = emitByMode(view(T, [], quiet), { mode: "update", watermarked: false, evictMicros: 25 });
    assert.deepEqual([none.output, none.removed, quiet], [null, 0, []]);
  });

  it("append: the groups the watermark evicts, evaluated before they are removed; nothing without a watermark", () => {
    const log: string[] = [];
    const r = emitByMode(view(T, [3], log), { mode: "append", watermarked: true, evictMicros: 30 });
    assert.deepEqual([r.output?.numRows, r.removed, log], [3, 3, ["evaluate 0,1,2", "remove 0,1,2"]]);
    const unwatermarked: string[] = [];
    const none = emitByMode(view(T, [3], unwatermarked), { mode: "append", watermarked: false, evictMicros: 30 });
    assert.deepEqual([none.output, none.removed, unwatermarked], [null, 0, []]);
    const closedNothing: string[] = [];
    const early = emitByMode(view(T, [3], closedNothing), { mode: "append", watermarked: true, evictMicros: 5 });
    assert.deepEqual([early.output, early.removed, closedNothing], [null, 0, []]);
  });
});
