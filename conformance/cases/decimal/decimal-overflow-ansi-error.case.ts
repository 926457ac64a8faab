import { defineCase } from "../../case.js";

export default defineCase({
  description: "Under ANSI, a decimal result beyond its precision fails the query (NUMERIC_VALUE_OUT_OF_RANGE) instead of giving NULL.",
  input: {
    schema: "a DECIMAL(38,0)",
    batches: [[{ a: "99999999999999999999999999999999999999" }]],
  },
  sql: "SELECT a + 1 AS b FROM input",
  expectError: "NUMERIC_VALUE_OUT_OF_RANGE",
});
