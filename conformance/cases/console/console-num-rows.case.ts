import { defineCase } from "../../case.js";

export default defineCase({
  description: "Console sink with numRows=2: 'only showing top 2 rows' footer when a batch has more rows; numRows=1 edge in the next case.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
        { k: "c", v: 3 },
      ],
      [{ k: "d", v: 4 }],
      [
        { k: "e", v: 5 },
        { k: "f", v: 6 },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.select("k", "v")`,
  arus: ({ df }) => df.select("k", "v"),
  console: { numRows: 2 },
});
