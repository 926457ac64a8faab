import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "json_tuple (SQL, in the select list and as a LATERAL VIEW): one row per input row, fields c0, c1, ... as text (strings unquoted, numbers as Jackson rewrites them, nested values compact), NULL for JSON null, a missing field, invalid JSON, a non-object or a NULL input; of duplicate keys the last wins.",
  input: {
    schema: "id INT, js STRING",
    batches: [
      [
        { id: 1, js: '{"a": 1.50, "b": "x"}' },
        { id: 2, js: '{"a": [1, 2.0], "b": null, "c": {"d": true}}' },
        { id: 3, js: null },
      ],
      [
        { id: 4, js: "not json" },
        { id: 5, js: "[1, 2]" },
        { id: 6, js: '{"a": 1, "a": 2, "b": 1e2} trailing' },
      ],
    ],
  },
  sql: `SELECT id, json_tuple(js, 'a', 'b') AS (a, b), j.c0 AS c, j.c1 AS missing
    FROM input LATERAL VIEW json_tuple(js, 'c', 'zzz') j`,
});
