import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Union of two file streams: each trigger reads one file from each input, so batch i holds file i of both; numInputRows sums both sources.",
  inputs: [
    { name: "left", schema: "k STRING, v INT", batches: [[{ k: "l1", v: 1 }], [{ k: "l2", v: 2 }], []] },
    {
      name: "right",
      schema: "k STRING, v INT",
      batches: [
        [
          { k: "r1", v: 10 },
          { k: "r1b", v: 11 },
        ],
        [],
        [{ k: "r3", v: 30 }],
      ],
    },
  ],
  outputMode: "append",
  pyspark: `def build(spark, left, right):
    return left.union(right)`,
  arus: ({ inputs }) => inputs.left.union(inputs.right),
});
