/**
 * `arus.state.aggregation.columnar` behind real queries: it is sticky (the checkpoint's value
 * wins on restart, and a checkpoint written before arus recorded it keeps the row store), it
 * applies only with the in-memory provider, and aggregations the columnar store cannot hold
 * (collect_list, max of a string, approx_count_distinct) keep the row operator.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { StreamingAggregateExec } from "../../src/execution/stateful/streaming-aggregate.js";
import { type DataFrame, functions as F, Session } from "../../src/index.js";

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const FLAG = "arus.state.aggregation.columnar";
const dirs: string[] = [];
const ckpt = () => {
  const d = mkdtempSync(path.join(tmpdir(), "arus-columnar-conf-"));
  dirs.push(d);
  return d;
};
after(() => {
  s.conf.unset(FLAG);
  s.conf.set("spark.sql.streaming.stateStore.providerClass", "arus.state.MemoryStateStoreProvider");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Format versions (2 rows, 3 columnar) of the state files of operator 0. */
function stateFormats(dir: string): Set<number> {
  const out = new Set<number>();
  const root = path.join(dir, "state", "0");
  for (const p of readdirSync(root)) {
    if (!/^\d+$/.test(p)) continue;
    for (const f of readdirSync(path.join(root, p))) {
      if (/^\d+\.(delta|snapshot)$/.test(f)) out.add(readFileSync(path.join(root, p, f)).readUInt16BE(8));
    }
  }
  return out;
}

/** Run `agg` over two query runs (a restart in between, `between` run there, with `flag2` set for the second). */
async function twoRuns(
  dir: string,
  flag1: string,
  flag2: string,
  agg: (df: DataFrame) => DataFrame,
  flag = FLAG,
  between: () => void = () => {},
): Promise<string[]> {
  const rows: string[] = [];
  const ms = s.memoryStream("k STRING, v INT");
  const start = () =>
    agg(ms.toDF())
      .writeStream.outputMode("update")
      .option("checkpointLocation", dir)
      .foreachBatch(async (b, id) => {
        for (const r of await b.collect()) rows.push(`${id} ${JSON.stringify(r)}`);
      })
      .start();
  s.conf.set(flag, flag1);
  const q1 = await start();
  ms.addData([
    { k: "a", v: 1 },
    { k: "b", v: 2 },
  ]);
  await q1.processAllAvailable();
  await q1.stop();
  between();
  s.conf.set(flag, flag2);
  const q2 = await start();
  ms.addData([
    { k: "a", v: 3 },
    { k: "c", v: 4 },
  ]);
  await q2.processAllAvailable();
  await q2.stop();
  return rows.sort();
}

const counts = (df: DataFrame) => df.groupBy("k").agg(F.count("*").alias("n"), F.sum("v").alias("s"));
const EXPECTED = ['0 {"k":"a","n":1,"s":1}', '0 {"k":"b","n":1,"s":2}', '1 {"k":"a","n":2,"s":4}', '1 {"k":"c","n":1,"s":4}'];

