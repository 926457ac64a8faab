import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Stream-static inner join ON k = sk AND v + 1 > 2, then a count per name in update mode: the stream-only conjunct and isnotnull(v), isnotnull(k) run in the scan, so numInputRows counts only rows that can match; the aggregation state is the same.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 0 },
        { k: "b", v: 5 },
        { k: null, v: 5 },
      ],
      [
        { k: "a", v: null },
        { k: "b", v: 2 },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `def build(spark, df):
    dim = spark.createDataFrame([("a", "one"), ("b", "two")], "sk STRING, name STRING")
    return df.join(dim, (df.k == dim.sk) & (df.v + 1 > 2)).groupBy("name").count()`,
  arus: ({ df, F, session }) => {
    const dim = session.createDataFrame(
      [
        ["a", "one"],
        ["b", "two"],
      ],
      "sk STRING, name STRING",
    );
    return df
      .join(dim, F.col("k").equalTo(F.col("sk")).and(F.col("v").plus(1).gt(2)))
      .groupBy("name")
      .count();
  },
});
