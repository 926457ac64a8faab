import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Generated names and values of session 14's functions on a stream (append): a cast of a column keeps its name, negative(x), bitwise AND/OR/XOR, ceil/floor with a scale, to_char / to_number / try_to_number, BETWEEN and != in SQL text, POWER and substr, a UDF named <lambda>.",
  input: {
    schema: "id INT, s STRING, x DOUBLE",
    batches: [
      [
        { id: 1, s: "abc", x: 1.25 },
        { id: 6, s: "123", x: -3.75 },
        { id: 13, s: null, x: null },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.select(F.col("id").cast("string"), F.negative("x"),
  F.col("id").bitwiseAND(3), F.col("id").bitwiseOR(8), F.col("id").bitwiseXOR(F.lit(5)),
  F.ceil("x", F.lit(1)), F.floor("x", F.lit(1)),
  F.expr("to_char(id * 1000 + 0.5, '99,999.99')"), F.expr("to_number('1,234.5', '9,999.9')"), F.expr("try_to_number(s, '999')"),
  F.expr("s between 'a' and 'm'"), F.col("x") != 1, F.pow("x", 2), F.col("s").substr(1, 2),
  F.udf(lambda v: v * 2, "int")("id"))`,
  arus: ({ df, F }) =>
    df.select(
      F.col("id").cast("string"),
      F.negative("x"),
      F.col("id").bitwiseAND(3),
      F.col("id").bitwiseOR(8),
      F.col("id").bitwiseXOR(F.lit(5)),
      F.ceil("x", 1),
      F.floor("x", 1),
      F.expr("to_char(id * 1000 + 0.5, '99,999.99')"),
      F.expr("to_number('1,234.5', '9,999.9')"),
      F.expr("try_to_number(s, '999')"),
      F.expr("s between 'a' and 'm'"),
      F.col("x").notEqual(1),
      F.pow("x", 2),
      F.col("s").substr(1, 2),
      F.udf((v: number) => v * 2, "int")("id"),
    ),
});
