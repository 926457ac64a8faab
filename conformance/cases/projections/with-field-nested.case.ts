import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "withField / dropFields on nested names over a stream (JSON input with a struct inside a struct): a.b set, a.e added, a.c and d dropped, chained with a top-level field, a backquoted `a.b` as one name; a NULL inner or outer struct stays NULL; Spark's column names (update_fields(s, WithField(update_fields(s.a, ...)))) and struct field names inside expressions (upper(s.a.e)).",
  input: {
    schema: "k INT, s STRUCT<a: STRUCT<b: INT, c: INT>, d: INT>",
    batches: [
      [
        { k: 1, s: { a: { b: 1, c: 2 }, d: 3 } },
        { k: 2, s: { a: null, d: 4 } },
      ],
      [{ k: 3, s: null }],
    ],
  },
  outputMode: "append",
  pyspark: `df.select("k", F.col("s").withField("a.b", F.lit(10)), F.col("s").withField("a.e", F.concat(F.lit("x"), F.col("k").cast("string"))).alias("e"), F.col("s").dropFields("a.c", "d"), F.col("s").withField("a.b", F.col("k")).withField("d", F.lit(5)), F.col("s").withField("\`a.b\`", F.lit(10))).select("*", F.upper(F.col("e.a.e")))`,
  arus: ({ df, F }) =>
    df
      .select(
        "k",
        F.col("s").withField("a.b", F.lit(10)),
        F.col("s")
          .withField("a.e", F.concat(F.lit("x"), F.col("k").cast("string")))
          .alias("e"),
        F.col("s").dropFields("a.c", "d"),
        F.col("s").withField("a.b", F.col("k")).withField("d", F.lit(5)),
        F.col("s").withField("`a.b`", F.lit(10)),
      )
      .select("*", F.upper(F.col("e.a.e"))),
});
