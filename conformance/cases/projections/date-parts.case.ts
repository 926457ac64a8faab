import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "make_date, dayofyear, weekday, next_day, unix_date / date_from_unix_date, unix_seconds / unix_millis / unix_micros (floored before 1970), from_utc_timestamp / to_utc_timestamp across DST, date_part with synonyms and EXTRACT(field FROM ts) incl. SECOND as DECIMAL(8,6) — with NULL rows.",
  input: {
    schema: "ts TIMESTAMP, d DATE, y INT, m INT, dd INT, dow STRING",
    batches: [
      [
        { ts: "2024-03-10T06:59:59.123456Z", d: "2024-02-29", y: 2024, m: 2, dd: 29, dow: "MO" },
        { ts: "1969-12-31T23:59:59.999500Z", d: "2021-01-01", y: 2021, m: 1, dd: 1, dow: "friday" },
        { ts: "2024-11-03T05:30:00Z", d: "1969-12-31", y: 1969, m: 12, dd: 31, dow: "Sun" },
        { ts: null, d: null, y: null, m: null, dd: null, dow: null },
      ],
    ],
  },
  sql: `SELECT make_date(y, m, dd) AS md, dayofyear(d) AS doy, weekday(d) AS wd, next_day(d, dow) AS nd,
    unix_date(d) AS ud, date_from_unix_date(unix_date(d) + 1) AS dfu,
    unix_seconds(ts) AS us, unix_millis(ts) AS um, unix_micros(ts) AS uu,
    from_utc_timestamp(ts, 'America/New_York') AS fny, to_utc_timestamp(ts, 'America/New_York') AS tny,
    date_part('YEAROFWEEK', d) AS yow, date_part('week', d) AS wk, date_part('dow_iso', ts) AS dwi,
    datepart('qtr', ts) AS q, extract(HOUR FROM ts) AS h, extract(second FROM ts) AS s, extract(doy FROM d) AS edoy
    FROM input`,
  notes: "Expected values come from PySpark itself (conformance/run.ts).",
});
