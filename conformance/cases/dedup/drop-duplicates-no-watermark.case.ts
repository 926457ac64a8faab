import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "dropDuplicates(['k']) without a watermark: the first row per key passes, later ones (also in later batches) are dropped; state grows forever; numDroppedDuplicateRows per batch.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 3 },
      ],
      [
        { k: "a", v: 4 },
        { k: "c", v: 5 },
      ],
      [
        { k: null, v: 6 },
        { k: null, v: 7 },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.dropDuplicates(["k"])`,
  arus: ({ df }) => df.dropDuplicates(["k"]),
});
