import { defineCase } from "../../case.js";

export default defineCase({
  description: "A stateless Spark SQL query over the input view, run through both engines.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
      ],
      [{ k: "c", v: 3 }],
      [],
    ],
  },
  sql: "SELECT k, v * 10 AS v10, upper(k) AS uk, v % 2 = 0 AS even FROM input WHERE v >= 2",
});
