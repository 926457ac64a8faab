import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "64-bit ids beyond 2^53 (snowflake ids, Long.MaxValue, Long.MinValue) through a streaming groupBy in update mode: ids that a double cannot tell apart stay separate groups, and their sums are exact across batches and state.",
  input: {
    schema: "id BIGINT, v BIGINT",
    files: [
      '{"id": 9007199254740993, "v": 1}\n{"id": 9007199254740992, "v": 2}\n{"id": 9223372036854775807, "v": 4503599627370496}\n{"id": 5, "v": 1}\n',
      '{"id": 9007199254740993, "v": 9007199254740993}\n{"id": 9223372036854775807, "v": 4503599627370497}\n{"id": -9223372036854775808, "v": -1}\n',
      '{"id": 9007199254740992, "v": 7}\n{"id": 5, "v": 9223372036854775806}\n',
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("id").agg(F.sum("v").alias("s"), F.count("*").alias("n"), F.max("v").alias("mx"))`,
  arus: ({ df, F }) => df.groupBy("id").agg(F.sum("v").alias("s"), F.count("*").alias("n"), F.max("v").alias("mx")),
});
