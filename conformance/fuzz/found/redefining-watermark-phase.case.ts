import { defineCase, t } from "../../case.js";

// Found by conformance/fuzz (seed 6 cases 18/21, seed 7 cases 37/42), minimised by hand.
export default defineCase({
  description:
    "Two withWatermark calls on one lineage: Spark 4.3 accepts the query at start() and fails the first batch ('Redefining watermark is disallowed', raised by the watermark propagation over the physical plan, wrapped in STREAM_FAILED).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(5) }], [{ k: "b", ts: t(30) }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").withWatermark("ts", "1 minute")`,
  arus: ({ df }) => df.withWatermark("ts", "5 seconds").withWatermark("ts", "1 minute"),
  expectError: "Redefining watermark is disallowed",
  notes:
    "Spark 4.3.0: phase run, [STREAM_FAILED] ... terminated with exception: Redefining watermark is disallowed. You can set the config 'spark.sql.streaming.statefulOperator.allowMultiple' to 'false' ...; no batch delivered. " +
    "arus: phase start (streaming-checks.ts), same text. Only the phase differs (what a caller sees: start() throws vs the query terminating with an exception).",
});
