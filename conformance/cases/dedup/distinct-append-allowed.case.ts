import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "distinct() on a stream is planned as streaming deduplication (operator 'dedupe'), not as an aggregation, so append mode without a watermark is accepted in Spark 4.1 (semantics 4.1 says otherwise).",
  input: {
    schema: "k STRING",
    batches: [
      [{ k: "a" }, { k: "a" }],
      [{ k: "b" }, { k: "a" }],
    ],
  },
  outputMode: "append",
  pyspark: `df.distinct()`,
  arus: ({ df }) => df.distinct(),
});
