/**
 * Property: with arus.state.aggregation.columnar=true a streaming aggregation gives exactly
 * what the row operator gives: the same rows in every batch and the same state metrics, for
 * random events cut into random micro-batches, random output modes, watermark delays, keys
 * (window + string, string only, timestamp, none) and aggregates (min / max of a struct of
 * numbers among them: NULL fields, NaN, -0.0, BIGINTs past 2^53), with a restart from the
 * checkpoint at a random batch.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { StreamingAggregateExec } from "../../src/execution/stateful/streaming-aggregate.js";
import { type Column, type DataFrame, functions as F, Session } from "../../src/index.js";

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const FLAG = "arus.state.aggregation.columnar";
const dirs: string[] = [];
after(() => {
  s.conf.unset(FLAG);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const event = fc.record({
  k: fc.constantFrom("a", "b", "c", "", null),
  // event times in [0, 60 s): window boundaries, whole seconds and ms
  ms: fc.oneof(
    fc.integer({ min: 0, max: 11 }).map((x) => x * 5000),
    fc.integer({ min: 0, max: 59 }).map((x) => x * 1000),
    fc.integer({ min: 0, max: 59_999 }),
  ),
  v: fc.oneof(fc.integer({ min: -3, max: 9 }), fc.constant(null)),
  d: fc.constantFrom(null, Number.NaN, -0, 0, 1.5, -2),
  big: fc.constantFrom(null, 1n, 5n, 2n ** 60n, -(2n ** 60n), 2n ** 60n + 1n),
});

const scenario = fc.record({
  mode: fc.constantFrom("update", "append", "complete"),
  shape: fc.constantFrom("window+k", "sliding+k", "window", "k", "ts", "global"),
  delayMs: fc.constantFrom(0, 2000, 10_000),
  aggs: fc.subarray(["count", "countv", "sum", "avg", "min", "max", "first", "last", "minTs", "maxStruct", "minStruct"], { minLength: 1 }),
  batches: fc.array(fc.array(event, { minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 7 }),
  restartAt: fc.integer({ min: 0, max: 7 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function aggColumns(names: readonly string[]): Column[] {
  const all: Record<string, () => Column> = {
    count: () => F.count("*").alias("n"),
    countv: () => F.count("v").alias("nv"),
    sum: () => F.sum("v").alias("s"),
    avg: () => F.avg("v").alias("a"),
    min: () => F.min("v").alias("mn"),
    max: () => F.max("v").alias("mx"),
    first: () => F.first("v").alias("f"),
    last: () => F.last("v", true).alias("l"),
    minTs: () => F.min("ts").alias("mts"),
    maxStruct: () => F.max(F.struct("v", "d", "ts")).alias("ms"),
    minStruct: () => F.min(F.struct("d", "big")).alias("ns"),
  };
  return names.map((n) => all[n]!());
}

/** The query; null when Spark would refuse it (append without a watermarked key). */
function query(df: DataFrame, sc: Scenario): DataFrame | null {
  const w = df.withWatermark("ts", `${sc.delayMs} milliseconds`);
  const aggs = aggColumns(sc.aggs);
  const [first, ...rest] = aggs;
  switch (sc.shape) {
    case "window+k":
      return w.groupBy(F.window("ts", "10 seconds"), "k").agg(first!, ...rest);
    case "sliding+k":
      return w.groupBy(F.window("ts", "10 seconds", "5 seconds"), "k").agg(first!, ...rest);
    case "window":
      return w.groupBy(F.window("ts", "10 seconds")).agg(first!, ...rest);
    case "ts":
      return w.groupBy("ts").agg(first!, ...rest);
    case "k":
      return sc.mode === "append" ? null : df.groupBy("k").agg(first!, ...rest);
    case "global":
      return sc.mode === "append" ? null : df.agg(first!, ...rest);
  }
}

/** JSON of a row that tells NaN, -0 and bigints apart (JSON.stringify would print null, 0, or throw). */
function exact(_key: string, v: unknown): unknown {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number" && (Number.isNaN(v) || Object.is(v, -0))) return String(Object.is(v, -0) ? "-0" : v);
  return v;
}

interface Run {
  rows: string[][];
  stats: number[][];
}

async function run(sc: Scenario, columnar: boolean): Promise<Run | null> {
  s.conf.set(FLAG, String(columnar));
  const dir = mkdtempSync(path.join(tmpdir(), "arus-columnar-prop-"));
  dirs.push(dir);
  const ms = s.memoryStream("k STRING, ts TIMESTAMP, v INT, d DOUBLE, big BIGINT");
  const q0 = query(ms.toDF(), sc);
  if (!q0) return null;
  const out: Run = { rows: [], stats: [] };
  const start = () =>
    query(ms.toDF(), sc)!
      .writeStream.outputMode(sc.mode)
      .option("checkpointLocation", dir)
      .foreachBatch(async (batch, id) => {
        out.rows[id] = (await batch.collect()).map((r) => JSON.stringify(r, exact)).sort();
      })
      .start();
  let q = await start();
  const record = () => {
    for (const p of q.recentProgress) {
      const op = p.stateOperators[0];
      if (op) out.stats[p.batchId] = [op.numRowsTotal, op.numRowsUpdated, op.numRowsRemoved, op.numRowsDroppedByWatermark];
    }
  };
  for (let b = 0; b < sc.batches.length; b++) {
    if (b === sc.restartAt) {
      record();
      await q.stop();
      q = await start();
    }
    ms.addData(sc.batches[b]!.map((e) => ({ k: e.k, ts: new Date(e.ms), v: e.v, d: e.d, big: e.big })));
    await q.processAllAvailable();
  }
  // a far-future event closes every window (append mode emits them)
  ms.addData([{ k: "a", ts: new Date(1_000_000), v: 1, d: null, big: null }]);
  await q.processAllAvailable();
  record();
  await q.stop();
  return out;
}

describe("columnar streaming aggregation equals the row operator", () => {
  it("on random events, batch cuts, modes, keys and aggregates, across a restart", async () => {
    const before = StreamingAggregateExec.created.columnar;
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const rows = await run(sc, false);
        const cols = await run(sc, true);
        assert.deepEqual(cols, rows);
      }),
      { numRuns: 60 },
    );
    assert.ok(StreamingAggregateExec.created.columnar > before, "the columnar operator was planned");
  });

  it("holds min / max of a struct of numbers in the columnar table, and of a struct with a string in the row store", async () => {
    s.conf.set(FLAG, "true");
    const ms = s.memoryStream("k STRING, ts TIMESTAMP, v INT");
    const before = StreamingAggregateExec.created.columnar;
    const q = await ms
      .toDF()
      .groupBy("k")
      .agg(F.max(F.struct("v", "ts")))
      .writeStream.outputMode("update")
      .format("memory")
      .queryName("struct_max")
      .start();
    await q.stop();
    assert.equal(StreamingAggregateExec.created.columnar, before + 1, "max(struct(v, ts)) is columnar");
    const q2 = await ms
      .toDF()
      .groupBy("k")
      .agg(F.max(F.struct("v", "k")))
      .writeStream.outputMode("update")
      .format("memory")
      .queryName("struct_max_str")
      .start();
    await q2.stop();
    assert.equal(StreamingAggregateExec.created.columnar, before + 1, "max(struct(v, k)) stays in the row store");
  });
});
