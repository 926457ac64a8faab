import { defineCase } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 5 case 22), minimised by hand (times near the epoch make the expiry visible); "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "dropDuplicatesWithinWatermark, delay 10 s: a NULL event time expires at epoch + delay (Spark reads the NULL time as 0 and adds the delay), so at W = 5 s its key is still in state and a second NULL-time row with that key is a duplicate.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "n", ts: null },
        { k: "a", ts: "1970-01-01T00:00:15.000000Z" },
      ],
      [
        { k: "n", ts: null },
        { k: "b", ts: "1970-01-01T00:00:25.000000Z" },
      ],
      [{ k: "n", ts: null }],
    ],
  },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark(["k"])`,
  arus: ({ df }) => df.withWatermark("ts", "10 seconds").dropDuplicatesWithinWatermark(["k"]),
  notes:
    "Spark 4.3.0: batch 0 [{k:'n',ts:null}, {k:'a',ts:'1970-01-01T00:00:15.000000Z'}], batch 1 [{k:'b',ts:'1970-01-01T00:00:25.000000Z'}], batch 2 [] " +
    "(W 0, 5 s, 15 s; dedupeWithinWatermark numRowsTotal 2, 3, 2, numRowsRemoved 0, 0, 1: key n expires at 10 s, removed in batch 2 after the batch-2 row was dropped as a duplicate, numDroppedDuplicateRows 1). " +
    "arus (before the fix): batch 2 also emits {k:'n',ts:null}: it removes key n already in batch 1 (W 5 s; numRowsTotal 2, numRowsRemoved 1), as if the NULL time expired at 0. " +
    "conformance/cases/nulltime/dedup-within-watermark-null-time passes only because its watermark jumps past both 0 and the delay at once.",
});
