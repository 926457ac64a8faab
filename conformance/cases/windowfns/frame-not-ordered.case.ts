import { defineCase } from "../../case.js";

export default defineCase({
  description: "A ranking function without ORDER BY inside foreachBatch fails the batch with WINDOW_FUNCTION_FRAME_NOT_ORDERED.",
  input: {
    schema: "k STRING, v INT",
    batches: [[{ k: "a", v: 1 }]],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: { sql: "SELECT k, rank() OVER (PARTITION BY k) AS r FROM batch" },
  expectError: "WINDOW_FUNCTION_FRAME_NOT_ORDERED",
});
