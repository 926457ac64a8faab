import { defineCase } from "../../case.js";

// From the differential fuzzer (conformance/fuzz, seed 4 case 53; was fuzz/found/filter-not-pushed-through-union), minimised by hand.
// In the notes, "arus:" is what arus did before the fix.
export default defineCase({
  description:
    "A filter above a (self-)union is pushed into both branches by Spark (PushPredicateThroughNonJoin through Union), down into each scan: rows it removes are not numInputRows.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
        { k: "c", v: 3 },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.union(df).filter(F.col("k") == "a")`,
  arus: ({ df, F }) => df.union(df).filter(F.col("k").equalTo("a")),
  notes:
    "Spark 4.3.0: batch 0 rows [{k:'a',v:1}, {k:'a',v:1}], numInputRows 2 (the scan is read twice, each time with EqualTo(k,a) pushed). " +
    "arus: same rows, numInputRows 6 (the filter stays above the union; push-down-predicates.ts has no union case).",
});