describe("arus.state.aggregation.columnar", () => {
  it("is sticky: a checkpoint started columnar stays columnar, one started with rows stays rows", async () => {
    const a = ckpt();
    assert.deepEqual(await twoRuns(a, "true", "false", counts), EXPECTED);
    assert.deepEqual([...stateFormats(a)], [3]);
    const b = ckpt();
    assert.deepEqual(await twoRuns(b, "false", "true", counts), EXPECTED);
    assert.deepEqual([...stateFormats(b)], [2]);
  });

  it("a checkpoint written before the conf was recorded keeps the row store", async () => {
    const dir = ckpt();
    const rows: string[] = [];
    const ms = s.memoryStream("k STRING, v INT");
    const start = () =>
      counts(ms.toDF())
        .writeStream.outputMode("update")
        .option("checkpointLocation", dir)
        .foreachBatch(async (b, id) => {
          for (const r of await b.collect()) rows.push(`${id} ${JSON.stringify(r)}`);
        })
        .start();
    s.conf.set(FLAG, "false");
    const q1 = await start();
    ms.addData([
      { k: "a", v: 1 },
      { k: "b", v: 2 },
    ]);
    await q1.processAllAvailable();
    await q1.stop();
    // as an older arus wrote it: no arus.state.aggregation.columnar in the offset log
    for (const f of readdirSync(path.join(dir, "offsets"))) {
      const p = path.join(dir, "offsets", f);
      const text = readFileSync(p, "utf8");
      assert.match(text, /"arus.state.aggregation.columnar":"false"/);
      writeFileSync(p, text.replace(/,"arus.state.aggregation.columnar":"false"/, ""));
    }
    s.conf.set(FLAG, "true");
    const q2 = await start();
    ms.addData([
      { k: "a", v: 3 },
      { k: "c", v: 4 },
    ]);
    await q2.processAllAvailable();
    await q2.stop();
    assert.deepEqual(rows.sort(), EXPECTED);
    assert.deepEqual([...stateFormats(dir)], [2]);
  });

  it("min / max of a struct of numbers: columnar in a new checkpoint; one from before arus.state.aggregation.columnarStructs keeps the row store", async () => {
    const STRUCTS = "arus.state.aggregation.columnarStructs";
    const top = (df: DataFrame) => df.groupBy("k").agg(F.max(F.struct("v", F.lit(1).alias("one"))).alias("t"));
    const expected = [
      '0 {"k":"a","t":{"v":1,"one":1}}',
      '0 {"k":"b","t":{"v":2,"one":1}}',
      '1 {"k":"a","t":{"v":3,"one":1}}',
      '1 {"k":"c","t":{"v":4,"one":1}}',
    ];
    const fresh = ckpt();
    assert.deepEqual(await twoRuns(fresh, "true", "true", top, STRUCTS), expected);
    assert.deepEqual([...stateFormats(fresh)], [3]);
    const older = ckpt();
    const rows = await twoRuns(older, "false", "true", top, STRUCTS, () => {
      // as an older arus wrote it: no arus.state.aggregation.columnarStructs in the offset log
      for (const f of readdirSync(path.join(older, "offsets"))) {
        const p = path.join(older, "offsets", f);
        const text = readFileSync(p, "utf8");
        assert.match(text, /"arus.state.aggregation.columnarStructs":"false"/);
        writeFileSync(p, text.replace(/,"arus.state.aggregation.columnarStructs":"false"/, ""));
      }
    });
    assert.deepEqual(rows, expected);
    assert.deepEqual([...stateFormats(older)], [2]);
    s.conf.unset(STRUCTS);
  });

  it("applies only to the in-memory provider and to aggregations that fit", async () => {
    const lmdb = await import("lmdb").then(
      () => true,
      () => false,
    );
    if (lmdb) {
      s.conf.set("spark.sql.streaming.stateStore.providerClass", "arus.state.LmdbStateStoreProvider");
      const dir = ckpt();
      assert.deepEqual(await twoRuns(dir, "true", "true", counts), EXPECTED);
      assert.deepEqual([...stateFormats(dir)], [2]);
      s.conf.set("spark.sql.streaming.stateStore.providerClass", "arus.state.MemoryStateStoreProvider");
    }
    const before = StreamingAggregateExec.created.columnar;
    for (const agg of [
      (df: DataFrame) => df.groupBy("k").agg(F.collect_list("v").alias("l")),
      (df: DataFrame) => df.groupBy("v").agg(F.max("k").alias("m")),
      (df: DataFrame) => df.groupBy("k").agg(F.approx_count_distinct("v").alias("d")),
    ]) {
      const dir = ckpt();
      await twoRuns(dir, "true", "true", agg);
      assert.deepEqual([...stateFormats(dir)], [2]);
    }
    assert.equal(StreamingAggregateExec.created.columnar, before, "no aggregation was planned over the columnar backend");
    const dir = ckpt();
    await twoRuns(dir, "true", "true", (df) => df.groupBy("k").agg(F.max("v").alias("m"), F.first("v").alias("f")));
    assert.deepEqual([...stateFormats(dir)], [3]);
  });
});
