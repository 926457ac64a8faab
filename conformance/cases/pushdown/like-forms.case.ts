import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "LIKE patterns Spark's LikeSimplification rewrites ('ab%' StartsWith, '%yz' EndsWith, '%m%' Contains, 'exact' EqualTo) are pushed into the JSON scan; a pattern with '_' is not (numInputRows shows which rows the scan kept).",
  input: {
    schema: "k STRING, j STRING, v INT",
    batches: [
      [
        { k: "abc", j: "xyz", v: 1 },
        { k: "abd", j: "xy", v: 2 },
        { k: "zab", j: "yz", v: 3 },
        { k: null, j: "yz", v: 4 },
      ],
      [
        { k: "ab", j: "mmm", v: 5 },
        { k: "ba", j: "amb", v: 6 },
      ],
    ],
  },
  sql: "SELECT k, j, v FROM input WHERE (k LIKE 'ab%' AND j LIKE '%yz') OR j LIKE '%m%' OR k LIKE 'ba' OR k LIKE 'z_b'",
});
