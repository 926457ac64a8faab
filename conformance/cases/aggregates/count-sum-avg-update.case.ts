import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "groupBy(k) with count/sum/avg in update mode: each batch emits only the keys it touched, with the running values; sum(INT) is BIGINT, avg is DOUBLE.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
        { k: "a", v: 3 },
      ],
      [{ k: "b", v: 5 }],
      [],
      [
        { k: "c", v: 7 },
        { k: "a", v: -4 },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.count("v").alias("n"), F.sum("v").alias("s"), F.avg("v").alias("a"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.count("v").alias("n"), F.sum("v").alias("s"), F.avg("v").alias("a")),
});
