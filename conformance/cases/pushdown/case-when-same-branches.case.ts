import { defineCase, t } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 11 case 40), minimised by hand; "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "CASE WHEN c THEN v ELSE v END = 1: Spark's SimplifyConditionals turns the CASE with identical branches into v, so v = 1 (and IsNotNull(v)) is pushed into the JSON scan.",
  input: {
    schema: "k STRING, v INT, ts TIMESTAMP",
    batches: [
      [
        { k: "a", v: 1, ts: t(5) },
        { k: "b", v: 2, ts: null },
        { k: "a", v: 1, ts: t(6) },
      ],
      [{ k: "b", v: 3, ts: t(30) }],
    ],
  },
  outputMode: "append",
  pyspark: `df.filter(F.when(F.col("k") == "b", F.col("v")).otherwise(F.col("v")) == 1)`,
  arus: ({ df, F }) => df.filter(F.when(F.col("k").equalTo("b"), F.col("v")).otherwise(F.col("v")).equalTo(1)),
  notes:
    "Spark 4.3.0: batch 0 rows [{k:'a',v:1,...:05}, {k:'a',v:1,...:06}], batch 1 []; numInputRows 2 and 0. " +
    "arus (before the fix): same rows, numInputRows 3 and 1 (the CASE stays, nothing is pushed). coalesce(v, 0) = 1 matches in both (nothing pushed).",
});
