import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "DESCRIBE of each micro-batch registered as a temp view: one (col_name, data_type, comment) row per column with Spark's type names, the same rows every batch (an empty one too). The batch is never scanned, so numInputRows is not compared.",
  input: {
    schema:
      "k STRING, n INT, big BIGINT, x DOUBLE, d DECIMAL(10,2), ts TIMESTAMP, day DATE, ok BOOLEAN, tags ARRAY<STRING>, attrs MAP<STRING, INT>, p STRUCT<a: INT, b: STRING>",
    batches: [
      [
        {
          k: "a",
          n: 1,
          big: 2,
          x: 1.5,
          d: "1.25",
          ts: t(5),
          day: "2024-01-01",
          ok: true,
          tags: ["x"],
          attrs: { a: 1 },
          p: { a: 1, b: "s" },
        },
      ],
      [],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: { sql: "DESCRIBE TABLE batch" },
  compare: { ignoreProgress: ["numInputRows"] },
});
