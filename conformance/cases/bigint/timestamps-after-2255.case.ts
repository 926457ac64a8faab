import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Timestamps after 2255-06-05 (beyond 2^53 microseconds) keep every microsecond: parsed from JSON, cast to string, to seconds, and through timestamp + interval.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    files: [
      '{"k": "a", "ts": "2300-01-01T00:00:00.000001Z"}\n{"k": "b", "ts": "9000-06-15T12:00:00.123457Z"}\n{"k": "c", "ts": "2255-06-05T23:47:34.740993Z"}\n{"k": "d", "ts": "2024-02-29T12:34:56.789123Z"}\n',
    ],
  },
  sql: `SELECT k, ts, CAST(ts AS STRING) AS s, CAST(ts AS BIGINT) AS secs, ts + INTERVAL 1 SECOND AS later
    FROM input`,
});
