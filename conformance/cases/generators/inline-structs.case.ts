import { defineCase } from "../../case.js";

export default defineCase({
  description:
    'inline and inline_outer over an ARRAY<STRUCT>: one column per field (renamed with .alias("p", "q")), a NULL element giving a row of NULLs, a NULL or empty array no row (inline) or one NULL row (inline_outer).',
  input: {
    schema: "id INT, s ARRAY<STRUCT<a: INT, b: STRING>>",
    batches: [
      [
        {
          id: 1,
          s: [
            { a: 1, b: "x" },
            { a: 2, b: null },
          ],
        },
        { id: 2, s: [] },
      ],
      [
        { id: 3, s: null },
        { id: 4, s: [null] },
      ],
    ],
  },
  pyspark: `df.select("id", F.inline("s")).union(df.select("id", F.inline_outer("s").alias("p", "q")))`,
  arus: ({ df, F }) => df.select("id", F.inline("s")).union(df.select("id", F.inline_outer("s").alias("p", "q"))),
  notes:
    "numInputRows is counted per scan (two scans); the inline branch's scan takes the inferred isnotnull(s), the inline_outer one does not.",
});
