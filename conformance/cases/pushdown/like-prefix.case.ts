import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "`k LIKE 'ab%'` becomes StartsWith(k, ab), pushed into the JSON scan with IsNotNull(k): numInputRows counts only matching rows.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "abc", v: 1 },
        { k: "xab", v: 2 },
        { k: null, v: 3 },
        { k: "ab", v: 4 },
      ],
    ],
  },
  pyspark: `df.filter(F.col("k").like("ab%"))`,
  arus: ({ df, F }) => df.filter(F.col("k").like("ab%")),
});
