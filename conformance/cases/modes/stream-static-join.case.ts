import { defineCase } from "../../case.js";

export default defineCase({
  description: "Inner and left outer stream-static joins (stateless): every batch joins against the static table.",
  input: {
    schema: "id INT, v STRING",
    batches: [
      [
        { id: 1, v: "a" },
        { id: 2, v: "b" },
      ],
      [
        { id: 3, v: "c" },
        { id: null, v: "d" },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `def build(spark, df):
    dim = spark.createDataFrame([(1, "one"), (3, "three"), (3, "tres")], "id INT, name STRING")
    inner = df.join(dim, "id", "inner").select("id", "v", "name", F.lit("inner").alias("how"))
    outer = df.join(dim, "id", "left_outer").select("id", "v", "name", F.lit("left").alias("how"))
    return inner.union(outer)`,
  arus: ({ df, F, session }) => {
    const dim = session.createDataFrame(
      [
        [1, "one"],
        [3, "three"],
        [3, "tres"],
      ],
      "id INT, name STRING",
    );
    const inner = df.join(dim, "id", "inner").select("id", "v", "name", F.lit("inner").alias("how"));
    const outer = df.join(dim, "id", "left_outer").select("id", "v", "name", F.lit("left").alias("how"));
    return inner.union(outer);
  },
});
