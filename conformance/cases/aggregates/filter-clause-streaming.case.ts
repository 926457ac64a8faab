import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Aggregate FILTER (WHERE ...) in a streaming aggregation (update mode, two batches so the state merges): count(*), sum, avg, max_by, collect_list and first(...) IGNORE NULLS each see only the rows their condition keeps; Spark's column names (`count(1) FILTER (WHERE (v > 1))`).",
  input: {
    schema: "k STRING, v INT, tag STRING",
    batches: [
      [
        { k: "a", v: 1, tag: "x" },
        { k: "a", v: 5, tag: "y" },
        { k: "b", v: null, tag: "x" },
        { k: "b", v: 7, tag: "y" },
      ],
      [
        { k: "a", v: 9, tag: "x" },
        { k: "b", v: 2, tag: null },
        { k: "c", v: 0, tag: "z" },
      ],
    ],
  },
  outputMode: "update",
  sql: `SELECT k, count(*) FILTER (WHERE v > 1), sum(v) FILTER (WHERE tag = 'x') AS sx, avg(v) FILTER (WHERE tag IS NOT NULL),
      max_by(tag, v) FILTER (WHERE v < 9), collect_list(v) FILTER (WHERE v % 2 = 1) AS odd, first(tag) FILTER (WHERE v > 4) IGNORE NULLS AS firstBig
    FROM input GROUP BY k`,
});
