import { defineCase, t } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 17 cases 2/16/43), minimised by hand; "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "A stream-stream join whose condition has no equality between the sides (only a time range): Spark 4.3 accepts it at start() and fails in the first batch's planning ('Stream-stream join without equality predicate is not supported.', wrapped in STREAM_FAILED).",
  inputs: [
    { name: "l", schema: "k STRING, lt TIMESTAMP", batches: [[{ k: "a", lt: t(5) }], [{ k: "b", lt: t(30) }]] },
    { name: "r", schema: "rk STRING, rt TIMESTAMP", batches: [[{ rk: "a", rt: t(7) }], [{ rk: "b", rt: t(31) }]] },
  ],
  outputMode: "append",
  pyspark: `def build(spark, l, r):
    return l.withWatermark("lt", "5 seconds").join(r.withWatermark("rt", "5 seconds"), F.expr("rt >= lt AND rt <= lt + interval 5 seconds"))`,
  arus: ({ inputs, F }) =>
    inputs.l
      .withWatermark("lt", "5 seconds")
      .join(inputs.r.withWatermark("rt", "5 seconds"), F.expr("rt >= lt AND rt <= lt + interval 5 seconds")),
  expectError: "Stream-stream join without equality predicate is not supported",
  notes:
    "Spark 4.3.0: phase run, [STREAM_FAILED] ... terminated with exception: Stream-stream join without equality predicate is not supported.; no batch delivered. " +
    "arus (before the fix): phase start, the same text (streaming-checks.ts). Only the phase differs, as in session-window-global-aggregation-phase and redefining-watermark-phase.",
});
