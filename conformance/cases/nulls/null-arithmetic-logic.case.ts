import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "NULL propagation: arithmetic and comparisons with NULL give NULL, three-valued AND/OR (NULL AND false = false, NULL OR true = true), null-safe equality <=>, coalesce.",
  input: {
    schema: "a INT, b INT, p BOOLEAN",
    batches: [
      [
        { a: 1, b: null, p: null },
        { a: null, b: null, p: true },
        { a: 2, b: 2, p: false },
      ],
    ],
  },
  pyspark: `df.select((df.a + df.b).alias("sum"), (df.a == df.b).alias("eq"), df.a.eqNullSafe(df.b).alias("eq_ns"),
    (df.p & F.lit(False)).alias("and_f"), (df.p | F.lit(True)).alias("or_t"), (df.p & F.lit(True)).alias("and_t"),
    F.coalesce(df.b, df.a, F.lit(-1)).alias("co"), df.a.isNull().alias("a_null"))`,
  arus: ({ df, F }) =>
    df.select(
      F.col("a").plus(F.col("b")).alias("sum"),
      F.col("a").equalTo(F.col("b")).alias("eq"),
      F.col("a").eqNullSafe(F.col("b")).alias("eq_ns"),
      F.col("p").and(F.lit(false)).alias("and_f"),
      F.col("p").or(F.lit(true)).alias("or_t"),
      F.col("p").and(F.lit(true)).alias("and_t"),
      F.coalesce(F.col("b"), F.col("a"), F.lit(-1)).alias("co"),
      F.col("a").isNull().alias("a_null"),
    ),
});
