/**
 * withWatermark names its column as written and Spark resolves names case-insensitively
 * (spark.sql.caseSensitive=false): withWatermark("TS") on a column `ts` is a watermark, so an
 * append-mode windowed aggregation over it runs and closes windows as with withWatermark("ts").
 */
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, assertOnQuery, checkAnswer, checkNewRows, testStream } from "../../src/testing/index.js";
import { sec, utcSession } from "./helpers.js";

const session = utcSession();

describe("withWatermark column name case", () => {
  it('withWatermark("TS") over ts: append mode runs and emits closed windows', async () => {
    const ms = session.memoryStream("ts TIMESTAMP");
    const df = ms.toDF().withWatermark("TS", "5 seconds").groupBy(F.window("ts", "10 seconds")).count();
    await testStream(df, "append", [
      addData(ms, [{ ts: sec(1) }, { ts: sec(2) }, { ts: sec(16) }]),
      // watermark -> :11: the no-data batch closes [0,10)
      checkAnswer([{ window: { start: sec(0), end: sec(10) }, count: 2 }]),
      addData(ms, [{ ts: sec(3) }, { ts: sec(30) }]), // :03 is late
      checkNewRows([{ window: { start: sec(10), end: sec(20) }, count: 1 }]),
      // the watermark is on the column itself, under its own name
      assertOnQuery((q) => /^ {2}ts: delay 5000 ms/m.test(q.explainWatermark()), "explainWatermark names the column ts"),
    ]);
  });
});
