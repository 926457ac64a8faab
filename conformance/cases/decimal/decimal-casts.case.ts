import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Casts into DECIMAL round HALF_UP (strings with spaces and exponents, doubles by their shortest text); out of range is NULL under try_cast; DECIMAL to INT truncates, to DOUBLE is the nearest double, to STRING keeps the scale's zeros.",
  input: {
    schema: "s STRING, d DOUBLE",
    batches: [
      [
        { s: "2.345", d: 2.675 },
        { s: " -2.345 ", d: -0.125 },
        { s: "1.5e2", d: 1e-7 },
      ],
      [
        { s: "123456.7", d: 9999.995 },
        { s: "abc", d: null },
        { s: null, d: 0.1 },
      ],
    ],
  },
  sql:
    "SELECT s, try_cast(s AS DECIMAL(5,2)) AS s_dec, try_cast(s AS DECIMAL(38,18)) AS s_wide, CAST(d AS DECIMAL(7,2)) AS d_dec, " +
    "try_cast(d AS DECIMAL(3,1)) AS d_narrow, CAST(CAST(d AS DECIMAL(10,4)) AS INT) AS d_int, CAST(CAST(d AS DECIMAL(10,4)) AS DOUBLE) AS d_back, " +
    "CAST(CAST(d AS DECIMAL(12,6)) AS STRING) AS d_str FROM input",
});
