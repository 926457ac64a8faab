import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Default output column names of aggregates without alias: count (from .count()), count(1) for count('*'), sum(v), avg(v), min(v), max(v); complete mode.",
  input: {
    schema: "k STRING, v DOUBLE",
    batches: [
      [
        { k: "a", v: 1.5 },
        { k: "a", v: 2.5 },
      ],
      [{ k: "b", v: -1 }],
    ],
  },
  outputMode: "complete",
  pyspark: `df.groupBy("k").agg(F.count("*"), F.sum("v"), F.avg("v"), F.min("v"), F.max("v"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.count("*"), F.sum("v"), F.avg("v"), F.min("v"), F.max("v")),
});
