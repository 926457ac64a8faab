import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "lag and lead per partition: default offset, offset 2 with a literal default, a default computed from the row, a negative offset, and IGNORE NULLS; rows outside the partition give the default.",
  input: {
    schema: "sensor STRING, t INT, v DOUBLE",
    batches: [
      [
        { sensor: "s1", t: 1, v: 1.5 },
        { sensor: "s1", t: 2, v: null },
        { sensor: "s1", t: 3, v: 3.5 },
        { sensor: "s1", t: 4, v: null },
        { sensor: "s1", t: 5, v: 5.5 },
        { sensor: "s2", t: 1, v: 10.0 },
        { sensor: "s2", t: 2, v: 20.0 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT sensor, t, v,
      lag(v) OVER (PARTITION BY sensor ORDER BY t) AS prev,
      lead(v, 2, -1.0) OVER (PARTITION BY sensor ORDER BY t) AS next2,
      lead(v, 1, t * 100) OVER (PARTITION BY sensor ORDER BY t) AS next_or_t,
      lag(v, -1) OVER (PARTITION BY sensor ORDER BY t) AS lag_neg,
      lag(v) IGNORE NULLS OVER (PARTITION BY sensor ORDER BY t) AS prev_nn,
      lead(v) IGNORE NULLS OVER (PARTITION BY sensor ORDER BY t) AS next_nn
    FROM batch`,
  },
});
