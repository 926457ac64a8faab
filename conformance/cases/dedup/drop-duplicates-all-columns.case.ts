import { defineCase } from "../../case.js";

export default defineCase({
  description: "dropDuplicates() with no columns dedups on whole rows, across batches, in update mode (behaves like append).",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 1 },
        { k: "a", v: 2 },
      ],
      [
        { k: "a", v: 1 },
        { k: "b", v: null },
        { k: "b", v: null },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.dropDuplicates()`,
  arus: ({ df }) => df.dropDuplicates(),
});
