import { defineCase } from "../../case.js";

export default defineCase({
  description: "CSV file source with a schema and no header: empty fields are NULL, quoted fields may hold commas.",
  input: {
    format: "csv",
    schema: "k STRING, v INT, d DOUBLE",
    batches: [
      [
        { k: "a", v: 1, d: 1.5 },
        { k: "b,c", v: null, d: 2 },
      ],
      [{ k: null, v: 3, d: null }],
    ],
  },
  outputMode: "append",
  pyspark: `df`,
  arus: ({ df }) => df,
});
