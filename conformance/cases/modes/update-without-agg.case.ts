import { defineCase } from "../../case.js";

export default defineCase({
  description: "Update mode without aggregation behaves like append for a stateless query.",
  input: { schema: "k STRING", batches: [[{ k: "a" }], [{ k: "b" }, { k: "c" }]] },
  outputMode: "update",
  pyspark: `df.withColumn("u", F.upper("k"))`,
  arus: ({ df, F }) => df.withColumn("u", F.upper("k")),
});
