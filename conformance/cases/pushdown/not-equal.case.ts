import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "`k <> 'a'` (SQL) is pushed into the JSON scan as Not(EqualTo) with the inferred IsNotNull(k): rows it removes, NULL keys included, are not counted in numInputRows.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
        { k: null, v: 3 },
      ],
      [
        { k: "a", v: 4 },
        { k: "c", v: 5 },
      ],
    ],
  },
  sql: "SELECT k, v FROM input WHERE k <> 'a'",
});
