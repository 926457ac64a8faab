import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Stream-static left outer join ON k = sk AND v IN (1, 2) AND name <> 'x': the preserved stream side keeps every row (v IN stays in the join, no row leaves the scan), the static-only conjunct filters the static side.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 3 },
        { k: "x", v: 1 },
        { k: null, v: 1 },
      ],
      [
        { k: "b", v: 2 },
        { k: "b", v: null },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `def build(spark, df):
    dim = spark.createDataFrame([("a", "one"), ("b", "two"), ("x", "x")], "sk STRING, name STRING")
    return df.join(dim, (df.k == dim.sk) & df.v.isin(1, 2) & (dim.name != "x"), "left_outer").select("k", "v", "name")`,
  arus: ({ df, F, session }) => {
    const dim = session.createDataFrame(
      [
        ["a", "one"],
        ["b", "two"],
        ["x", "x"],
      ],
      "sk STRING, name STRING",
    );
    return df
      .join(dim, F.col("k").equalTo(F.col("sk")).and(F.col("v").isin(1, 2)).and(F.col("name").notEqual("x")), "left_outer")
      .select("k", "v", "name");
  },
});
