import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "DESCRIBE QUERY over the micro-batch view: the result columns of an aggregate with computed types (count is bigint, avg of an int is double, a window is a struct of timestamps).",
  input: {
    schema: "k STRING, n INT, ts TIMESTAMP",
    batches: [[{ k: "a", n: 1, ts: t(5) }]],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: "DESCRIBE QUERY SELECT k, count(*) AS c, avg(n) AS m, window(ts, '10 seconds') AS w, n / 2 AS half FROM batch GROUP BY k, n, window(ts, '10 seconds')",
  },
  compare: { ignoreProgress: ["numInputRows"] },
});
