import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "A stream joined with an inline table (`VALUES ... AS t(k, label)`) and a subquery with column aliases (`(SELECT ...) AS u(k2, weight)`): stream-static joins over SQL-defined static tables, in append mode.",
  input: {
    schema: "n INT, name STRING",
    batches: [
      [
        { n: 1, name: "a" },
        { n: 2, name: "b" },
        { n: 4, name: "c" },
      ],
      [
        { n: 3, name: "d" },
        { n: 1, name: "e" },
      ],
    ],
  },
  outputMode: "append",
  sql: `SELECT i.name, t.label, u.weight
    FROM input i
    JOIN VALUES (1, 'one'), (2, 'two'), (3, 'three') AS t(k, label) ON i.n = t.k
    LEFT JOIN (SELECT 1 AS a, 0.5 AS b UNION ALL SELECT 3, 1.5) AS u(k2, weight) ON i.n = u.k2`,
  notes: "Expected values come from PySpark itself (conformance/run.ts).",
});
