import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Stream-static inner join ON k = sk AND v IN (1, 2): Spark moves the stream-only conjunct (and the inferred isnotnull(k)) below the join into the JSON scan, so rows with v 3 or a NULL k are not numInputRows.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 3 },
        { k: "b", v: 2 },
        { k: null, v: 1 },
      ],
      [
        { k: "c", v: 1 },
        { k: "b", v: null },
        { k: "b", v: 1 },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `def build(spark, df):
    dim = spark.createDataFrame([("a", "one"), ("b", "two"), ("c", "three")], "sk STRING, name STRING")
    return df.join(dim, (df.k == dim.sk) & df.v.isin(1, 2)).select("k", "v", "name")`,
  arus: ({ df, F, session }) => {
    const dim = session.createDataFrame(
      [
        ["a", "one"],
        ["b", "two"],
        ["c", "three"],
      ],
      "sk STRING, name STRING",
    );
    return df.join(dim, F.col("k").equalTo(F.col("sk")).and(F.col("v").isin(1, 2))).select("k", "v", "name");
  },
});
