import { defineCase } from "../../case.js";

export default defineCase({
  description: "A generator inside another expression (explode(arr) + 1) fails analysis with UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS.",
  input: {
    schema: "arr ARRAY<INT>",
    batches: [[{ arr: [1] }]],
  },
  pyspark: `df.select(F.explode("arr") + 1)`,
  arus: ({ df, F }) => df.select(F.explode("arr").plus(1)),
  expectError: "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS",
});
