import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Decimal sum/avg/min/max in streaming aggregation state (update mode): DECIMAL(5,2) sums (DECIMAL(15,2)) and DECIMAL(30,2) sums (DECIMAL(40→38,2)) stay exact across batches and across a restart from the checkpoint.",
  input: {
    schema: "k STRING, small DECIMAL(5,2), big DECIMAL(30,2)",
    batches: [
      [
        { k: "a", small: 0.1, big: "9999999999999999999999999999.99" },
        { k: "a", small: 0.2, big: "0.01" },
        { k: "b", small: 999.99, big: "-1" },
      ],
      [{ k: "a", small: 0.01, big: "9999999999999999999999999999.99" }],
      [
        { k: "b", small: 999.99, big: "-0.01" },
        { k: "a", small: null, big: null },
      ],
    ],
  },
  outputMode: "update",
  restartAt: [1, 2],
  pyspark: `df.groupBy("k").agg(F.sum("small").alias("s_small"), F.avg("small").alias("a_small"), F.sum("big").alias("s_big"), F.avg("big").alias("a_big"), F.min("big").alias("lo"), F.max("small").alias("hi"))`,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .agg(
        F.sum("small").alias("s_small"),
        F.avg("small").alias("a_small"),
        F.sum("big").alias("s_big"),
        F.avg("big").alias("a_big"),
        F.min("big").alias("lo"),
        F.max("small").alias("hi"),
      ),
});
