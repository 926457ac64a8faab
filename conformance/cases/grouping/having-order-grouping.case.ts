import { defineCase } from "../../case.js";

export default defineCase({
  description: "HAVING on grouping() keeps only the subtotal rows; ORDER BY grouping() puts the total last (compared as rows).",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 3 },
        { k: null, v: 4 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT * FROM (SELECT k, v, sum(v) AS s FROM batch GROUP BY ROLLUP(k, v) HAVING grouping(v) = 1)
      UNION ALL SELECT k, NULL, count(*) FROM batch GROUP BY ROLLUP(k) HAVING grouping_id() = 0 AND k IS NOT NULL`,
  },
  // Spark counts the micro-batch's rows once per scan of the batch DataFrame (once per UNION
  // branch here); arus hands foreachBatch the batch's rows once. Not a grouping-sets matter.
  compare: { ignoreProgress: ["numInputRows"] },
});
