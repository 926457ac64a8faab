import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "collect_list keeps arrival order and duplicates and skips NULLs; collect_set drops duplicates (its order is a hash order, compared as a multiset); update mode across batches.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 3 },
        { k: "a", v: 1 },
        { k: "a", v: 3 },
        { k: "a", v: null },
      ],
      [
        { k: "a", v: 2 },
        { k: "b", v: null },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.collect_list("v").alias("l"), F.collect_set("v").alias("s"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.collect_list("v").alias("l"), F.collect_set("v").alias("s")),
  compare: { unorderedArrays: ["s"] },
});
