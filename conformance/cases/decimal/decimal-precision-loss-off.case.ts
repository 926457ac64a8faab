import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "spark.sql.decimalOperations.allowPrecisionLoss=false: result types are capped at 38 without shrinking the scale (multiplication keeps s1 + s2, division its own rule), so a product too wide for its type overflows.",
  input: {
    schema: "a DECIMAL(20,10), b DECIMAL(20,10)",
    batches: [[{ a: 1.5, b: 2.25 }, { a: 0.0000000001, b: 3 }]],
  },
  confs: { "spark.sql.decimalOperations.allowPrecisionLoss": "false" },
  sql: "SELECT a * b AS prod, a / b AS quot, a + b AS total FROM input",
});
