import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "JSON timestamp strings the default parser accepts (ISO with Z or offset, space separator, micro and nano fractions, date only) in session zone UTC.",
  input: {
    schema: "id INT, ts TIMESTAMP",
    batches: [
      [
        { id: 1, ts: "2024-01-01T00:00:00Z" },
        { id: 2, ts: "2024-01-01T00:00:00.123456Z" },
        { id: 3, ts: "2024-01-01T02:00:00+02:00" },
        { id: 4, ts: "2024-01-01 00:00:00.5" },
        { id: 5, ts: "2024-01-01" },
        { id: 6, ts: "2024-01-01T00:00:00.123456789Z" },
        { id: 7, ts: "not a timestamp" },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df`,
  arus: ({ df }) => df,
});
