import { defineCase, t } from "../../case.js";

// Found by conformance/fuzz (seed 19 case 29, seed 8 case 6), minimised by hand.
export default defineCase({
  description:
    "Append-mode window count with a filter on the grouping key k after the aggregation: Spark pushes k = 'a' below the aggregate and the watermark into the scan, so rows of other keys never move the watermark and the window of key a stays open.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(1) }], [{ k: "b", ts: t(30) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds"), "k").count().filter(F.col("k") == "a")`,
  arus: ({ df, F }) =>
    df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds"), "k").count().filter(F.col("k").equalTo("a")),
  notes:
    "Spark 4.3.0: batches 0 and 1 empty, numInputRows 1 and 0, watermark 1970 then 2023-12-31T23:59:56 (from a@1 only: b@30 is never read), no trailing batch, window [0,10) of a never emitted. " +
    "arus reads b@30, moves the watermark to :25 and emits {window [0,10), k a, count 1} in a trailing no-data batch 2. Fuzz seed 19 case 29 (session window, filter k2 > 1) showed the same as a row emitted in batch 3 by arus and batch 6 by Spark.",
});
