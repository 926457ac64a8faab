import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Higher-order map functions and array_sort's comparator on a stream (append), through SQL expressions: map_filter (NULL values kept or tested), transform_values, transform_keys, map_zip_with (keys of the first map, then the second's new ones, NULL for the missing side), array_sort with a comparator putting NULLs last in descending order; a NULL map or array gives NULL.",
  input: {
    schema: "id INT, k INT, v STRING, a ARRAY<INT>",
    batches: [
      [
        { id: 1, k: 5, v: "p", a: [3, 1, null, 2] },
        { id: 2, k: 7, v: null, a: null },
      ],
      [{ id: 3, k: null, v: "r", a: [] }],
      [],
    ],
  },
  outputMode: "append",
  pyspark: `df.selectExpr("id", "CASE WHEN k IS NULL THEN NULL ELSE map(k, v, 100, 'z') END AS m", "a").selectExpr("id", "map_filter(m, (key, val) -> key > 50 OR val IS NULL) AS f", "transform_values(m, (key, val) -> concat(coalesce(val, '?'), key)) AS tv", "transform_keys(m, (key, val) -> key * 2) AS tk", "map_zip_with(m, map(100, 'w', 1, 'n'), (key, x, y) -> concat(coalesce(x, '-'), coalesce(y, '-'))) AS z", "array_sort(a, (l, r) -> CASE WHEN l IS NULL THEN 1 WHEN r IS NULL THEN -1 WHEN l < r THEN 1 WHEN l > r THEN -1 ELSE 0 END) AS s")`,
  arus: ({ df }) =>
    df
      .selectExpr("id", "CASE WHEN k IS NULL THEN NULL ELSE map(k, v, 100, 'z') END AS m", "a")
      .selectExpr(
        "id",
        "map_filter(m, (key, val) -> key > 50 OR val IS NULL) AS f",
        "transform_values(m, (key, val) -> concat(coalesce(val, '?'), key)) AS tv",
        "transform_keys(m, (key, val) -> key * 2) AS tk",
        "map_zip_with(m, map(100, 'w', 1, 'n'), (key, x, y) -> concat(coalesce(x, '-'), coalesce(y, '-'))) AS z",
        "array_sort(a, (l, r) -> CASE WHEN l IS NULL THEN 1 WHEN r IS NULL THEN -1 WHEN l < r THEN 1 WHEN l > r THEN -1 ELSE 0 END) AS s",
      ),
});
