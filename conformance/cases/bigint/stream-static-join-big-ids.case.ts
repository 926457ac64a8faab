import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "A stream-static join on 64-bit ids beyond 2^53: 9007199254740993 matches only itself (not 9007199254740992, its nearest double), and BIGINT arithmetic on the joined ids is exact.",
  input: {
    schema: "id BIGINT, v STRING",
    files: [
      '{"id": 9007199254740993, "v": "a"}\n{"id": 9007199254740992, "v": "b"}\n',
      '{"id": 9223372036854775807, "v": "c"}\n{"id": 1, "v": "d"}\n',
    ],
  },
  outputMode: "append",
  pyspark: `def build(spark, df):
    dim = spark.sql("SELECT * FROM VALUES (9007199254740993L, 'odd'), (9223372036854775807L, 'max'), (1L, 'one') AS t(id, name)")
    return df.join(dim, "id").select("id", "v", "name", (F.col("id") - F.lit(1)).alias("prev"))`,
  arus: ({ df, F, session }) => {
    const dim = session.createDataFrame(
      [
        [9007199254740993n, "odd"],
        [9223372036854775807n, "max"],
        [1n, "one"],
      ],
      "id BIGINT, name STRING",
    );
    return df.join(dim, "id").select("id", "v", "name", F.col("id").minus(F.lit(1)).alias("prev"));
  },
});
