import { defineCase, t } from "../../case.js";

export default defineCase({
  description: "A windowed aggregation written in SQL (window() in GROUP BY) over a watermarked input view, append mode.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    watermark: { column: "ts", delay: "5 seconds" },
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "b", ts: t(6) },
      ],
      [{ k: "a", ts: t(12) }],
      [{ k: "c", ts: t(40) }],
    ],
  },
  outputMode: "append",
  sql: "SELECT window(ts, '10 seconds') AS w, k, count(*) AS n FROM input GROUP BY window(ts, '10 seconds'), k",
});
