import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Ordered-set aggregates in a streaming aggregation (update mode, two batches, a restart between them, so the state merges after a reload): percentile_cont and percentile_disc WITHIN GROUP (ORDER BY v [DESC]), mode() WITHIN GROUP (ties to the smallest, or the largest with DESC) and listagg WITHIN GROUP (ORDER BY v DESC, tag) with a NULL key last; Spark's column names, mode's printed direction reversed as Spark prints it.",
  input: {
    schema: "k STRING, v INT, tag STRING",
    batches: [
      [
        { k: "a", v: 1, tag: "x" },
        { k: "a", v: 5, tag: "y" },
        { k: "a", v: 5, tag: "z" },
        { k: "b", v: null, tag: "n" },
        { k: "b", v: 7, tag: "y" },
      ],
      [
        { k: "a", v: 9, tag: "x" },
        { k: "a", v: 1, tag: "w" },
        { k: "b", v: 2, tag: null },
        { k: "c", v: 0, tag: "z" },
      ],
    ],
  },
  outputMode: "update",
  restartAt: [1],
  sql: `SELECT k, percentile_cont(0.25) WITHIN GROUP (ORDER BY v), percentile_cont(0.4) WITHIN GROUP (ORDER BY v DESC) AS pcd,
      percentile_disc(0.5) WITHIN GROUP (ORDER BY v), percentile_disc(array(0.0, 0.7)) WITHIN GROUP (ORDER BY v DESC) AS pdd,
      mode() WITHIN GROUP (ORDER BY v), mode() WITHIN GROUP (ORDER BY v DESC) AS m,
      listagg(tag, ',') WITHIN GROUP (ORDER BY v DESC, tag)
    FROM input GROUP BY k`,
});
