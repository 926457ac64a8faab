/**
 * Several watermarked inputs (semantics.md §1.3, §6.4): per-input watermarks combine into one
 * global watermark by `spark.sql.streaming.multipleWatermarkPolicy` (min by default, or max);
 * an input that never saw a row counts as 0, so with min it pins the global watermark; the
 * policy is frozen into the checkpoint; progress eventTime stats come from the first
 * watermark node that saw rows in the batch.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, assertOnQuery, checkNewRows, expectFailure, startStream, stopStream, testStream, win } from "../../src/testing/index.js";
import { iso, offsetsMeta, sec, utcSession } from "./helpers.js";

const session = utcSession();

/** Two MemoryStreams, watermarked 10 s (left) and 20 s (right), unioned and counted per 10 s window. */
function twoInputs() {
  const left = session.memoryStream("ts TIMESTAMP");
  const right = session.memoryStream("ts TIMESTAMP");
  const df = left
    .toDF()
    .withWatermark("ts", "10 seconds")
    .union(right.toDF().withWatermark("ts", "20 seconds"))
    .groupBy(F.window("ts", "10 seconds"))
    .count();
  return { left, right, df };
}

describe("multiple watermarks", () => {
  it("min policy: an input without rows pins the global watermark at 0; then the slower input wins", async () => {
    const { left, right, df } = twoInputs();
    await testStream(df, "append", [
      addData(left, [{ ts: sec(100) }]),
      assertOnQuery((q) => q.currentWatermarkMs === 0, "right input never saw a row: counts as 0"),
      addData(right, [{ ts: sec(100) }]),
      // left: 100 - 10 = :90, right: 100 - 20 = :80 -> min = :80
      assertOnQuery((q) => q.currentWatermarkMs === 80_000),
      addData(left, [{ ts: sec(5) }]), // late for the global :80 watermark
      addData(right, [{ ts: sec(130) }]), // right -> :110, left stays :90 -> min = :90
      checkNewRows([]), // [:100,:110) holds 2 rows but ends after :90
      assertOnQuery((q) => q.currentWatermarkMs === 90_000),
    ]);
  });

  it("max policy: the faster input drives the global watermark", async () => {
    const { left, right, df } = twoInputs();
    await testStream(
      df,
      "append",
      [
        addData(left, [{ ts: sec(100) }]),
        assertOnQuery((q) => q.currentWatermarkMs === 90_000, "left alone: max(:90, 0)"),
        addData(right, [{ ts: sec(150) }]),
        checkNewRows([{ window: win(100_000, 110_000), count: 1 }]),
        assertOnQuery((q) => q.currentWatermarkMs === 130_000),
      ],
      { conf: { "spark.sql.streaming.multipleWatermarkPolicy": "max" } },
    );
  });

  it("the policy is frozen in the offset log and forced on restart", async () => {
    const { left, right, df } = twoInputs();
    await testStream(df, "append", [
      startStream({ conf: { "spark.sql.streaming.multipleWatermarkPolicy": "max" } }),
      addData(left, [{ ts: sec(100) }]),
      assertOnQuery((q, ctx) => {
        assert.equal(q.currentWatermarkMs, 90_000);
        const text = JSON.stringify(offsetsMeta(ctx.checkpointLocation, 0));
        assert.match(text, /"spark.sql.streaming.multipleWatermarkPolicy":"max"/);
      }),
      stopStream(),
      startStream({ conf: { "spark.sql.streaming.multipleWatermarkPolicy": "min" } }),
      addData(right, [{ ts: sec(50) }]), // right -> :30; min would keep :90 only because of monotonicity
      addData(left, [{ ts: sec(200) }]), // left -> :190: max gives :190, min would give :30 -> stays :90
      assertOnQuery((q) => assert.equal(q.currentWatermarkMs, 190_000)),
    ]);
  });

  it("progress eventTime min/max/avg come from the first watermark node that saw rows", async () => {
    const { left, right, df } = twoInputs();
    await testStream(df, "update", [
      addData(left, [{ ts: sec(10) }, { ts: sec(20) }]),
      assertOnQuery((q) => {
        const e = q.recentProgress.find((p) => p.numInputRows > 0)!.eventTime!;
        assert.deepEqual([e.min, e.max, e.avg], [iso(10), iso(20), iso(15)]);
      }),
      addData(right, [{ ts: sec(40) }]),
      assertOnQuery((q) => {
        const e = [...q.recentProgress].reverse().find((p) => p.numInputRows > 0)!.eventTime!;
        assert.deepEqual([e.min, e.max, e.avg], [iso(40), iso(40), iso(40)], "only the right input had rows");
      }),
    ]);
  });

  it("rejects a watermark redefined downstream of one already in force (_LEGACY_ERROR_TEMP_3076, §1.4)", async () => {
    const ms = session.memoryStream("ts TIMESTAMP");
    // two withWatermark calls on one lineage (the differential fuzzer's shape; a second one above
    // an aggregation would never see a row: its node counts as 0 and keeps the watermark at 0)
    const df = ms.toDF().withWatermark("ts", "5 seconds").withWatermark("ts", "1 minute");
    // Spark raises it when it plans the first batch whose watermark is not 0 (its propagation
    // is skipped at 0): batch 0 runs and moves the watermark to :10, batch 1 fails
    await testStream(
      df,
      "append",
      [
        addData(ms, [{ ts: sec(70) }]),
        checkNewRows([{ ts: sec(70) }]),
        assertOnQuery((q) => q.isActive && q.lastProgress?.batchId === 0, "batch 0 ran"),
        addData(ms, [{ ts: sec(80) }]),
        expectFailure((e) => {
          assert.match(e.message, /Redefining watermark is disallowed/);
          assert.equal((e.cause as Error & { errorClass?: string })?.errorClass, "_LEGACY_ERROR_TEMP_3076");
        }),
      ],
      { timeoutMs: 5000 },
    );
  });

  it("rejects an unknown policy", () => {
    assert.throws(
      () => session.conf.set("spark.sql.streaming.multipleWatermarkPolicy", "median"),
      /^IllegalArgumentException: \[INVALID_CONF_VALUE.REQUIREMENT\] The value 'median' in the config "spark.sql.streaming.multipleWatermarkPolicy" is invalid. Invalid value for 'spark.sql.streaming.multipleWatermarkPolicy'. Valid values are 'min' and 'max'/,
    );
  });
});
