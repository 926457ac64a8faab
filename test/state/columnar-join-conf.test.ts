/**
 * `arus.state.join.columnar` behind real queries: it is sticky (the checkpoint's value wins on
 * restart, so a checkpoint written by the row stores restarts on them unchanged, and a
 * checkpoint written before arus recorded the conf keeps the row stores), and it applies only
 * with the in-memory provider.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { StreamStreamJoinExec } from "../../src/execution/stateful/stream-join.js";
import { functions as F, Session } from "../../src/index.js";

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const FLAG = "arus.state.join.columnar";
const dirs: string[] = [];
const ckpt = () => {
  const d = mkdtempSync(path.join(tmpdir(), "arus-join-conf-"));
  dirs.push(d);
  return d;
};
after(() => {
  s.conf.unset(FLAG);
  s.conf.set("spark.sql.streaming.stateStore.providerClass", "arus.state.MemoryStateStoreProvider");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Format versions (2 rows, 4 columnar join) of the join's state files. */
function stateFormats(dir: string): Set<number> {
  const out = new Set<number>();
  const root = path.join(dir, "state", "0");
  for (const p of readdirSync(root)) {
    if (!/^\d+$/.test(p)) continue;
    for (const side of ["left", "right"]) {
      const d = path.join(root, p, side);
      for (const f of readdirSync(d)) if (/^\d+\.(delta|snapshot)$/.test(f)) out.add(readFileSync(path.join(d, f)).readUInt16BE(8));
    }
  }
  return out;
}

/**
 * A left outer join keyed by (k, 10 s window) over two runs, `flag1` set for the first and
 * `flag2` for the second; `between` runs on the checkpoint in between. Rows by batch.
 */
async function twoRuns(dir: string, flag1: string, flag2: string, between: () => void = () => {}): Promise<string[]> {
  const rows: string[] = [];
  const ls = s.memoryStream("k STRING, t TIMESTAMP, v INT");
  const rs = s.memoryStream("rk STRING, rt TIMESTAMP");
  const start = () => {
    const l = ls.toDF().withWatermark("t", "1 second").select("k", "v", F.window("t", "10 seconds").alias("w"));
    const r = rs.toDF().withWatermark("rt", "1 second").select("rk", F.window("rt", "10 seconds").alias("rw"));
    return l
      .join(r, F.expr("k = rk AND w = rw"), "left_outer")
      .select("k", "v", "rk", F.col("w.start").alias("ws"))
      .writeStream.option("checkpointLocation", dir)
      .foreachBatch(async (b, id) => {
        for (const row of await b.collect()) rows.push(`${id} ${JSON.stringify(row)}`);
      })
      .start();
  };
  const at = (sec: number) => new Date(sec * 1000);
  s.conf.set(FLAG, flag1);
  const q1 = await start();
  ls.addData([
    { k: "a", t: at(1), v: 1 },
    { k: "b", t: at(2), v: 2 },
  ]);
  rs.addData([{ rk: "a", rt: at(3) }]);
  await q1.processAllAvailable();
  await q1.stop();
  between();
  s.conf.set(FLAG, flag2);
  const q2 = await start();
  ls.addData([{ k: "c", t: at(25), v: 3 }]);
  rs.addData([{ rk: "b", rt: at(4) }]);
  await q2.processAllAvailable();
  // Both sides move (the global watermark is their minimum): 39 s is past c's window, so the
  // next batch evicts c, unmatched.
  ls.addData([{ k: "d", t: at(40), v: 4 }]);
  rs.addData([{ rk: "z", rt: at(40) }]);
  await q2.processAllAvailable();
  ls.addData([{ k: "e", t: at(60), v: 5 }]);
  await q2.processAllAvailable();
  await q2.stop();
  return rows.sort();
}

describe("arus.state.join.columnar", () => {
  it("is sticky: a checkpoint started columnar stays columnar, one started on the row stores stays there", async () => {
    const rows = await twoRuns(ckpt(), "false", "false");
    assert.ok(
      rows.some((r) => r.includes('"k":"a","v":1,"rk":"a"')) && rows.some((r) => r.includes('"k":"c","v":3,"rk":null')),
      rows.join("; "),
    );
    const a = ckpt();
    assert.deepEqual(await twoRuns(a, "true", "false"), rows);
    assert.deepEqual([...stateFormats(a)], [5]); // columnar join state files (format 5)
    const b = ckpt();
    assert.deepEqual(await twoRuns(b, "false", "true"), rows);
    assert.deepEqual([...stateFormats(b)], [2]);
  });

  it("a checkpoint written before the conf was recorded keeps the row stores", async () => {
    const dir = ckpt();
    const rows = await twoRuns(dir, "false", "true", () => {
      // as an older arus wrote it: no arus.state.join.columnar in the offset log
      for (const f of readdirSync(path.join(dir, "offsets"))) {
        const p = path.join(dir, "offsets", f);
        const text = readFileSync(p, "utf8");
        assert.match(text, /"arus.state.join.columnar":"false"/);
        writeFileSync(p, text.replace(/,"arus.state.join.columnar":"false"/, ""));
      }
    });
    assert.deepEqual([...stateFormats(dir)], [2]);
    assert.deepEqual(rows, await twoRuns(ckpt(), "true", "true"));
  });

  it("applies only to the in-memory provider", async () => {
    const lmdb = await import("lmdb").then(
      () => true,
      () => false,
    );
    if (!lmdb) return;
    s.conf.set("spark.sql.streaming.stateStore.providerClass", "arus.state.LmdbStateStoreProvider");
    const before = StreamStreamJoinExec.created.columnar;
    const dir = ckpt();
    await twoRuns(dir, "true", "true");
    assert.deepEqual([...stateFormats(dir)], [2]);
    assert.equal(StreamStreamJoinExec.created.columnar, before);
    s.conf.set("spark.sql.streaming.stateStore.providerClass", "arus.state.MemoryStateStoreProvider");
  });
});
