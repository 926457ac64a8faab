import { defineCase } from "../../case.js";

export default defineCase({
  description: "Console sink with numRows=1: footer says 'only showing top 1 row' (singular).",
  input: {
    schema: "k STRING",
    batches: [[{ k: "a" }, { k: "b" }]],
  },
  outputMode: "append",
  pyspark: `df`,
  arus: ({ df }) => df,
  console: { numRows: 1 },
});
