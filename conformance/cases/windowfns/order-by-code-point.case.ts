import { defineCase } from "../../case.js";

// By code point: a < U+E000 < U+FF61 < U+FFFD < 😀 (U+1F600) < 😀a; JS's UTF-16 order puts 😀 first of the four.
export default defineCase({
  description:
    "ORDER BY (row_number), < against a literal, greatest and least on strings with characters beyond U+FFFF, inside foreachBatch: Spark's UTF8_BINARY order is code-point order.",
  input: {
    schema: "w STRING",
    batches: [[{ w: "😀" }, { w: "\ufffd" }, { w: "a" }, { w: "\uff61" }, { w: "😀a" }, { w: "\ue000" }]],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: "SELECT w, row_number() OVER (ORDER BY w) AS r, w < '😀' AS below, greatest(w, '\uff61') AS g, least(w, '\uff61') AS l FROM batch",
  },
});
