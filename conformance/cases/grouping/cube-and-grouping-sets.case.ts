import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "CUBE, GROUPING SETS (with the empty set), a plain key mixed with ROLLUP, and WITH ROLLUP, in one foreachBatch query (UNION ALL of the four), over an expression key too.",
  input: {
    schema: "k STRING, v INT, x DOUBLE",
    batches: [
      [
        { k: "a", v: 1, x: 10.0 },
        { k: "a", v: 2, x: null },
        { k: "b", v: 3, x: 5.0 },
        { k: "a", v: 2, x: 7.0 },
      ],
      [{ k: "c", v: 1, x: 1.5 }],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT 'cube' AS q, k, v, sum(x) AS s, count(*) AS n, grouping_id() AS g FROM batch GROUP BY CUBE(k, v)
      UNION ALL SELECT 'sets', k, v, sum(x), count(*), grouping_id() FROM batch GROUP BY GROUPING SETS ((k), (k, v), ())
      UNION ALL SELECT 'mixed', k, v, sum(x), count(*), grouping_id() FROM batch GROUP BY k, ROLLUP(v)
      UNION ALL SELECT 'with', k, v % 2, sum(x), count(*), grouping_id() FROM batch GROUP BY k, v % 2 WITH ROLLUP`,
  },
  // Spark counts the micro-batch's rows once per scan of the batch DataFrame (once per UNION
  // branch here); arus hands foreachBatch the batch's rows once. Not a grouping-sets matter.
  compare: { ignoreProgress: ["numInputRows"] },
});
