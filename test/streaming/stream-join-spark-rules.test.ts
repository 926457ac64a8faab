// Stream-stream joins by Spark 4.3's rules, batch by batch: every expected value below is what
// PySpark 4.3.0 gave for the same files (one file per side per batch), the same query and the
// same watermarks (5 s). What each test pins down:
// - a row of an outer join's preserved side with a NULL join key is stored and emitted with
//   NULLs when the watermark evicts it (arus emitted it at once);
// - a row failing the part of the condition over its own side only (Spark's preJoinFilter) is
//   emitted at once by a preserved side and never stored (arus stored it until eviction);
// - a side is evicted by a range condition only if its own input has a watermark (arus evicted
//   the side without one, and ran a no-data batch Spark does not);
// - a range written over casts (`CAST(ts AS LONG) + 5`: seconds) bounds the state as the
//   interval form does (arus refused the query);
// - a watermarked window in the join keys of one side only evicts both sides by key;
// - MULTIPLE_EVENT_TIME_COLUMNS, and a stream-stream join without an equality.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { type DataFrame, functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";
import { atSecond, LEFT_BATCHES, writeBatchFiles } from "./helpers.js";

const tmp = tempDirsSync("arus-join-rules-");
const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();

const t = atSecond;
const LEFT = LEFT_BATCHES;
const RIGHT = [
  [
    { rk: 1, rt: t(3), rv: "x" },
    { rk: null, rt: t(4), rv: "n2" },
    { rk: 2, rt: t(5), rv: "long_x" },
  ],
  [
    { rk: 1, rt: t(21), rv: "y" },
    { rk: 4, rt: t(22), rv: "long_y" },
  ],
  [{ rk: 3, rt: t(42), rv: "z" }],
];

/** The two sides as file streams, one file each per batch (modification times in file order). */
function sides(): { l: DataFrame; r: DataFrame } {
  const dir = tmp();
  writeBatchFiles(path.join(dir, "l"), LEFT);
  writeBatchFiles(path.join(dir, "r"), RIGHT);
  const read = (side: string, schema: string) => s.readStream.schema(schema).option("maxFilesPerTrigger", 1).json(path.join(dir, side));
  return { l: read("l", "lk INT, lt TIMESTAMP, lv STRING"), r: read("r", "rk INT, rt TIMESTAMP, rv STRING") };
}

const RANGE = "lk = rk AND rt >= lt AND rt <= lt + INTERVAL 5 SECONDS";

/** Each batch's rows as `lv/rv` (null sides as `-`), sorted, and the state's row count after each batch. */
async function run(df: DataFrame): Promise<{ batches: string[][]; totals: number[] }> {
  const batches: string[][] = [];
  const q = await df.writeStream
    .foreachBatch(async (b) => {
      batches.push((await b.collect()).map((row) => `${row.lv ?? "-"}/${row.rv ?? "-"}`).sort());
    })
    .option("checkpointLocation", tmp())
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  return { batches, totals: q.recentProgress.map((p) => p.stateOperators[0]!.numRowsTotal) };
}

/** The query runs (availableNow) and ends: null, or the error its first batch failed with (start() itself must succeed). */
async function firstBatchError(df: DataFrame): Promise<(Error & { errorClass?: string }) | null> {
  const q = await df.writeStream
    .format("memory")
    .queryName(`join_rules_${queries++}`)
    .option("checkpointLocation", tmp())
    .trigger({ availableNow: true })
    .start();
  const failure = await q.awaitTermination().then(
    () => null,
    (e: Error) => e,
  );
  if (failure) assert.equal(q.recentProgress.length, 0, "no batch completes");
  return (failure?.cause ?? null) as (Error & { errorClass?: string }) | null;
}
let queries = 0;

function watermarked(): { l: DataFrame; r: DataFrame } {
  const { l, r } = sides();
  return { l: l.withWatermark("lt", "5 seconds"), r: r.withWatermark("rt", "5 seconds") };
}

