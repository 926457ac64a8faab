import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Spark's default frames (RANGE UNBOUNDED PRECEDING .. CURRENT ROW with ORDER BY, the whole partition without) and the column names Spark gives unaliased window expressions.",
  input: {
    schema: "k STRING, v INT, x DOUBLE",
    batches: [
      [
        { k: "a", v: 1, x: 10.0 },
        { k: "a", v: 2, x: null },
        { k: "a", v: 2, x: 7.0 },
        { k: "a", v: null, x: 1.0 },
        { k: "b", v: 3, x: 5.0 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT k, v,
      sum(x) OVER (PARTITION BY k ORDER BY v),
      sum(x) OVER (PARTITION BY k),
      count(*) OVER (),
      avg(x) OVER (ORDER BY v DESC),
      rank() OVER (PARTITION BY k ORDER BY v),
      lag(v, 2) OVER (PARTITION BY k ORDER BY v, x),
      sum(v) OVER (ORDER BY v, x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
    FROM batch`,
  },
});
