import { defineCase } from "../../case.js";

export default defineCase({
  description: "filter with a Column predicate and where with a SQL string; rows whose predicate is NULL are dropped like false ones.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 5 },
        { k: "c", v: null },
      ],
      [
        { k: "d", v: 10 },
        { k: null, v: 3 },
      ],
    ],
  },
  pyspark: `df.filter(df.v > 2).where("k IS NOT NULL OR v = 3")`,
  arus: ({ df, F }) => df.filter(F.col("v").gt(2)).where("k IS NOT NULL OR v = 3"),
});
