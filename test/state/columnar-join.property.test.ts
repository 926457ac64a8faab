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
import { Session } from "../../src/index.js";
import { joinKind, joinQuery, joinRow, LEFT_SCHEMA, leftRow, RIGHT_SCHEMA, rightRow } from "./join-scenarios.js";

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const FLAG = "arus.state.join.columnar";
const dirs: string[] = [];
after(() => {
  s.conf.unset(FLAG);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const scenario = fc.record({
  ...joinKind,
  batches: fc.array(fc.tuple(fc.array(joinRow, { maxLength: 5 }), fc.array(joinRow, { maxLength: 5 })), { minLength: 1, maxLength: 6 }),
  restarts: fc.subarray([1, 2, 3, 4, 5]),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

interface Run {
  rows: string[][];
  stats: number[][];
}

async function run(sc: Scenario, columnar: boolean): Promise<Run | null> {
  s.conf.set(FLAG, String(columnar));
  const dir = mkdtempSync(path.join(tmpdir(), "arus-join-prop-"));
  dirs.push(dir);
  const ls = s.memoryStream(LEFT_SCHEMA);
  const rs = s.memoryStream(RIGHT_SCHEMA);
  if (!joinQuery(ls.toDF(), rs.toDF(), sc)) return null;
  const out: Run = { rows: [], stats: [] };
  const start = () =>
    joinQuery(ls.toDF(), rs.toDF(), sc)!
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
    ls.addData(left.map(leftRow));
    rs.addData(right.map(rightRow));
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
