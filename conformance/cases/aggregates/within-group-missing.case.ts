import { defineCase } from "../../case.js";

export default defineCase({
  description: "percentile_cont without WITHIN GROUP is refused at analysis (INVALID_WITHIN_GROUP_EXPRESSION.WITHIN_GROUP_MISSING).",
  input: { schema: "k STRING, v INT", batches: [[{ k: "a", v: 1 }]] },
  outputMode: "complete",
  sql: "SELECT k, percentile_cont(0.5) AS p FROM input GROUP BY k",
  expectError: "INVALID_WITHIN_GROUP_EXPRESSION.WITHIN_GROUP_MISSING",
});
