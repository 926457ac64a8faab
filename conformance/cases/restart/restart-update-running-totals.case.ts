import { defineCase } from "../../case.js";

export default defineCase({
  description: "Update-mode running sums continue after a restart from the state checkpoint.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [{ k: "a", v: 1 }],
      [
        { k: "a", v: 2 },
        { k: "b", v: 5 },
      ],
      [{ k: "a", v: 3 }],
    ],
  },
  restartAt: [1],
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.sum("v").alias("s"))`,
  arus: ({ df, F }) => df.groupBy("k").agg(F.sum("v").alias("s")),
});
