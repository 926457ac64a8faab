/**
 * df.observe (Spark's CollectMetrics): named metrics over the rows passing a point of the plan.
 * A streaming query reports each micro-batch's own values in progress `observedMetrics` (and to
 * listeners); a batch query completes an Observation at its first action. The rows pass through
 * unchanged, and Spark's analysis errors name what is wrong.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { functions as F, Observation, type StreamingQueryProgress } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";
import { utcSession } from "./helpers.js";

const session = utcSession();
const temp = tempDirsSync("arus-observe-");
const T0 = Date.UTC(2024, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000);

describe("observe: streaming", () => {
  it("reports each batch's own metrics in progress observedMetrics; the rows pass through unchanged", async () => {
    const ms = session.memoryStream("k STRING, v BIGINT, ts TIMESTAMP");
    const seen: StreamingQueryProgress[] = [];
    const listener = { onQueryProgress: (e: { progress: StreamingQueryProgress }) => void seen.push(e.progress) };
    session.streams.addListener(listener);
    const q = await ms
      .toDF()
      .observe(
        "m",
        F.count(F.lit(1)).alias("rows"),
        F.max("v").alias("maxV"),
        F.max("ts").alias("maxTs"),
        F.sum(F.col("v")).multiply(2).alias("twice"),
        F.lit(7).alias("seven"),
      )
      .observe("odd", F.count(F.when(F.col("v").mod(2).equalTo(1), 1)).alias("n"))
      .writeStream.format("memory")
      .queryName("observe_pass")
      .outputMode("append")
      .start();
    try {
      ms.addData([
        { k: "a", v: 1, ts: at(1) },
        { k: "b", v: 4, ts: at(2) },
      ]);
      await q.processAllAvailable();
      assert.deepEqual(q.lastProgress!.observedMetrics, {
        m: { rows: 2, maxV: 4, maxTs: "2024-01-01 00:00:02", twice: 10, seven: 7 },
        odd: { n: 1 },
      });
      ms.addData([{ k: "c", v: 3, ts: at(9) }]);
      await q.processAllAvailable();
      // Only this batch's rows (Spark: the data processed since the previous completion point).
      assert.deepEqual(q.lastProgress!.observedMetrics, {
        m: { rows: 1, maxV: 3, maxTs: "2024-01-01 00:00:09", twice: 6, seven: 7 },
        odd: { n: 1 },
      });
      const rows = (await session.table("observe_pass").collect()).map((r) => `${r.k}${r.v}`).sort();
      assert.deepEqual(rows, ["a1", "b4", "c3"]);
      const fromListener = seen.filter((p) => p.id === q.id && p.numInputRows > 0).map((p) => p.observedMetrics?.m);
      assert.deepEqual(
        fromListener.map((m) => (m as { rows: number }).rows),
        [2, 1],
      );
      assert.match(JSON.stringify(q.lastProgress), /"sink":\{[^}]*\},"observedMetrics":\{"m":/);
    } finally {
      session.streams.removeListener(listener);
      await q.stop();
    }
  });

  it("observes below an aggregation over JSON files (decode threads on local[*]); the aggregate's result is unchanged", async () => {
    const dir = temp();
    const input = path.join(dir, "in");
    mkdirSync(input);
    const line = (v: number, s: number) => JSON.stringify({ v, ts: at(s).toISOString() });
    writeFileSync(path.join(input, "part-0.json"), `${[line(1, 1), line(2, 2), line(3, 12)].join("\n")}\n`);
    writeFileSync(path.join(input, "part-1.json"), `${[line(10, 25), line(20, 3)].join("\n")}\n`);
    const run = async (observe: boolean, name: string) => {
      let df = session.readStream.schema("v BIGINT, ts TIMESTAMP").option("maxFilesPerTrigger", 1).json(input);
      if (observe) df = df.observe("in", F.count(F.lit(1)).alias("rows"), F.sum("v").alias("sum"));
      const q = await df
        .withWatermark("ts", "5 seconds")
        .groupBy(F.window("ts", "10 seconds"))
        .agg(F.sum("v").alias("s"))
        .writeStream.format("memory")
        .queryName(name)
        .outputMode("append")
        .option("checkpointLocation", path.join(dir, `ck-${name}`))
        .trigger({ availableNow: true })
        .start();
      await q.awaitTermination();
      const out = (await session.table(name).collect()).map((r) => `${(r.window as { start: Date }).start.toISOString()}=${r.s}`).sort();
      return { out, progress: q.recentProgress };
    };
    const plain = await run(false, "observe_agg_plain");
    const observed = await run(true, "observe_agg_observed");
    assert.deepEqual(observed.out, plain.out);
    const data = observed.progress.filter((p) => p.numInputRows > 0).map((p) => p.observedMetrics?.in);
    assert.deepEqual(data, [
      { rows: 3, sum: 6 },
      { rows: 2, sum: 30 },
    ]);
  });
});

describe("observe: batch queries and Observation", () => {
  const df = () =>
    session.createDataFrame(
      [
        { name: "Alice", age: 2 },
        { name: "Bob", age: 5 },
      ],
      "name STRING, age INT",
    );

  it("completes the Observation at the first action; later actions do not change it", async () => {
    const obs = new Observation("my metrics");
    assert.equal(obs.getOrNull(), null);
    const observed = df().observe(obs, F.count(F.lit(1)).alias("count"), F.max("age"));
    const waiting = obs.get();
    assert.equal(await observed.count(), 2);
    assert.deepEqual(await waiting, { count: 2, "max(age)": 5 });
    await observed.filter("age > 3").collect();
    assert.deepEqual(await obs.get(), { count: 2, "max(age)": 5 });
    assert.deepEqual(
      (await observed.collect()).map((r) => r.name),
      ["Alice", "Bob"],
    );
  });

  it("an Observation serves one DataFrame, and not a streaming one", () => {
    const obs = new Observation();
    assert.match(obs.name, /^[0-9a-f-]{36}$/);
    df().observe(obs, F.count(F.lit(1)));
    assert.throws(() => df().observe(obs, F.count(F.lit(1))), /can be used with a Dataset only once/);
    const stream = session.memoryStream("v INT").toDF();
    assert.throws(() => stream.observe(new Observation("s"), F.count(F.lit(1))), /Observation does not support streaming Datasets/);
    assert.throws(() => new Observation(""), /Name must not be empty/);
  });

  it("refuses what Spark's analysis refuses, naming it", () => {
    assert.throws(() => df().observe("x", F.col("age")), /INVALID_OBSERVED_METRICS\.NON_AGGREGATE_FUNC_ARG_IS_ATTRIBUTE.*"age"/);
    assert.throws(() => df().observe("x", F.max(F.max("age"))), /INVALID_OBSERVED_METRICS\.NESTED_AGGREGATES_UNSUPPORTED/);
    assert.throws(() => df().observe("", F.max("age")), /INVALID_OBSERVED_METRICS\.MISSING_NAME/);
    assert.throws(() => df().observe("x"), /CANNOT_BE_EMPTY\] At least one column must be specified/);
    assert.throws(() => df().observe("x", F.max("age")).observe("x", F.min("age")), /DUPLICATED_METRICS_NAME.*: x\./);
    // The same metrics under the same name twice (a self-join in Spark's words) are allowed.
    const same = df().observe("y", F.max("age"));
    assert.doesNotThrow(() => same.join(same.select(F.col("name").alias("n2")), F.col("name").equalTo(F.col("n2"))));
  });
});

after(async () => {
  await session.stop();
});
