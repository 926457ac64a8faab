import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "explode, explode_outer and posexplode on a stream (append): the other select items kept beside the generator, a NULL or empty array dropping the row (explode) or giving one NULL row (explode_outer), default names col / pos and .alias.",
  input: {
    schema: "id INT, arr ARRAY<INT>",
    batches: [
      [
        { id: 1, arr: [10, 20] },
        { id: 2, arr: [] },
        { id: 3, arr: null },
      ],
      [{ id: 4, arr: [30, null] }],
      [],
    ],
  },
  outputMode: "append",
  pyspark: `df.select("id", F.explode("arr")).union(df.select("id", F.explode_outer("arr").alias("col"))).union(df.select(F.posexplode("arr")).select((F.col("pos") * 100).alias("id"), "col"))`,
  arus: ({ df, F }) =>
    df
      .select("id", F.explode("arr"))
      .union(df.select("id", F.explode_outer("arr").alias("col")))
      .union(df.select(F.posexplode("arr")).select(F.col("pos").multiply(100).alias("id"), "col")),
  notes:
    "numInputRows is counted per scan (the union reads the input three times); InferFiltersFromGenerate's isnotnull(arr) is pushed into the explode and posexplode scans, so they count 2 rows of 3 in batch 0, in both engines.",
});
