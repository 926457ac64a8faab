import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Higher-order functions on a stream (append): transform with the element and with its index, filter, exists and forall in three-valued logic (a NULL test makes a NULL answer unless one element decides), aggregate with and without a finish, zip_with padding the shorter array with NULLs, a lambda reading an outer column, and a lambda inside a lambda; NULL arrays give NULL, empty arrays their empty answers; Spark's generated names (lambdafunction, namedlambdavariable).",
  input: {
    schema: "id INT, a ARRAY<INT>, b ARRAY<INT>, s STRING",
    batches: [
      [
        { id: 1, a: [1, 2, null], b: [10, 20], s: "p" },
        { id: 2, a: null, b: [1], s: "q" },
        { id: 3, a: [], b: [], s: "r" },
      ],
      [
        { id: 4, a: [5, -1], b: [7, 8, 9], s: null },
        { id: 5, a: [3], b: null, s: "t" },
      ],
      [],
    ],
  },
  outputMode: "append",
  pyspark: `df.select("id", F.transform("a", lambda x: x + 1), F.transform("a", lambda x, i: x * i).alias("ti"), F.filter("a", lambda x: x > 1), F.exists("a", lambda x: x > 1), F.forall("a", lambda x: x > 0), F.exists("a", lambda x: x.isNull()).alias("has_null"), F.aggregate("a", F.lit(0), lambda acc, x: acc + F.coalesce(x, F.lit(0))), F.aggregate("a", F.lit(0).cast("bigint"), lambda acc, x: acc + x, lambda acc: acc * 10).alias("agg_finish"), F.zip_with("a", "b", lambda x, y: F.coalesce(x, F.lit(0)) + F.coalesce(y, F.lit(0))).alias("zipped"), F.transform("a", lambda x: F.concat(F.col("s"), x.cast("string"))).alias("outer"), F.transform("b", lambda x: F.transform("a", lambda y: x + y)).alias("nested"))`,
  arus: ({ df, F }) =>
    df.select(
      "id",
      F.transform("a", (x) => x.plus(1)),
      F.transform("a", (x, i) => x.multiply(i)).alias("ti"),
      F.filter("a", (x) => x.gt(1)),
      F.exists("a", (x) => x.gt(1)),
      F.forall("a", (x) => x.gt(0)),
      F.exists("a", (x) => x.isNull()).alias("has_null"),
      F.aggregate("a", F.lit(0), (acc, x) => acc.plus(F.coalesce(x, F.lit(0)))),
      F.aggregate(
        "a",
        F.lit(0).cast("bigint"),
        (acc, x) => acc.plus(x),
        (acc) => acc.multiply(10),
      ).alias("agg_finish"),
      F.zip_with("a", "b", (x, y) => F.coalesce(x, F.lit(0)).plus(F.coalesce(y, F.lit(0)))).alias("zipped"),
      F.transform("a", (x) => F.concat(F.col("s"), x.cast("string"))).alias("outer"),
      F.transform("b", (x) => F.transform("a", (y) => x.plus(y))).alias("nested"),
    ),
});
