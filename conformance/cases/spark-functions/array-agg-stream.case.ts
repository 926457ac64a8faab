import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "F.array_agg (collect_list's other name) on a stream in update mode, beside F.bit_count and F.shiftleft of the group key and F.mask of the aggregated text: Spark's column names, values across batches.",
  input: {
    schema: "k INT, v STRING",
    batches: [
      [
        { k: 5, v: "Ab1" },
        { k: 5, v: null },
        { k: 6, v: "cD" },
      ],
      [
        { k: 5, v: "x9" },
        { k: 7, v: "Q" },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy(F.bit_count("k"), F.shiftleft("k", 2)).agg(F.array_agg(F.mask("v")), F.array_size(F.array_agg("v")))`,
  arus: ({ df, F }) => df.groupBy(F.bit_count("k"), F.shiftleft("k", 2)).agg(F.array_agg(F.mask("v")), F.array_size(F.array_agg("v"))),
});
