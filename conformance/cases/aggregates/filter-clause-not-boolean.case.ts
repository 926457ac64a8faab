import { defineCase } from "../../case.js";

export default defineCase({
  description: "Aggregate FILTER with a non-BOOLEAN condition is refused at analysis (INVALID_AGGREGATE_FILTER.NOT_BOOLEAN).",
  input: { schema: "k STRING, v INT", batches: [[{ k: "a", v: 1 }]] },
  outputMode: "complete",
  sql: "SELECT k, sum(v) FILTER (WHERE v) AS s FROM input GROUP BY k",
  expectError: "INVALID_AGGREGATE_FILTER.NOT_BOOLEAN",
});
