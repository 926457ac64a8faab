import { defineCase } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 5 case 22), minimised by hand; "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "dropDuplicatesWithinWatermark with delay 0: a NULL event time expires at 0 (epoch + delay), and Spark evicts it in batch 0 already, whose watermark is 0 (expiry <= watermark).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "n", ts: null }], [{ k: "b", ts: "2024-01-01T00:00:30.000000Z" }]],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "0 seconds").dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ df }) => df.withWatermark("ts", "0 seconds").dropDuplicatesWithinWatermark(["k"]),
  notes:
    "Spark 4.3.0: rows batch 0 [{k:'n',ts:null}], batch 1 [{k:'b',...}] (arus the same); dedupeWithinWatermark progress batch 0 numRowsTotal 0, numRowsUpdated 1, numRowsRemoved 1; batch 1 total 1, removed 0; batch 2 (no data, W :30) removed 1. " +
    "arus (before the fix): batch 0 numRowsTotal 1, numRowsRemoved 0; batch 1 numRowsRemoved 1 (the key is evicted one batch late: no eviction runs at watermark 0 in batch 0).",
});
