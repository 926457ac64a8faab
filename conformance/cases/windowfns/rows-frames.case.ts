import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Aggregates over ROWS frames: sliding (1 PRECEDING .. 1 FOLLOWING), trailing, leading to UNBOUNDED FOLLOWING, frames past the partition end (count 0, sum NULL), and collect_list keeping row order.",
  input: {
    schema: "k STRING, i INT, x INT",
    batches: [
      [
        { k: "a", i: 1, x: 1 },
        { k: "a", i: 2, x: null },
        { k: "a", i: 3, x: 3 },
        { k: "a", i: 4, x: 4 },
        { k: "a", i: 5, x: 5 },
        { k: "b", i: 1, x: 10 },
        { k: "b", i: 2, x: 20 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT k, i,
      sum(x) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s3,
      avg(x) OVER (PARTITION BY k ORDER BY i ROWS 2 PRECEDING) AS avg_trail,
      min(x) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS min_rest,
      max(x) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS max_before,
      count(x) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN 3 FOLLOWING AND 4 FOLLOWING) AS n_far,
      sum(x) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN 3 FOLLOWING AND 4 FOLLOWING) AS s_far,
      count(*) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_n,
      collect_list(x) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS last3
    FROM batch`,
  },
});
