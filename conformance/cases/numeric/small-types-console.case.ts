import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Console rendering and aggregation of TINYINT/SMALLINT/FLOAT: floats print as Java's Float.toString (0.1, 3.4028235E38, 1.0E-5), sums widen to BIGINT and DOUBLE; complete mode.",
  input: {
    schema: "k STRING, b TINYINT, h SMALLINT, f FLOAT",
    batches: [
      [
        { k: "a", b: 1, h: 2, f: 0.1 },
        { k: "a", b: 127, h: 32767, f: 3.4028235e38 },
        { k: "b", b: -128, h: -32768, f: 0.00001 },
      ],
      [{ k: "b", b: 3, h: 4, f: 16777216 }],
    ],
  },
  outputMode: "complete",
  pyspark: `df.groupBy("k").agg(F.sum("b").alias("sb"), F.sum("h").alias("sh"), F.sum("f").alias("sf"), F.max("f").alias("mf"), F.min("b").alias("mb"), F.max("h").alias("mh"))`,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .agg(F.sum("b").alias("sb"), F.sum("h").alias("sh"), F.sum("f").alias("sf"), F.max("f").alias("mf"), F.min("b").alias("mb"), F.max("h").alias("mh")),
  console: {},
});