describe("stream-stream joins by Spark 4.3's rules (expected values from PySpark 4.3.0)", () => {
  it("a NULL-key row of a left outer join is stored and emitted when the watermark evicts it", async () => {
    const { l, r } = watermarked();
    const got = await run(l.join(r, F.expr(RANGE), "left_outer"));
    assert.deepEqual(got.batches, [["a/x", "long_a/long_x"], ["b/y", "long_b/long_y"], ["c/z", "n1/-"], []]);
    assert.deepEqual(got.totals, [5, 9, 6, 2]);
  });

  it("a right row failing the right-only condition is emitted at once by a right outer join, never stored", async () => {
    const { l, r } = watermarked();
    const got = await run(l.join(r, F.expr(`${RANGE} AND length(rv) > 1`), "right_outer"));
    assert.deepEqual(got.batches, [["-/x", "long_a/long_x"], ["-/y", "long_b/long_y"], ["-/n2", "-/z"], []]);
    assert.deepEqual(got.totals, [4, 7, 4, 1]);
  });

  it("a left row failing the left-only condition is emitted at once by a left outer join", async () => {
    const { l, r } = watermarked();
    const got = await run(l.join(r, F.expr(`${RANGE} AND length(lv) > 1`), "left_outer"));
    assert.deepEqual(got.batches, [["a/-", "long_a/long_x"], ["b/-", "long_b/long_y"], ["c/-", "n1/-"], []]);
    assert.deepEqual(got.totals, [4, 7, 4, 1]);
  });

  it("a side whose input has no watermark is never evicted: no state cleanup, no no-data batch", async () => {
    const { l, r } = sides();
    const got = await run(l.withWatermark("lt", "5 seconds").join(r, F.expr(RANGE), "inner"));
    assert.deepEqual(got.batches, [["a/x", "long_a/long_x"], ["b/y", "long_b/long_y"], ["c/z"]]);
    assert.deepEqual(got.totals, [4, 8, 10]);
  });

  it("a range over casts to seconds bounds the state as the interval form does", async () => {
    const { l, r } = watermarked();
    const cond = "lk = rk AND CAST(rt AS LONG) >= CAST(lt AS LONG) AND CAST(rt AS LONG) <= CAST(lt AS LONG) + 5";
    const got = await run(l.join(r, F.expr(cond), "left_outer"));
    assert.deepEqual(got.batches, [["a/x", "long_a/long_x"], ["b/y", "long_b/long_y"], ["c/z", "n1/-"], []]);
    assert.deepEqual(got.totals, [5, 9, 6, 2]);
  });

  it("a null-safe equality is a join key: NULL keys pair, as in Spark (<=>)", async () => {
    const { l, r } = watermarked();
    const got = await run(l.join(r, F.expr("lk <=> rk AND rt >= lt AND rt <= lt + INTERVAL 5 SECONDS"), "inner"));
    assert.deepEqual(got.batches, [["a/x", "long_a/long_x", "n1/n2"], ["b/y", "long_b/long_y"], ["c/z"], []]);
  });

  it("unix_timestamp(col) in a one-side condition is deterministic: the row is emitted at once", async () => {
    const { l, r } = watermarked();
    const got = await run(l.join(r, F.expr(`${RANGE} AND unix_timestamp(lt) > 1704067202`), "left_outer"));
    assert.deepEqual(got.batches, [["a/-", "long_a/long_x", "n1/-"], ["b/y", "long_b/long_y"], ["c/z"], []]);
  });

  it("a difference of two timestamps bounds nothing (Spark's SubtractTimestamps is not a term): left outer refused", async () => {
    const { l, r } = watermarked();
    await assert.rejects(
      l
        .join(r, F.expr("lk = rk AND rt >= lt AND rt - lt <= INTERVAL 5 SECONDS"), "left_outer")
        .writeStream.format("memory")
        .queryName("join_rules_diff")
        .start(),
      /Stream-stream LeftOuter join between two streaming DataFrame\/Datasets is not supported without a watermark in the join keys/,
    );
  });

  it("a watermarked window in the keys of one side only evicts both sides by key", async () => {
    const { l, r } = sides();
    const left = l.selectExpr("lk", "lv", "window(lt, '10 seconds') AS lw");
    const right = r.withWatermark("rt", "5 seconds").selectExpr("rk", "rv", "window(rt, '10 seconds') AS rw");
    const got = await run(left.join(right, F.expr("lk = rk AND lw = rw"), "left_outer"));
    assert.deepEqual(got.batches, [["a/x", "long_a/long_x"], ["b/y", "long_b/long_y"], ["c/z", "n1/-"], []]);
    assert.deepEqual(got.totals, [5, 9, 6, 2]);
  });

  it("MULTIPLE_EVENT_TIME_COLUMNS: a join side with two watermarked columns (not once a projection drops one)", async () => {
    const { l, r } = watermarked();
    const withWindow = l.selectExpr("*", "window(lt, '10 seconds') AS lw");
    const start = (df: DataFrame) =>
      df.writeStream
        .format("memory")
        .queryName(`m${Math.random().toString(36).slice(2)}`)
        .start();
    await assert.rejects(
      start(withWindow.join(r, F.expr(RANGE))),
      /^AnalysisException: \[MULTIPLE_EVENT_TIME_COLUMNS\].*event time columns: \(lt#\d+-T5000ms,lw#\d+-T5000ms\)$/,
    );
    // Spark prunes the unused lt below the join first: accepted
    const pruned = await start(withWindow.join(r, F.expr("lk = rk AND rt >= lw.start AND rt <= lw.end")).select("lv", "rv"));
    await pruned.stop();
    // a window grouped with another column is one event-time column: accepted
    const grouped = withWindow.drop("lt").groupBy("lw", "lk").count();
    const q = await grouped.writeStream.format("memory").queryName("join_rules_grouped").start();
    await q.stop();
  });

  it("a stream-stream join without an equality fails its first batch (_LEGACY_ERROR_TEMP_1181, Spark's planning strategy)", async () => {
    const { l, r } = watermarked();
    const e = await firstBatchError(l.join(r, F.expr("rt >= lt AND rt <= lt + INTERVAL 2 SECONDS"), "left_outer"));
    assert.equal(e?.message, "Stream-stream join without equality predicate is not supported.");
    assert.equal(e?.errorClass, "_LEGACY_ERROR_TEMP_1181");
  });

  it("counts an equality as Spark's optimizer leaves it: only in a conjunct, under an even number of NOTs", async () => {
    // PySpark 4.3.0, an inner join of the two watermarked sides: which conditions start
    const runs = {
      "lk != rk": false,
      "NOT (lk = rk)": false,
      "lk = rk OR lv > 3": false,
      "(lk = rk) = false": false,
      "CASE WHEN lk > 0 THEN lk = rk ELSE false END": false,
      "coalesce(lk = rk, false)": false,
      "NOT (lk != rk)": true,
      "NOT (NOT (lk = rk))": true,
      "(lk = rk) = true": true,
      "lk <=> rk": true,
      "lk = rk AND (lk = rk OR lv > 1)": true,
      // what Spark's optimizer folds to an equality first
      "lk = rk OR false": true,
      "IF(true, lk = rk, false)": true,
      "CASE WHEN true THEN lk = rk END": true,
      "(lk = rk) IN (true)": true,
      "(lk = rk) = (1 = 1)": true,
      "NOT (lk = rk) = false": true,
      "NOT ((lk = rk) = false)": true,
      "(lk = rk) != false": true,
      "NOT (lk != rk OR lk > 100)": true,
    };
    const { l, r } = watermarked();
    for (const [condition, starts] of Object.entries(runs)) {
      const e = await firstBatchError(l.join(r, F.expr(condition), "inner"));
      // (a condition that starts may still fail on the data: `lk > 100` casts 'a' in ANSI mode)
      if (starts) assert.notEqual(e?.errorClass, "_LEGACY_ERROR_TEMP_1181", condition);
      else assert.equal(e?.errorClass, "_LEGACY_ERROR_TEMP_1181", condition);
    }
  });
});
