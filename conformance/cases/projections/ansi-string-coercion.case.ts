import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Spark 4's ANSI coercion of STRING with other types: if / CASE / coalesce / nvl / array / map of an INT or DOUBLE or DATE column and a STRING take the other type (BIGINT, DOUBLE, DATE), coalesce casts a later argument only on rows still NULL, nullif compares as = and keeps the first argument's type — with NULL rows.",
  input: {
    schema: "n INT, x DOUBLE, d DATE, s STRING, t STRING, u STRING",
    batches: [
      [
        { n: 1, x: 1.5, d: "2024-02-29", s: "7", t: "not a number", u: "not a date" },
        { n: null, x: null, d: null, s: "8", t: "12", u: "2021-01-02" },
        { n: 3, x: null, d: "1999-12-31", s: null, t: null, u: null },
        { n: null, x: 2.25, d: null, s: null, t: "9", u: "2022-03-04" },
      ],
    ],
  },
  sql: `SELECT if(n > 1, n, s) AS if_int, CASE WHEN n IS NULL THEN s ELSE n END AS case_int,
    coalesce(n, s) AS co_int, nvl(x, s) AS nvl_double, coalesce(n, t) AS co_lazy,
    coalesce(d, u) AS co_date, array(n, s) AS arr, map('k', n, 'v', s) AS m,
    nullif(n, s) AS nif, nullif(s, n) AS nif_s, n IN (s, '3') AS in_s
    FROM input`,
  notes: "Expected values come from PySpark itself (conformance/run.ts). co_lazy / co_date: t and u are malformed only where n and d are set, so they are never cast.",
});
