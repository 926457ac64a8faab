import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Map, JSON and string functions in their DataFrame forms on a stream (append): map_from_arrays, map_concat, map_contains_key, map_entries, str_to_map, json_array_length, json_object_keys, array_insert, elt, find_in_set, quote, dayname, width_bucket — Spark's column names and values.",
  input: {
    schema: "id INT, j STRING, s STRING, d DATE, x DOUBLE",
    batches: [
      [
        { id: 1, j: '[1,2,{"a":3}]', s: "a:1,b:2", d: "2024-03-05", x: 5.3 },
        { id: 2, j: '{"k":1,"l":[2]}', s: "z:9", d: "2024-12-25", x: -1.0 },
        { id: 3, j: null, s: null, d: null, x: null },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.select("id",
  F.map_concat(F.map_from_arrays(F.array(F.col("id").cast("string")), F.array("s")), F.str_to_map(F.coalesce("s", F.lit("q:0")))),
  F.map_contains_key(F.str_to_map(F.coalesce("s", F.lit("q:0"))), "a"),
  F.map_entries(F.str_to_map(F.coalesce("s", F.lit("q:0")))),
  F.json_array_length("j"), F.json_object_keys("j"),
  F.array_insert(F.array("id", F.lit(0)), -1, F.col("id") * 10),
  F.elt(F.col("id"), F.lit("one"), F.lit("two"), F.lit("three")),
  F.find_in_set(F.lit("b:2"), "s"), F.quote("s"), F.dayname("d"), F.monthname("d"),
  F.width_bucket("x", F.lit(0.5), F.lit(10.5), F.lit(4)))`,
  arus: ({ df, F }) =>
    df.select(
      "id",
      F.map_concat(F.map_from_arrays(F.array(F.col("id").cast("string")), F.array("s")), F.str_to_map(F.coalesce("s", F.lit("q:0")))),
      F.map_contains_key(F.str_to_map(F.coalesce("s", F.lit("q:0"))), "a"),
      F.map_entries(F.str_to_map(F.coalesce("s", F.lit("q:0")))),
      F.json_array_length("j"),
      F.json_object_keys("j"),
      F.array_insert(F.array("id", F.lit(0)), -1, F.col("id").multiply(10)),
      F.elt(F.col("id"), F.lit("one"), F.lit("two"), F.lit("three")),
      F.find_in_set(F.lit("b:2"), "s"),
      F.quote("s"),
      F.dayname("d"),
      F.monthname("d"),
      F.width_bucket("x", F.lit(0.5), F.lit(10.5), F.lit(4)),
    ),
});
