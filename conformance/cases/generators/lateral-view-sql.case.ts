import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "SQL generators: LATERAL VIEW OUTER explode(...) with a qualified column, a second LATERAL VIEW over a MAP (AS k, v), and posexplode(...) AS (p, v) in the select list.",
  input: {
    schema: "id INT, arr ARRAY<INT>, m MAP<STRING, INT>",
    batches: [
      [
        { id: 1, arr: [1, 2], m: { a: 1 } },
        { id: 2, arr: [], m: { b: 2, c: 3 } },
      ],
      [{ id: 3, arr: null, m: null }],
    ],
  },
  sql: `SELECT id, x.c, k, v, posexplode(array(id, id * 10)) AS (p, pv)
    FROM input LATERAL VIEW OUTER explode(arr) x AS c LATERAL VIEW OUTER explode(m) y AS k, v`,
});
