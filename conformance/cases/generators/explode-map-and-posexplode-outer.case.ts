import { defineCase } from "../../case.js";

export default defineCase({
  description:
    'explode of a MAP gives key / value (renamed with .alias("k", "v")); posexplode_outer of a MAP gives pos, key, value with NULLs for a NULL or empty map. Schema nullability follows Spark (key not null for explode, nullable for _outer).',
  input: {
    schema: "id INT, m MAP<STRING, INT>",
    batches: [
      [
        { id: 1, m: { a: 1, b: null } },
        { id: 2, m: {} },
      ],
      [{ id: 3, m: null }],
    ],
  },
  pyspark: `df.select("id", F.lit(None).cast("int").alias("pos"), F.explode("m").alias("k", "v")).union(df.select("id", F.posexplode_outer("m")))`,
  arus: ({ df, F }) =>
    df.select("id", F.lit(null).cast("int").alias("pos"), F.explode("m").alias("k", "v")).union(df.select("id", F.posexplode_outer("m"))),
});
