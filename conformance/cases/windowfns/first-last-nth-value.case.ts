import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "first, last and nth_value over default (RANGE to the current row), sliding and whole-partition ROWS frames, with and without IGNORE NULLS.",
  input: {
    schema: "k STRING, i INT, x INT",
    batches: [
      [
        { k: "a", i: 1, x: 1 },
        { k: "a", i: 2, x: null },
        { k: "a", i: 3, x: 3 },
        { k: "a", i: 4, x: null },
        { k: "a", i: 5, x: 5 },
        { k: "b", i: 1, x: null },
        { k: "b", i: 2, x: 20 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT k, i, x,
      first(x) OVER w AS f,
      first(x) IGNORE NULLS OVER (PARTITION BY k ORDER BY i ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS f_next_nn,
      last(x) OVER w AS l,
      last(x) IGNORE NULLS OVER w AS l_nn,
      last_value(x) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS l_all,
      nth_value(x, 2) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS n2,
      nth_value(x, 2) IGNORE NULLS OVER (PARTITION BY k ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS n2_nn,
      nth_value(x, 3) OVER w AS n3
    FROM batch
    WINDOW w AS (PARTITION BY k ORDER BY i)`,
  },
});
