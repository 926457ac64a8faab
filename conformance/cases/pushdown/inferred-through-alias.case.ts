import { defineCase } from "../../case.js";

// From the differential fuzzer (conformance/fuzz, seed 5 case 38; was fuzz/found/infer-is-not-null-through-alias), minimised by hand.
// In the notes, "arus:" is what arus did before the fix.
export default defineCase({
  description:
    "A null-intolerant filter on a column computed by withColumn (c0 = lower(k)) makes Spark infer IsNotNull(k) below the projection and push it into the scan; the same filter written on lower(k) directly already matches.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "ab", v: 1 },
        { k: null, v: 2 },
        { k: "c", v: 3 },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.withColumn("c0", F.lower(F.col("k"))).filter(F.col("c0") == "b")`,
  arus: ({ df, F }) => df.withColumn("c0", F.lower(F.col("k"))).filter(F.col("c0").equalTo("b")),
  notes:
    "Spark 4.3.0: batch 0 no rows, numInputRows 2 (PushedFilters [IsNotNull(k)]: InferFiltersFromConstraints adds isnotnull(c0), rewritten to isnotnull(k) through the alias). " +
    "arus: no rows, numInputRows 3. df.filter(F.lower(F.col('k')).like('%b')) (no alias) gives 2 in both; select('k', lower(k).alias('c0')).filter(c0 LIKE '%b') gives 2 vs 3 like this case.",
});
