import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "if, signum, add_months / months_between / last_day / weekofyear / trunc / date_trunc over month ends and a leap year, array_join / array_distinct / array_max / array_min, map with map_keys / map_values, size(NULL), get_json_object, to_date and try_to_date — with NULL rows.",
  input: {
    schema: "d STRING, ts TIMESTAMP, a ARRAY<STRING>, j STRING, n INT",
    batches: [
      [
        { d: "2024-01-31", ts: "2024-05-17T10:11:12.345678Z", a: ["b", null, "a", "b"], j: '{"k":{"v":[1,2,{"s":"x"}]}}', n: -3 },
        { d: "2023-02-28", ts: "2021-01-03T23:59:59Z", a: [], j: '{"k":[{"s":"p"},{"s":"q"}]}', n: 0 },
        { d: "2024-03-30", ts: "1969-12-31T10:11:12Z", a: ["z"], j: "not json", n: 7 },
        { d: null, ts: null, a: null, j: null, n: null },
      ],
    ],
  },
  sql: `SELECT d, if(n > 0, 'pos', 'other') AS sign_word, signum(n) AS sg,
    add_months(d, 1) AS plus1, add_months(d, -12) AS minus12, months_between(d, '2024-02-29') AS mb,
    months_between(ts, d, false) AS mb_raw, last_day(d) AS ld, weekofyear(ts) AS wk,
    trunc(d, 'QUARTER') AS tq, trunc(d, 'WEEK') AS tw, trunc(d, 'DAY') AS tday,
    date_trunc('MONTH', ts) AS dtm, date_trunc('HOUR', ts) AS dth, date_trunc('MILLISECOND', ts) AS dtms,
    array_join(a, ',') AS joined, array_join(a, ',', '?') AS joined_r, array_distinct(a) AS dist,
    array_max(a) AS amax, array_min(a) AS amin, size(a) AS sz,
    map_keys(map(coalesce(d, 'none'), n, 'fixed', 1)) AS mk, map_values(map(coalesce(d, 'none'), n, 'fixed', 1)) AS mv,
    get_json_object(j, '$.k') AS jk, get_json_object(j, '$.k.v[2].s') AS js,
    get_json_object(j, '$.k[*].s') AS jw, to_date(d) AS td, try_to_date(j) AS ttd
    FROM input`,
  notes: "Expected values come from PySpark itself (conformance/run.ts).",
});
