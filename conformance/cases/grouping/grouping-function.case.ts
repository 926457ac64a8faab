import { defineCase } from "../../case.js";

export default defineCase({
  description: "grouping(col) in a CUBE: 1 where the column is rolled up. Spark's result type is TINYINT.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: null },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: { sql: "SELECT k, v, grouping(k) AS gk, grouping(v) AS gv, count(*) AS n FROM batch GROUP BY CUBE(k, v)" },
});
