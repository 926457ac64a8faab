import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Stream-static inner join ON k = sk with a filter sk = 'a' on the static side: Spark carries it through the equality to the stream side (k = 'a') and pushes it into the JSON scan, so only k 'a' rows are numInputRows.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
        { k: null, v: 3 },
      ],
      [
        { k: "c", v: 4 },
        { k: "a", v: 5 },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `def build(spark, df):
    dim = spark.createDataFrame([("a", "one"), ("b", "two")], "sk STRING, name STRING").filter(F.col("sk") == "a")
    return df.join(dim, df.k == dim.sk).select("k", "v", "name")`,
  arus: ({ df, F, session }) => {
    const dim = session
      .createDataFrame(
        [
          ["a", "one"],
          ["b", "two"],
        ],
        "sk STRING, name STRING",
      )
      .filter(F.col("sk").equalTo("a"));
    return df.join(dim, F.col("k").equalTo(F.col("sk"))).select("k", "v", "name");
  },
});
