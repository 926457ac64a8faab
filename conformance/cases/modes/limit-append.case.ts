import { defineCase } from "../../case.js";

export default defineCase({
  description: "limit(3) on a stream in append mode is a stateful global limit: at most 3 rows in total across all batches.",
  input: {
    schema: "k STRING",
    batches: [[{ k: "a" }, { k: "b" }], [{ k: "c" }, { k: "d" }], [{ k: "e" }]],
  },
  outputMode: "append",
  pyspark: `df.limit(3)`,
  arus: ({ df }) => df.limit(3),
});
