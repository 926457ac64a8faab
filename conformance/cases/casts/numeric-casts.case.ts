import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Numeric casts: double to int truncates toward zero, int to string, double to string formatting (1.0E20, 0.1), bool to int, int to decimal(10,2).",
  input: {
    schema: "d DOUBLE, i INT, b BOOLEAN",
    batches: [
      [
        { d: 3.99, i: 42, b: true },
        { d: -3.99, i: -1, b: false },
      ],
      [
        { d: 1e20, i: 0, b: null },
        { d: 0.1, i: 7, b: true },
      ],
    ],
  },
  pyspark: `df.select(F.when(F.abs("d") < 1e9, df.d.cast("int")).alias("d_int"), df.i.cast("string").alias("i_str"),
    df.d.cast("string").alias("d_str"), df.b.cast("int").alias("b_int"), df.i.cast("decimal(10,2)").alias("i_dec"))`,
  arus: ({ df, F }) =>
    df.select(
      F.when(F.abs("d").lt(1e9), F.col("d").cast("int")).alias("d_int"),
      F.col("i").cast("string").alias("i_str"),
      F.col("d").cast("string").alias("d_str"),
      F.col("b").cast("int").alias("b_int"),
      F.col("i").cast("decimal(10,2)").alias("i_dec"),
    ),
});
