import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Generators on each micro-batch's DataFrame (foreachBatch, batch execution): two generators in one SELECT (the first outermost), and a generator over an aggregate (GROUP BY with explode(collect_list(...))).",
  input: {
    schema: "k STRING, arr ARRAY<INT>",
    batches: [
      [
        { k: "a", arr: [1, 2] },
        { k: "b", arr: [3] },
        { k: "a", arr: null },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT k, explode(arr) AS x, explode(array('p', 'q')) AS y, NULL AS n FROM batch
      UNION ALL
      SELECT k, explode(collect_list(size(arr))) AS x, 'agg' AS y, count(*) AS n FROM batch GROUP BY k`,
  },
  compare: { ignoreProgress: ["numInputRows"] },
  notes: "The UNION ALL reads the batch twice: Spark counts numInputRows per scan.",
});
