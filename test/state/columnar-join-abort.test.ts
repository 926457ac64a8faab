/**
 * A batch that fails after the join changed its state (the sink throws) aborts the columnar
 * join state's changes; the restart re-runs the batch from the previous version and the output
 * is an uninterrupted run's, on both backends.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const FLAG = "arus.state.join.columnar";
const dirs: string[] = [];
after(() => {
  s.conf.unset(FLAG);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const at = (sec: number) => new Date(sec * 1000);
/** Per batch: left (k, second), right (k, second). */
const BATCHES: [[string, number][], [string, number][]][] = [
  [
    [
      ["a", 1],
      ["b", 2],
    ],
    [["a", 3]],
  ],
  [[["c", 5]], [["b", 4]]],
  [[["d", 30]], [["x", 31]]],
  [[["e", 50]], [["y", 51]]],
];

async function run(columnar: boolean, failBatch: number | null): Promise<string[]> {
  s.conf.set(FLAG, String(columnar));
  const dir = mkdtempSync(path.join(tmpdir(), "arus-join-abort-"));
  dirs.push(dir);
  const ls = s.memoryStream("k STRING, t TIMESTAMP");
  const rs = s.memoryStream("rk STRING, rt TIMESTAMP");
  const rows: string[] = [];
  let fail = failBatch;
  const start = () => {
    const l = ls.toDF().withWatermark("t", "2 seconds");
    const r = rs.toDF().withWatermark("rt", "2 seconds");
    return l
      .join(r, F.expr("k = rk AND rt >= t - interval 5 seconds AND rt <= t + interval 5 seconds"), "full_outer")
      .writeStream.option("checkpointLocation", dir)
      .foreachBatch(async (b, id) => {
        const got = (await b.collect()).map((row) => `${id} ${JSON.stringify(row)}`);
        if (id === fail) {
          fail = null;
          throw new Error("sink down");
        }
        rows.push(...got);
      })
      .start();
  };
  let q = await start();
  for (const [left, right] of BATCHES) {
    ls.addData(left.map(([k, sec]) => ({ k, t: at(sec) })));
    rs.addData(right.map(([k, sec]) => ({ rk: k, rt: at(sec) })));
    try {
      await q.processAllAvailable();
    } catch {
      // The batch failed and aborted its state: start again from the checkpoint.
      q = await start();
      await q.processAllAvailable();
    }
  }
  await q.stop();
  return rows.sort();
}

it("a failed batch aborts the join state's changes and its re-run gives the uninterrupted output", async () => {
  const want = await run(false, null);
  assert.ok(want.some((r) => r.includes('"rk":null')) && want.some((r) => r.includes('"k":null')), want.join("; "));
  for (const failBatch of [1, 2, 3]) {
    assert.deepEqual(await run(true, failBatch), want, `columnar, batch ${failBatch} failed once`);
    assert.deepEqual(await run(false, failBatch), want, `row stores, batch ${failBatch} failed once`);
  }
});
