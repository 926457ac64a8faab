import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "skewness, kurtosis, bit_and, bit_or, bit_xor and xxhash64 of the key on a stream in update mode: state buffers (n, mean, m2, m3, m4) merged across batches with Spark's formulas; equal values give NULL.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 7 },
        { k: "b", v: 7 },
      ],
      [
        { k: "a", v: 3 },
        { k: "a", v: 10 },
        { k: "b", v: null },
        { k: "c", v: -4 },
      ],
      [
        { k: "a", v: -6 },
        { k: "c", v: 12 },
        { k: "c", v: 5 },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k", F.xxhash64("k")).agg(F.skewness("v"), F.kurtosis("v"), F.bit_and("v"), F.bit_or("v"), F.bit_xor("v"))`,
  arus: ({ df, F }) =>
    df.groupBy("k", F.xxhash64("k")).agg(F.skewness("v"), F.kurtosis("v"), F.bit_and("v"), F.bit_or("v"), F.bit_xor("v")),
});
