import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "A null-intolerant condition (`length(k) > 1`) is not pushable itself, but Spark infers IsNotNull(k) from it and pushes that: rows with a NULL k are not input rows.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "bb", v: 2 },
        { k: null, v: 3 },
        { k: null, v: 4 },
      ],
    ],
  },
  pyspark: `df.filter(F.length("k") > 1)`,
  arus: ({ df, F }) => df.filter(F.length("k").gt(1)),
});
