import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "TINYINT/SMALLINT/FLOAT keep their types through arithmetic (byte op byte is byte, float op int is float) and, with ANSI off, wrap like Java's byte/short; casts into them wrap too; FLOAT arithmetic rounds to float precision.",
  input: {
    schema: "b TINYINT, h SMALLINT, f FLOAT",
    batches: [
      [
        { b: 127, h: 32767, f: 0.1 },
        { b: -128, h: -32768, f: 3.4028235e38 },
      ],
      [{ b: 5, h: 300, f: 1.1 }],
    ],
  },
  confs: { "spark.sql.ansi.enabled": "false" },
  sql:
    "SELECT b + CAST(1 AS TINYINT) AS b1, h * CAST(2 AS SMALLINT) AS h2, -b AS nb, b + 1 AS bi, f * 2 AS f2, f + CAST(1.5 AS FLOAT) AS f3, " +
    "CAST(f AS DOUBLE) AS fd, CAST(h AS TINYINT) AS ht, CAST(h + 70000 AS SMALLINT) AS hs, b + h AS bh FROM input",
});
