import { defineCase } from "../../case.js";

export default defineCase({
  description: "Trigger.Once ignores maxFilesPerTrigger: all input files are read in a single batch 0.",
  input: {
    schema: "k STRING",
    batches: [[{ k: "a" }], [{ k: "b" }], [{ k: "a" }]],
  },
  trigger: "once",
  outputMode: "complete",
  pyspark: `df.groupBy("k").count()`,
  arus: ({ df }) => df.groupBy("k").count(),
});
