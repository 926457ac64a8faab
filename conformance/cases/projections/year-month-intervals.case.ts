import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Year-month intervals added to and subtracted from DATE and TIMESTAMP columns on a stream: month ends clamped (Jan 31 + 1 month, leap years), YEAR TO MONTH literals, negated intervals, and the time of day kept in the session time zone (Asia/Jakarta).",
  input: {
    schema: "d DATE, ts TIMESTAMP",
    batches: [
      [
        { d: "2024-01-31", ts: "2024-01-31T03:04:05.123456Z" },
        { d: "2023-02-28", ts: "2024-02-29T23:30:00Z" },
      ],
      [
        { d: "2024-02-29", ts: "2023-12-31T18:00:00Z" },
        { d: null, ts: null },
      ],
    ],
  },
  confs: { "spark.sql.session.timeZone": "Asia/Jakarta" },
  outputMode: "append",
  sql: `SELECT d, d + INTERVAL 1 MONTH AS d1, d - INTERVAL 1 YEAR AS dm1y, d + INTERVAL '1-2' YEAR TO MONTH AS d14,
    INTERVAL 13 MONTHS + d AS d13, d + (-INTERVAL 2 MONTHS) AS dm2,
    ts + INTERVAL 1 MONTH AS ts1, ts - INTERVAL 2 YEARS AS tsm2y, ts + INTERVAL '0-11' YEAR TO MONTH AS ts11
    FROM input`,
  notes: "Expected values come from PySpark itself (conformance/run.ts).",
});
