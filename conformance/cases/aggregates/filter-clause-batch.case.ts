import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Aggregate FILTER (WHERE ...) on each micro-batch (foreachBatch): with DISTINCT, a count(1) of NULLs and a percentile per key, over a window aggregate with a FILTER.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 5 },
        { k: "a", v: 5 },
        { k: "b", v: null },
        { k: "b", v: 7 },
      ],
      [{ k: "c", v: 3 }],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT k, count(DISTINCT v) FILTER (WHERE v > 1) AS d, count(1) FILTER (WHERE v IS NULL) AS nulls,
        percentile(v, 0.5) FILTER (WHERE v < 7) AS p, max(w) AS w
      FROM (SELECT k, v, sum(v) FILTER (WHERE v > 1) OVER (PARTITION BY k) AS w FROM batch) GROUP BY k`,
  },
});
