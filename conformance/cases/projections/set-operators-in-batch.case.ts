import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "SQL set operators on each micro-batch's DataFrame (foreachBatch, batch execution): INTERSECT, EXCEPT, MINUS, INTERSECT ALL, EXCEPT ALL against an inline table, with duplicates and NULLs (NULLs equal each other), and INTERSECT binding tighter than UNION ALL.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 1 },
        { k: "b", v: 2 },
        { k: null, v: null },
        { k: "c", v: 3 },
      ],
      [
        { k: "a", v: 1 },
        { k: "d", v: 4 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT 'intersect' AS op, * FROM (SELECT k, v FROM batch INTERSECT SELECT * FROM VALUES ('a', 1), (NULL, NULL), ('d', 5) AS x(k, v))
      UNION ALL SELECT 'except', * FROM (SELECT k, v FROM batch EXCEPT SELECT * FROM VALUES ('a', 1) AS x(k, v))
      UNION ALL SELECT 'minus', * FROM (SELECT k, v FROM batch MINUS SELECT * FROM VALUES (NULL, NULL) AS x(k, v))
      UNION ALL SELECT 'intersect all', * FROM (SELECT k, v FROM batch INTERSECT ALL SELECT * FROM VALUES ('a', 1), ('a', 1), ('a', 1), ('b', 2) AS x(k, v))
      UNION ALL SELECT 'except all', * FROM (SELECT k, v FROM batch EXCEPT ALL SELECT * FROM VALUES ('a', 1), ('c', 3) AS x(k, v))
      UNION ALL SELECT 'precedence', * FROM (SELECT k, v FROM batch UNION ALL SELECT k, v FROM batch INTERSECT SELECT 'b', 2)`,
  },
  compare: { ignoreProgress: ["numInputRows"] },
  notes: "Set operators read the batch more than once: Spark counts numInputRows per scan.",
});
