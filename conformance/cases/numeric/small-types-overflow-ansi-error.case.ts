import { defineCase } from "../../case.js";

export default defineCase({
  description: "Under ANSI, TINYINT + TINYINT beyond 127 fails the query with BINARY_ARITHMETIC_OVERFLOW (the result stays TINYINT).",
  input: {
    schema: "b TINYINT",
    batches: [[{ b: 100 }, { b: 127 }]],
  },
  sql: "SELECT b + CAST(1 AS TINYINT) AS c FROM input",
  expectError: "BINARY_ARITHMETIC_OVERFLOW",
});
