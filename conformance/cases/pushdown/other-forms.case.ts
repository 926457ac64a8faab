import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Other predicate forms of Spark's DataSourceStrategy.translateFilter, pushed into the JSON scan: a boolean column, IN, NOT IN, literal-on-the-left comparisons, <=>, BETWEEN, IS NULL inside OR; a non-pushable conjunct (v % 2 = 0) stays in the Filter (numInputRows counts rows the pushed part kept).",
  input: {
    schema: "k STRING, v INT, b BOOLEAN",
    batches: [
      [
        { k: "a", v: 1, b: true },
        { k: "b", v: 2, b: true },
        { k: "c", v: 3, b: false },
        { k: "d", v: 4, b: null },
        { k: null, v: 5, b: true },
      ],
      [
        { k: "e", v: 6, b: true },
        { k: "f", v: 7, b: true },
        { k: "a", v: 8, b: true },
      ],
    ],
  },
  sql: "SELECT k, v, b FROM input WHERE b AND k NOT IN ('f') AND 8 >= v AND v BETWEEN 1 AND 8 AND (k IN ('a', 'b', 'e') OR k IS NULL) AND NOT (v <=> 6) AND v % 2 = 0",
});
