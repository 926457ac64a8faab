import { defineCase } from "../../case.js";

export default defineCase({
  description: "dropDuplicates state survives a restart: keys seen before the restart are still dropped after it.",
  input: {
    schema: "k STRING",
    batches: [
      [{ k: "a" }, { k: "b" }],
      [{ k: "a" }, { k: "c" }],
      [{ k: "b" }, { k: "d" }],
    ],
  },
  restartAt: [1, 2],
  outputMode: "append",
  pyspark: `df.dropDuplicates(["k"])`,
  arus: ({ df }) => df.dropDuplicates(["k"]),
});
