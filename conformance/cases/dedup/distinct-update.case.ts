import { defineCase } from "../../case.js";

export default defineCase({
  description: "distinct() is an aggregation: in update mode it emits each new distinct row once.",
  input: {
    schema: "k STRING",
    batches: [
      [{ k: "a" }, { k: "a" }, { k: "b" }],
      [{ k: "a" }, { k: "c" }],
    ],
  },
  outputMode: "update",
  pyspark: `df.distinct()`,
  arus: ({ df }) => df.distinct(),
});
