import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Spark's quick-start word count: lines.select(explode(split(value, ' ')).alias('word')).groupBy('word').count() in complete mode; empty strings between double spaces are words too, NULL lines give none.",
  input: {
    schema: "value STRING",
    batches: [
      [{ value: "apache spark" }, { value: "apache  hadoop" }],
      [{ value: null }, { value: "spark streaming" }],
      [{ value: "arus" }],
    ],
  },
  outputMode: "complete",
  pyspark: `df.select(F.explode(F.split(df.value, " ")).alias("word")).groupBy("word").count()`,
  arus: ({ df, F }) =>
    df
      .select(F.explode(F.split(F.col("value"), " ")).alias("word"))
      .groupBy("word")
      .count(),
});
