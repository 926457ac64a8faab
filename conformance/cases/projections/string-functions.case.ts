import { defineCase } from "../../case.js";

export default defineCase({
  description: "upper, lower, length, substring (1-based), concat (NULL if any argument is NULL), with non-ASCII text.",
  input: {
    schema: "s STRING, u STRING",
    batches: [
      [
        { s: "Hello", u: "x" },
        { s: "Straße", u: null },
      ],
      [
        { s: "", u: "y" },
        { s: "日本語テキスト", u: "z" },
      ],
    ],
  },
  pyspark: `df.select(F.upper("s").alias("up"), F.lower("s").alias("lo"), F.length("s").alias("len"),
    F.substring("s", 2, 3).alias("sub"), F.concat("s", F.lit("-"), "u").alias("cat"))`,
  arus: ({ df, F }) =>
    df.select(
      F.upper("s").alias("up"),
      F.lower("s").alias("lo"),
      F.length("s").alias("len"),
      F.substring("s", 2, 3).alias("sub"),
      F.concat("s", F.lit("-"), "u").alias("cat"),
    ),
});
