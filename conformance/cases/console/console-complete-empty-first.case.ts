import { defineCase } from "../../case.js";

export default defineCase({
  description: "Console sink in complete mode whose first batch is empty: the header-only table for batch 0, then full tables.",
  input: {
    schema: "k STRING",
    batches: [[], [{ k: "a" }, { k: "b" }, { k: "a" }]],
  },
  outputMode: "complete",
  pyspark: `df.groupBy("k").count().orderBy("k")`,
  arus: ({ df }) => df.groupBy("k").count().orderBy("k"),
  console: {},
  compare: { consoleRowOrder: true },
});
