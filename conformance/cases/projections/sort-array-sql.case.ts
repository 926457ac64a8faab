import { defineCase } from "../../case.js";

export default defineCase({
  description: "sort_array in SQL, with and without the ascending flag, over doubles (NaN sorts above every number) and collect_list.",
  input: {
    schema: "k STRING, d ARRAY<DOUBLE>",
    batches: [
      [
        { k: "x", d: [2.5, -1, null, 0] },
        { k: "y", d: [1, -0.5] },
      ],
    ],
  },
  sql: "SELECT k, sort_array(d) AS up, sort_array(d, false) AS down, sort_array(array(k, 'm', 'a')) AS ks FROM input",
});
