import { defineCase } from "../../case.js";

export default defineCase({
  description: "groupBy(k).count() in complete mode: every batch emits the whole result table, including an empty input batch.",
  input: {
    schema: "k STRING",
    batches: [[{ k: "a" }, { k: "b" }, { k: "a" }], [], [{ k: "c" }]],
  },
  outputMode: "complete",
  pyspark: `df.groupBy("k").count()`,
  arus: ({ df }) => df.groupBy("k").count(),
  console: {},
});
