import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "LIKE '%yz' (EndsWith), '%b%' (Contains) and 'a%z' (length >= 2 AND StartsWith AND EndsWith; the length test stays in the Filter) as separate conjuncts, each pushed into the JSON scan: numInputRows counts the rows that pass them.",
  input: {
    schema: "k STRING, j STRING",
    batches: [
      [
        { k: "abz", j: "xyz" },
        { k: "abz", j: "xy" },
        { k: "az", j: "yz" },
        { k: "cbz", j: "yyz" },
        { k: "abc", j: "yz" },
        { k: null, j: "yz" },
      ],
    ],
  },
  sql: "SELECT k, j FROM input WHERE j LIKE '%yz' AND k LIKE '%b%' AND k LIKE 'a%z'",
});
