import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "A string literal cast to TIMESTAMP is folded by Spark into a timestamp literal, so the comparison is pushed into the JSON scan (LessThan(ts,...)), as with a TIMESTAMP '...' literal (timestamp-literal.case.ts), here inside an OR of two such comparisons.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(5) },
        { k: "b", ts: t(50) },
        { k: "c", ts: t(86400 * 3) },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.filter((F.col("ts") < F.lit("2024-01-01 00:00:10").cast("timestamp")) | (F.col("ts") >= F.lit("2024-01-03").cast("timestamp")))`,
  arus: ({ df, F }) =>
    df.filter(
      F.col("ts")
        .lt(F.lit("2024-01-01 00:00:10").cast("timestamp"))
        .or(F.col("ts").geq(F.lit("2024-01-03").cast("timestamp"))),
    ),
});
