import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "With spark.sql.ansi.enabled=false, BIGINT arithmetic wraps as a Java long (+, -, *, unary minus, div), casts and floor saturate or wrap as Spark's legacy casts do, and exact values beyond 2^53 survive.",
  input: {
    schema: "a BIGINT, b BIGINT",
    files: [
      '{"a": 9223372036854775807, "b": 1}\n{"a": -9223372036854775808, "b": -1}\n{"a": 9007199254740993, "b": 3}\n{"a": 4611686018427387904, "b": 2}\n',
    ],
  },
  confs: { "spark.sql.ansi.enabled": "false" },
  sql: `SELECT a, b, a + b AS plus, a - b AS minus, a * b AS times, -a AS neg, a div b AS quot, a % b AS rem,
    CAST(a AS INT) AS i, CAST(a AS DOUBLE) AS d, CAST(a AS STRING) AS s, CAST(CAST(a AS DOUBLE) * 4 AS BIGINT) AS sat, floor(CAST(a AS DOUBLE) * 4) AS fl
    FROM input`,
});
