import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "A HAVING condition with uncorrelated scalar subqueries over a static inline table, on a streaming aggregation in complete mode: a group shows once its sum passes the subquery's max, its count the other subquery's constant.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 5 },
        { k: "a", v: 4 },
        { k: "b", v: 1 },
      ],
      [
        { k: "b", v: 9 },
        { k: "c", v: 7 },
      ],
    ],
  },
  outputMode: "complete",
  sql: "SELECT k, sum(v) AS s FROM input GROUP BY k HAVING sum(v) > (SELECT max(w) FROM VALUES (3), (6) AS u(w)) AND count(*) >= (SELECT 2)",
});
