import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "count_if, bool_and / every, bool_or / some, max_by / min_by (ties across batches: the later row wins), any_value and product on a stream, update mode: the state of each carried across batches; NULL values and NULL orderings skipped, a group with only NULLs gives NULL (count_if 0).",
  input: {
    schema: "k STRING, v INT, b BOOLEAN, name STRING",
    batches: [
      [
        { k: "a", v: 3, b: true, name: "x" },
        { k: "a", v: 1, b: null, name: "y" },
        { k: "b", v: null, b: null, name: "p" },
      ],
      [
        { k: "a", v: 3, b: true, name: "z" },
        { k: "b", v: 2, b: false, name: null },
        { k: "c", v: -4, b: false, name: "q" },
      ],
      [
        { k: "a", v: 1, b: false, name: "w" },
        { k: "c", v: 5, b: true, name: "r" },
      ],
    ],
  },
  outputMode: "update",
  pyspark: `df.groupBy("k").agg(F.count_if(F.col("v") > 1).alias("cif"), F.bool_and("b").alias("band"),
    F.every("b").alias("ev"), F.bool_or("b").alias("bor"), F.some("b").alias("sm"),
    F.max_by("name", "v").alias("mxb"), F.min_by("name", "v").alias("mnb"),
    F.any_value("name").alias("anyv"), F.product("v").alias("prod"))`,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .agg(
        F.count_if(F.col("v").gt(1)).alias("cif"),
        F.bool_and("b").alias("band"),
        F.every("b").alias("ev"),
        F.bool_or("b").alias("bor"),
        F.some("b").alias("sm"),
        F.max_by("name", "v").alias("mxb"),
        F.min_by("name", "v").alias("mnb"),
        F.any_value("name").alias("anyv"),
        F.product("v").alias("prod"),
      ),
  notes: "Expected values come from PySpark itself (conformance/run.ts).",
});
