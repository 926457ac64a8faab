/**
 * Property: with arus.state.join.columnar=true a stream-stream join gives exactly what it gives
 * over the row stores: the same rows in every batch and the same state metrics, for random rows
 * cut into random micro-batches on both sides, every join type, joins evicted by a window in the
 * key, by a time range on the values, or never, with and without a residual condition, NULL and
 * NaN keys, random watermark delays, and restarts from the checkpoint at random batches.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { StreamStreamJoinExec } from "../../src/execution/stateful/stream-join.js";
import { type DataFrame, functions as F, Session } from "../../src/index.js";

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const FLAG = "arus.state.join.columnar";
const dirs: string[] = [];
after(() => {
  s.conf.unset(FLAG);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const row = fc.record({
  k: fc.constantFrom("a", "b", "c", null),
  d: fc.constantFrom(0, -0, 1.5, Number.NaN, null),
  ms: fc.oneof(
    fc.integer({ min: 0, max: 11 }).map((x) => x * 5000),
    fc.integer({ min: 0, max: 59 }).map((x) => x * 1000),
    fc.integer({ min: 0, max: 59_999 }),
  ),
  v: fc.oneof(fc.integer({ min: -3, max: 9 }), fc.constant(null)),
});

const scenario = fc.record({
  type: fc.constantFrom("inner", "left_outer", "right_outer", "full_outer", "left_semi"),
  shape: fc.constantFrom("window", "range", "range+residual", "plain", "double-key"),
  delayMs: fc.constantFrom(0, 2000, 5000),
  batches: fc.array(fc.tuple(fc.array(row, { maxLength: 5 }), fc.array(row, { maxLength: 5 })), { minLength: 1, maxLength: 6 }),
  restarts: fc.subarray([1, 2, 3, 4, 5]),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const RANGE = "rts >= lts - interval 5 seconds AND rts <= lts + interval 5 seconds";

/** The join, or null where Spark refuses it (outer and semi joins need a bound on the state). */
function query(l0: DataFrame, r0: DataFrame, sc: Scenario): DataFrame | null {
  if (sc.shape === "plain" && sc.type !== "inner") return null;
  const plain = sc.shape === "plain";
  const l = plain ? l0 : l0.withWatermark("lts", `${sc.delayMs} milliseconds`);
  const r = plain ? r0 : r0.withWatermark("rts", `${sc.delayMs} milliseconds`);
  switch (sc.shape) {
    case "window": {
      const lw = l.select("lk", "lv", "lts", F.window("lts", "10 seconds").alias("lw"));
      const rw = r.select("rk", "rv", "rts", F.window("rts", "10 seconds").alias("rw"));
      return lw.join(rw, F.expr("lk = rk AND lw = rw"), sc.type);
    }
    case "range":
      return l.join(r, F.expr(`lk = rk AND ${RANGE}`), sc.type);
    case "range+residual":
      return l.join(r, F.expr(`lk = rk AND ${RANGE} AND lv < rv + 3`), sc.type);
    case "double-key":
      return l.join(r, F.expr(`ld = rd AND ${RANGE}`), sc.type);
    case "plain":
      return l.join(r, F.expr("lk = rk"), sc.type);
  }
  return null;
}

interface Run {
  rows: string[][];
  stats: number[][];
}

async function run(sc: Scenario, columnar: boolean): Promise<Run | null> {
  s.conf.set(FLAG, String(columnar));
  const dir = mkdtempSync(path.join(tmpdir(), "arus-join-prop-"));
  dirs.push(dir);
  const ls = s.memoryStream("lk STRING, ld DOUBLE, lts TIMESTAMP, lv INT");
  const rs = s.memoryStream("rk STRING, rd DOUBLE, rts TIMESTAMP, rv INT");
  if (!query(ls.toDF(), rs.toDF(), sc)) return null;
  const out: Run = { rows: [], stats: [] };
  const start = () =>
    query(ls.toDF(), rs.toDF(), sc)!
      .writeStream.outputMode("append")
      .option("checkpointLocation", dir)
      .foreachBatch(async (batch, id) => {
        out.rows[id] = (await batch.collect()).map((r) => JSON.stringify(r)).sort();
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
    if (sc.restarts.includes(b)) {
      record();
      await q.stop();
      q = await start();
    }
    const [left, right] = sc.batches[b]!;
    ls.addData(left.map((e) => ({ lk: e.k, ld: e.d, lts: new Date(e.ms), lv: e.v })));
    rs.addData(right.map((e) => ({ rk: e.k, rd: e.d, rts: new Date(e.ms), rv: e.v })));
    await q.processAllAvailable();
  }
  // Far-future rows on both sides move the watermark past everything: outer rows come out.
  ls.addData([{ lk: "z", ld: 9, lts: new Date(1_000_000), lv: 0 }]);
  rs.addData([{ rk: "y", rd: 8, rts: new Date(1_000_000), rv: 0 }]);
  await q.processAllAvailable();
  ls.addData([{ lk: "z", ld: 9, lts: new Date(2_000_000), lv: 0 }]);
  await q.processAllAvailable();
  record();
  await q.stop();
  return out;
}

describe("columnar stream-stream join state equals the row stores", () => {
  it("on random rows, batch cuts, join types, conditions and watermarks, across restarts", async () => {
    const before = StreamStreamJoinExec.created.columnar;
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const rows = await run(sc, false);
        const cols = await run(sc, true);
        assert.deepEqual(cols, rows);
      }),
      { numRuns: 50 },
    );
    assert.ok(StreamStreamJoinExec.created.columnar > before, "the columnar join state was planned");
  });
});
