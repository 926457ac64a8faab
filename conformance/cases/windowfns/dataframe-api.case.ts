import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "The DataFrame API: Window.partitionBy/orderBy/rowsBetween/rangeBetween with Window.unboundedPreceding/unboundedFollowing/currentRow and col.over(w), unaliased names included (API frame bounds print as `-1 FOLLOWING`).",
  input: {
    schema: "k STRING, i INT, x INT",
    batches: [
      [
        { k: "a", i: 1, x: 4 },
        { k: "a", i: 2, x: null },
        { k: "a", i: 4, x: 6 },
        { k: "a", i: 5, x: 1 },
        { k: "b", i: 1, x: 2 },
      ],
      [
        { k: "c", i: 7, x: 70 },
        { k: "c", i: 8, x: 80 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    pyspark: `df.select("k", "i",
      F.row_number().over(Window.partitionBy("k").orderBy(F.col("i").desc())),
      F.sum("x").over(Window.partitionBy("k").orderBy("i").rowsBetween(-1, Window.currentRow)),
      F.sum("x").over(Window.partitionBy("k").orderBy("i").rangeBetween(-2, 1)),
      F.max("x").over(Window.partitionBy("k").orderBy("i").rowsBetween(Window.currentRow, Window.unboundedFollowing)),
      F.count("x").over(Window.partitionBy("k")).alias("n"),
      F.lag("x", 1, 0).over(Window.partitionBy("k").orderBy("i")).alias("prev"),
      F.lead("x").over(Window.partitionBy("k").orderBy("i")).alias("next"),
      F.nth_value("x", 2).over(Window.partitionBy("k").orderBy("i")).alias("second"),
      F.ntile(2).over(Window.partitionBy("k").orderBy("i")).alias("half"),
      F.first("x", True).over(Window.partitionBy("k").orderBy("i").rowsBetween(Window.unboundedPreceding, Window.unboundedFollowing)).alias("first_nn"))`,
    arus: ({ df, F, Window }) =>
      df.select(
        "k",
        "i",
        F.row_number().over(Window.partitionBy("k").orderBy(F.col("i").desc())),
        F.sum("x").over(Window.partitionBy("k").orderBy("i").rowsBetween(-1, Window.currentRow)),
        F.sum("x").over(Window.partitionBy("k").orderBy("i").rangeBetween(-2, 1)),
        F.max("x").over(Window.partitionBy("k").orderBy("i").rowsBetween(Window.currentRow, Window.unboundedFollowing)),
        F.count("x").over(Window.partitionBy("k")).alias("n"),
        F.lag("x", 1, 0).over(Window.partitionBy("k").orderBy("i")).alias("prev"),
        F.lead("x").over(Window.partitionBy("k").orderBy("i")).alias("next"),
        F.nth_value("x", 2).over(Window.partitionBy("k").orderBy("i")).alias("second"),
        F.ntile(2).over(Window.partitionBy("k").orderBy("i")).alias("half"),
        F.first("x", true)
          .over(Window.partitionBy("k").orderBy("i").rowsBetween(Window.unboundedPreceding, Window.unboundedFollowing))
          .alias("first_nn"),
      ),
  },
});
