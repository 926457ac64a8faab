// A streaming aggregation grouped by an aliased event-time column (`window(ts) AS w`, `ts AS t`)
// is watermarked as the unaliased one is: append mode accepts it and emits each group once the
// watermark passes it (arus refused it in append mode; past that check it never emitted, its
// state never evicted). Expected values: PySpark 4.3.0 on the same files, one file per batch.
import assert from "node:assert/strict";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { type DataFrame, functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";
import { atSecond, LEFT_BATCHES, writeBatchFiles } from "./helpers.js";

const tmp = tempDirsSync("arus-aliased-keys-");
const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();

const t = atSecond;

function events(): DataFrame {
  const dir = path.join(tmp(), "in");
  writeBatchFiles(dir, LEFT_BATCHES);
  return s.readStream.schema("lk INT, lt TIMESTAMP, lv STRING").option("maxFilesPerTrigger", 1).json(dir).withWatermark("lt", "5 seconds");
}

/** Each batch's rows (sorted text) and every state operator's row count after each batch. */
async function run(df: DataFrame, show: (r: Record<string, unknown>) => string): Promise<{ batches: string[][]; totals: number[][] }> {
  const batches: string[][] = [];
  const q = await df.writeStream
    .outputMode("append")
    .foreachBatch(async (b) => {
      batches.push((await b.collect()).map(show).sort());
    })
    .option("checkpointLocation", tmp())
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  return { batches, totals: q.recentProgress.map((p) => p.stateOperators.map((o) => o.numRowsTotal)) };
}

const sec = (d: unknown) => (d as Date).getUTCSeconds();
const win = (w: unknown) => `${sec((w as { start: Date }).start)}-${sec((w as { end: Date }).end)}`;

describe("aggregations grouped by an aliased event-time column (expected values from PySpark 4.3.0)", () => {
  it("window(ts) AS w: each window once the watermark passes it", async () => {
    const got = await run(
      events().groupBy(F.expr("window(lt, '10 seconds') AS w")).agg(F.count("*").alias("n")),
      (r) => `${win(r.w)}:${r.n}`,
    );
    assert.deepEqual(got.batches, [[], [], ["0-10:3"], ["20-30:2"]]);
    assert.deepEqual(got.totals, [[1], [2], [2], [1]]);
  });

  it("ts AS t: each timestamp once the watermark passes it", async () => {
    const got = await run(events().groupBy(F.col("lt").alias("t")).agg(F.count("*").alias("n")), (r) => `${sec(r.t)}:${r.n}`);
    assert.deepEqual(got.batches, [[], [], ["1:1", "2:1", "3:1"], ["20:1", "21:1"]]);
    assert.deepEqual(got.totals, [[3], [5], [3], [1]]);
  });

  it("two chained aggregations over an aliased window", async () => {
    const perKey = events().groupBy(F.expr("window(lt, '10 seconds') AS w"), F.col("lk")).agg(F.count("*").alias("n"));
    const got = await run(
      perKey.groupBy("w").agg(F.max("n").alias("mx"), F.count("*").alias("keys")),
      (r) => `${win(r.w)}:${r.mx}/${r.keys}`,
    );
    assert.deepEqual(got.batches, [[], [], ["0-10:1/3"], ["20-30:1/2"]]);
    assert.deepEqual(got.totals, [
      [0, 3],
      [0, 5],
      [0, 3],
      [0, 1],
    ]);
  });
  it("session_window(...) AS s merges sessions as the unaliased one does (review against PySpark 4.3.0)", async () => {
    const dir = path.join(tmp(), "in");
    mkdirSync(dir);
    [[0, 2, 4], [30]].forEach((secs, i) => {
      const f = path.join(dir, `part-${i}.json`);
      writeFileSync(f, secs.map((x) => `${JSON.stringify({ k: 1, t: t(x) })}\n`).join(""));
      utimesSync(f, 1_700_000_000 + i * 10, 1_700_000_000 + i * 10);
    });
    const df = s.readStream
      .schema("k INT, t TIMESTAMP")
      .option("maxFilesPerTrigger", 1)
      .json(dir)
      .withWatermark("t", "5 seconds")
      .groupBy(F.session_window("t", "3 seconds").alias("s"), "k")
      .count();
    const got = await run(df, (r) => `${win(r.s)}:${r.k}:${r.count}`);
    assert.deepEqual(got.batches, [[], [], ["0-7:1:3"]]);
  });
});
