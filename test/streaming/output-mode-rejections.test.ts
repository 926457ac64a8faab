/**
 * Query shapes each output mode rejects at start() (semantics.md §4), with Spark's message
 * text, and the shapes it accepts. Rejections are AnalysisExceptions thrown by start(), so the
 * query never runs.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AnalysisException, type DataFrame, functions as F } from "../../src/index.js";
import { addData, checkAnswer, expectFailure, testStream, win } from "../../src/testing/index.js";
import { sec, utcSession } from "./helpers.js";

const session = utcSession();

function events() {
  const ms = session.memoryStream("k STRING, v INT, ts TIMESTAMP");
  return { ms, df: ms.toDF() };
}

/** start() must throw an AnalysisException whose message contains `text`. */
async function rejects(df: DataFrame, mode: "append" | "update" | "complete", text: string): Promise<void> {
  await testStream(df, mode, [
    expectFailure((e) => {
      assert.ok(e instanceof AnalysisException, `not an AnalysisException: ${e.name}: ${e.message}`);
      assert.ok(e.message.includes(text), `message ${JSON.stringify(e.message)} lacks ${JSON.stringify(text)}`);
    }),
  ]);
}

describe("output modes and query shapes rejected at start()", () => {
  it("append + aggregation without a watermark, or not grouped by the event time", async () => {
    const msg = "Append output mode not supported when there are streaming aggregations on streaming DataFrames/DataSets without watermark";
    const { df } = events();
    await rejects(df.groupBy("k").count(), "append", msg);
    await rejects(df.withWatermark("ts", "1 minute").groupBy("k").count(), "append", msg);
  });

  it("the output mode is checked first; the spec's class and text, then Spark 4.3's (PySpark 4.3)", async () => {
    const { df } = events();
    const modeError = (mode: string, operation: string) => (e: Error) => {
      assert.equal((e as Error & { errorClass?: string }).errorClass, "_LEGACY_ERROR_TEMP_3102", e.message);
      assert.ok(
        e.message.includes(
          `[STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION] Invalid streaming output mode: ${mode}. This output mode is not supported for ${operation} on streaming DataFrames/DataSets.`,
        ),
        e.message,
      );
    };
    // a DISTINCT aggregate in append mode without a watermark: the mode is what Spark reports
    await testStream(df.groupBy("k").agg(F.count_distinct("v")), "append", [
      expectFailure(modeError("append", "streaming aggregations without watermark")),
    ]);
    // dropDuplicatesWithinWatermark without a watermark in complete mode: the mode again
    await testStream(df.dropDuplicatesWithinWatermark(["k"]), "complete", [
      expectFailure(modeError("complete", "no streaming aggregations")),
    ]);
    const sessions = df.withWatermark("ts", "1 second").groupBy(F.session_window("ts", "5 seconds"), "k").count();
    await testStream(sessions, "update", [expectFailure(modeError("update", "session window streaming aggregations"))]);
  });

  it("a session window without another grouping key starts, then fails its first batch (Spark's planning)", async () => {
    const { ms, df } = events();
    await testStream(df.withWatermark("ts", "1 second").groupBy(F.session_window("ts", "5 seconds")).count(), "complete", [
      addData(ms, [{ k: "a", v: 1, ts: new Date(1000) }]),
      expectFailure((e) => {
        assert.match(e.message, /Global aggregation with session window in streaming query is not supported/);
        assert.match(e.message, /Grouping key must be specified when using sessionWindow/);
      }),
    ]);
  });

  it("complete mode without an aggregation", async () => {
    const { df } = events();
    await rejects(
      df.filter("v > 0"),
      "complete",
      "Complete output mode not supported when there are no streaming aggregations on streaming DataFrames/Datasets",
    );
    await rejects(df.withWatermark("ts", "1 second").dropDuplicates(["k", "ts"]), "complete", "Complete output mode not supported");
  });

  it("update mode with a session window", async () => {
    const { df } = events();
    await rejects(
      df.withWatermark("ts", "1 second").groupBy(F.session_window("ts", "5 seconds"), "k").count(),
      "update",
      "Update output mode not supported for session window on streaming DataFrames/DataSets",
    );
  });

  it("distinct aggregate functions", async () => {
    const { df } = events();
    await rejects(
      df.groupBy("k").agg(F.count_distinct("v")),
      "update",
      "Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider using approx_count_distinct() instead.",
    );
  });

  it("sorting outside complete mode on an aggregation", async () => {
    const msg =
      "Sorting is not supported on streaming DataFrames/Datasets, unless it is on aggregated DataFrame/Dataset in Complete output mode";
    const { df } = events();
    await rejects(df.orderBy("v"), "append", msg);
    await rejects(df.groupBy("k").count().orderBy("count"), "update", msg);
  });

  it("limit in update mode; union of a stream with a batch DataFrame", async () => {
    const { df } = events();
    await rejects(
      df.groupBy("k").count().limit(1),
      "update",
      "Limits are not supported on streaming DataFrames/Datasets in Update output mode",
    );
    const batch = session.createDataFrame([{ k: "x", v: 1, ts: sec(0) }], "k STRING, v INT, ts TIMESTAMP");
    await rejects(df.union(batch), "append", "Union between streaming and batch DataFrames/Datasets is not supported");
  });

  it("stream-static outer joins on the wrong side; stream-stream joins outside append", async () => {
    const { df } = events();
    const dim = session.createDataFrame([{ k: "a", name: "A" }], "k STRING, name STRING");
    await rejects(
      df.join(dim, "k", "right_outer"),
      "append",
      "RightOuter join with a streaming DataFrame/Dataset on the left and a static DataFrame/DataSet on the right not supported",
    );
    await rejects(
      dim.join(df, "k", "left_outer"),
      "append",
      "LeftOuter join with a streaming DataFrame/Dataset on the right and a static DataFrame/DataSet on the left not supported",
    );
    const other = events().df.withColumnRenamed("v", "w").withColumnRenamed("ts", "ts2");
    await rejects(
      df.join(other, "k", "inner").groupBy("k").count(),
      "update",
      "Join between two streaming DataFrames/Datasets is not supported in Update output mode, only in Append output mode",
    );
  });

  it("a stateful operator after a non-append aggregation (global watermark correctness check)", async () => {
    const { df } = events();
    await rejects(
      df.groupBy("k").count().groupBy("count").count(),
      "update",
      "Detected pattern of possible 'correctness' issue due to global watermark",
    );
    // an EventTimeTimeout flatMapGroupsWithState below an aggregation: its timed-out rows may be late there
    // (a plain dropDuplicates above it is no stateful operator to Spark's check: it keys on no event time)
    const wm = df.withWatermark("ts", "10 seconds");
    const timedOut = wm
      .groupBy("k")
      .flatMapGroupsWithState(
        (key, rows) => [{ k: key[0], n: rows.length, ts: new Date(0) }],
        "k STRING, n INT, ts TIMESTAMP",
        "n INT",
        "append",
        "EventTimeTimeout",
      )
      .groupBy("k")
      .count();
    await rejects(timedOut, "update", "Detected pattern of possible 'correctness' issue due to global watermark");
    // the check can be turned off, as in Spark
    session.conf.set("spark.sql.streaming.statefulOperator.checkCorrectness.enabled", "false");
    try {
      const q = await df
        .groupBy("k")
        .count()
        .groupBy("count")
        .count()
        .writeStream.outputMode("update")
        .format("memory")
        .queryName("correctness_off")
        .start();
      await q.stop();
    } finally {
      session.conf.unset("spark.sql.streaming.statefulOperator.checkCorrectness.enabled");
    }
  });

  it("batch actions on a stream, and writeStream on a batch DataFrame", async () => {
    const { df } = events();
    await assert.rejects(df.collect(), /Queries with streaming sources must be executed with writeStream.start\(\)/);
    assert.throws(() => session.range(3).writeStream, /Queries without streaming sources cannot be executed with writeStream.start\(\)/);
  });

  it("accepts the shapes each mode allows", async () => {
    const { ms, df } = events();
    const windowed = df.withWatermark("ts", "0 seconds").groupBy(F.window("ts", "10 seconds")).agg(F.sum("v").alias("s"));
    await testStream(windowed, "append", [
      addData(ms, [
        { k: "a", v: 1, ts: sec(1) },
        { k: "a", v: 2, ts: sec(15) },
      ]),
      checkAnswer([{ window: win(0, 10_000), s: 1 }]),
    ]);
    const e2 = events();
    await testStream(e2.df.groupBy("k").count().orderBy("k"), "complete", [
      addData(e2.ms, [{ k: "b", v: 1, ts: sec(1) }]),
      checkAnswer([{ k: "b", count: 1 }]),
    ]);
    const e3 = events();
    await testStream(e3.df.filter("v > 1"), "update", [
      addData(e3.ms, [{ k: "b", v: 2, ts: sec(1) }]),
      checkAnswer([{ k: "b", v: 2, ts: sec(1) }]),
    ]);
  });
});
