import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Result types: sum(DECIMAL(10,2)) is DECIMAL(20,2), avg(DECIMAL(10,2)) is DECIMAL(14,6), sum(FLOAT) is DOUBLE, sum(SMALLINT) is BIGINT; complete mode.",
  input: {
    schema: "k STRING, d DECIMAL(10,2), f FLOAT, s SMALLINT",
    batches: [
      [
        { k: "a", d: 1.25, f: 0.1, s: 1 },
        { k: "a", d: 2.5, f: 0.2, s: 2 },
      ],
      [{ k: "a", d: 0.01, f: 0.3, s: 3 }],
    ],
  },
  outputMode: "complete",
  pyspark: `df.groupBy("k").agg(F.sum("d").alias("sd"), F.avg("d").alias("ad"), F.sum("f").alias("sf"), F.sum("s").alias("ss"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.sum("d").alias("sd"), F.avg("d").alias("ad"), F.sum("f").alias("sf"), F.sum("s").alias("ss")),
});
