import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "A HAVING condition with a scalar subquery correlated through the grouping column (a static inline table's max per key), on a streaming aggregation in complete mode: a key the table lacks compares with NULL and never shows.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 5 },
        { k: "b", v: 4 },
        { k: "c", v: 1 },
      ],
      [
        { k: "b", v: 4 },
        { k: "c", v: 9 },
      ],
    ],
  },
  outputMode: "complete",
  sql: "SELECT k, sum(v) AS s FROM input GROUP BY k HAVING sum(v) > (SELECT max(w) FROM VALUES ('a', 3), ('b', 6) AS u(k, w) WHERE u.k = input.k)",
});
