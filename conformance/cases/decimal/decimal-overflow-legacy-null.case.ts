import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "With ANSI off, decimal overflow (arithmetic, casts) and division by zero give NULL; the rows that fit keep their exact values.",
  input: {
    schema: "a DECIMAL(38,0), b DECIMAL(5,2)",
    batches: [
      [
        { a: "99999999999999999999999999999999999999", b: 0 },
        { a: "1", b: 999.99 },
      ],
    ],
  },
  confs: { "spark.sql.ansi.enabled": "false" },
  sql: "SELECT a + 1 AS a1, a * 10 AS a10, b / 0 AS bz, CAST(b * 100 AS DECIMAL(5,2)) AS bc, CAST(b AS STRING) AS bs FROM input",
});
