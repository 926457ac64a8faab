import { defineCase } from "../../case.js";

export default defineCase({
  description:
    'stack as unpivot on a stream: n rows per input row, values laid out row by row, NULL for a missing trailing value, named with .alias("quarter", "amount") (here the third row\'s amount is missing: q3\'s value is not passed).',
  input: {
    schema: "id INT, q1 INT, q2 INT, q3 INT",
    batches: [
      [
        { id: 1, q1: 10, q2: 20, q3: null },
        { id: 2, q1: null, q2: 5, q3: 7 },
      ],
      [{ id: 3, q1: 1, q2: 2, q3: 3 }],
    ],
  },
  pyspark: `df.select("id", F.stack(F.lit(3), F.lit("q1"), "q1", F.lit("q2"), "q2", F.lit("q3")).alias("quarter", "amount"))`,
  arus: ({ df, F }) => df.select("id", F.stack(3, F.lit("q1"), "q1", F.lit("q2"), "q2", F.lit("q3")).alias("quarter", "amount")),
});
