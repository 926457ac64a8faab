import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Ordered-set aggregates on each micro-batch (foreachBatch): WITHIN GROUP with FILTER, as a window function over a partition, with DISTINCT (listagg ordered by its own value), string_agg printed as listagg, a missing delimiter printed as NULL, and in HAVING.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 10 },
        { k: "a", v: 30 },
        { k: "a", v: 30 },
        { k: "a", v: 20 },
        { k: "b", v: null },
        { k: "b", v: 7 },
        { k: "b", v: 3 },
      ],
      [{ k: "c", v: 3 }],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT k, percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FILTER (WHERE v < 30) AS pf,
        listagg(DISTINCT v, '|') WITHIN GROUP (ORDER BY v DESC), string_agg(v) WITHIN GROUP (ORDER BY v NULLS LAST) AS s
      FROM batch GROUP BY k HAVING percentile_cont(0.5) WITHIN GROUP (ORDER BY v) > 0`,
  },
});
