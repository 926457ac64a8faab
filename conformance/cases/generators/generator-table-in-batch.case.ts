import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Generators as tables in FROM on each micro-batch (foreachBatch): explode of a literal array joined with the batch, and stack(...) in FROM; their columns qualified by the table alias.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
      ],
      [{ k: "c", v: 3 }],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT b.k, b.v * m.col AS scaled, s.col0 AS tag FROM batch b
      CROSS JOIN explode(array(1, 10)) m
      CROSS JOIN stack(1, 'x') s`,
  },
});
