import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Rolling windows over time: RANGE frames with INTERVAL bounds over a TIMESTAMP key (trailing 10 seconds, the next minute in DESC order) and over a DATE key (days as INTERVAL or as a number), with a NULL time.",
  input: {
    schema: "sensor STRING, ts TIMESTAMP, v INT",
    batches: [
      [
        { sensor: "s1", ts: t(0), v: 1 },
        { sensor: "s1", ts: t(5), v: 2 },
        { sensor: "s1", ts: t(12), v: 3 },
        { sensor: "s1", ts: t(86400 * 2), v: 4 },
        { sensor: "s1", ts: null, v: 5 },
        { sensor: "s2", ts: t(5), v: 10 },
        { sensor: "s2", ts: t(5), v: 20 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT sensor, ts, v,
      count(*) OVER (PARTITION BY sensor ORDER BY ts RANGE BETWEEN INTERVAL 10 SECONDS PRECEDING AND CURRENT ROW),
      sum(v) OVER (PARTITION BY sensor ORDER BY ts DESC RANGE BETWEEN CURRENT ROW AND INTERVAL '1' MINUTE FOLLOWING) AS next_minute,
      sum(v) OVER (PARTITION BY sensor ORDER BY CAST(ts AS DATE) RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW) AS two_days,
      max(v) OVER (PARTITION BY sensor ORDER BY CAST(ts AS DATE) RANGE BETWEEN 2 PRECEDING AND 1 PRECEDING) AS before
    FROM batch`,
  },
});
