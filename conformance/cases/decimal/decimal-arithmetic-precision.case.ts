import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Decimal arithmetic result precision/scale (Spark's DecimalPrecision with allowPrecisionLoss): +, -, *, /, % over DECIMAL(12,2), DECIMAL(38,10), INT columns and integral and fractional literals; exact where doubles drift (0.1 + 0.2).",
  input: {
    schema: "a DECIMAL(12,2), b DECIMAL(38,10), i INT",
    batches: [
      [
        { a: 19.99, b: 1.5, i: 3 },
        { a: -0.05, b: 0.3333333333, i: -7 },
      ],
      [{ a: 1234567890.12, b: "12345678901.0123456789", i: 2 }, { a: null, b: 2, i: null }],
    ],
  },
  sql:
    "SELECT a + i AS a_plus_i, a - b AS a_minus_b, a * i AS a_times_i, a * b AS a_times_b, b * b AS b_sq, a / i AS a_div_i, " +
    "a / b AS a_div_b, b / 3 AS b_div_3, a % i AS a_mod_i, -a AS neg, a * 1.5 AS lit_frac, a + 1 AS lit_int, " +
    "0.1 + 0.2 AS tenths, 1.5 * 2 AS lit_prod, a div i AS a_intdiv FROM input",
});
