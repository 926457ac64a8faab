import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "sort_array(arr) ascending puts NULL elements first, sort_array(arr, False) descending puts them last; a NULL array gives NULL; strings compare by code point.",
  input: {
    schema: "a ARRAY<INT>, s ARRAY<STRING>",
    batches: [
      [
        { a: [3, null, 1, 2], s: ["b", "B", "a", null] },
        { a: null, s: [] },
        { a: [], s: ["é", "e", "z"] },
      ],
    ],
  },
  pyspark: `df.select(F.sort_array("a").alias("asc"), F.sort_array("a", asc=False).alias("desc"), F.sort_array("s").alias("s_asc"), F.sort_array("s", False).alias("s_desc"))`,
  arus: ({ df, F }) =>
    df.select(
      F.sort_array("a").alias("asc"),
      F.sort_array("a", false).alias("desc"),
      F.sort_array("s").alias("s_asc"),
      F.sort_array("s", false).alias("s_desc"),
    ),
});
