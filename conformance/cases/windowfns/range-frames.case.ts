import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Aggregates over RANGE frames with value bounds: ties are peers, a NULL order key frames the NULL rows, DESC turns PRECEDING into larger keys, NULLS LAST moves the NULLs out of UNBOUNDED PRECEDING, and a DOUBLE key with a fractional bound.",
  input: {
    schema: "k STRING, v INT, x DOUBLE",
    batches: [
      [
        { k: "a", v: 1, x: 10.0 },
        { k: "a", v: 2, x: null },
        { k: "a", v: 2, x: 7.0 },
        { k: "a", v: null, x: 1.0 },
        { k: "a", v: null, x: 2.0 },
        { k: "a", v: 5, x: 3.0 },
        { k: "b", v: 3, x: 5.0 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT k, v, x,
      sum(x) OVER (PARTITION BY k ORDER BY v RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS a,
      sum(x) OVER (PARTITION BY k ORDER BY v DESC NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS b,
      count(*) OVER (PARTITION BY k ORDER BY v RANGE BETWEEN CURRENT ROW AND 2 FOLLOWING) AS c,
      sum(x) OVER (PARTITION BY k ORDER BY v NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS d,
      max(v) OVER (PARTITION BY k ORDER BY v RANGE BETWEEN 3 PRECEDING AND UNBOUNDED FOLLOWING) AS e,
      count(*) OVER (ORDER BY x RANGE BETWEEN 2.5 PRECEDING AND CURRENT ROW) AS f
    FROM batch`,
  },
});
