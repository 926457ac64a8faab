/**
 * The DataFrame API's USING join keeps each side's key as Spark's hidden output: `a.join(b, "k")`
 * shows one `k`, and `b.col("k")` above it is b's own key (NULL where a left, right or full join's
 * row has no b), also after filters, sorts, projections and further joins, not after an
 * aggregation, a union or an alias (MISSING_ATTRIBUTES, as for any column of another DataFrame);
 * `df.col("*")` is the DataFrame's columns. And a DataFrame's column picked above a self-join
 * (`df.join(df.groupBy("k").count(), ...).select(df.col("k"))`) is refused as ambiguous
 * (_LEGACY_ERROR_TEMP_1182) where the join's right copy of it reaches the operator, as Spark's
 * DetectAmbiguousSelfJoin. A filter or a sort also reaches a column a projection beneath
 * dropped (`a.select("v").orderBy(a.col("k"))`, Spark's ResolveMissingReferences). Before,
 * `b.col("k")` failed with an internal error and the self-join's column read the left side's.
 * Every expected answer is PySpark 4.3.0's on the same data.
 */
import { describe, it } from "node:test";
import { type DataFrame, functions as F } from "../../src/index.js";
import { assertAsPySpark, type Expected, session } from "./pyspark-tables.js";

const a = session.createDataFrame(
  [
    [1, "a1"],
    [2, "a2"],
    [null, "an"],
  ],
  "k INT, v STRING",
);
const b = session.createDataFrame(
  [
    [1, "b1"],
    [3, "b3"],
    [null, "bn"],
  ],
  "k INT, w STRING",
);
const c = session.createDataFrame(
  [
    [1, "c1"],
    [3, "c3"],
  ],
  "k INT, x STRING",
);
const df = session.createDataFrame(
  [
    [1, 10],
    [1, 20],
    [2, 5],
    [null, 7],
  ],
  "k INT, v INT",
);
const agg = df.groupBy("k").count();
const selfJoin = () => df.join(agg, df.col("k").equalTo(agg.col("k")));
const full = () => a.join(b, "k", "full");

const CASES: Record<string, () => DataFrame> = {};
for (const how of ["inner", "left", "right", "full"]) {
  CASES[`${how}: a.k, b.k, k`] = () => a.join(b, "k", how).select(a.col("k"), b.col("k"), F.col("k"));
  CASES[`${how}: *`] = () => a.join(b, ["k"], how).select("*");
  CASES[`${how}: b[*]`] = () => a.join(b, "k", how).select(b.col("*"));
  CASES[`${how}: a[*]`] = () => a.join(b, "k", how).select(a.col("*"));
  CASES[`${how}: groupBy b.k`] = () => a.join(b, "k", how).groupBy(b.col("k")).count();
  CASES[`${how}: filter a.k, select a.k, k`] = () => a.join(b, "k", how).filter(a.col("k").isNotNull()).select(a.col("k"), F.col("k"));
}
for (const how of ["semi", "anti"]) {
  CASES[`${how}: b.k`] = () => a.join(b, "k", how).select(b.col("k"));
  CASES[`${how}: a.k, k`] = () => a.join(b, "k", how).select(a.col("k"), F.col("k"));
  CASES[`${how}: filter b.k`] = () => a.join(b, "k", how).filter(b.col("k").isNotNull());
}
Object.assign(CASES, {
  "full: filter b.k": () => full().filter(b.col("k").isNotNull()),
  "full: withColumn b.k": () => full().withColumn("bk", b.col("k")),
  "full: filter k, select b.k, a.k": () => full().filter(F.col("k").gt(0)).select(b.col("k"), a.col("k")),
  "full: select v, then b.k": () => full().select("v").select(F.col("v"), b.col("k")),
  "full: select b.k, then a.k": () => full().select(b.col("k")).select(a.col("k")),
  "full: orderBy, limit, dropDuplicates, then b.k": () => full().orderBy("v").limit(10).dropDuplicates().select(b.col("k")),
  "full: withColumnRenamed, drop, then b.k": () => full().withColumnRenamed("v", "vv").drop("k").select(b.col("k"), F.col("vv")),
  "full: b.k in expressions": () => full().select(b.col("k").plus(1).alias("x"), F.coalesce(a.col("k"), b.col("k")), b.col("k").plus(1)),
  "full: select b.k, *": () => full().select(b.col("k"), F.col("*")),
  "full: alias, then b.k": () => full().alias("x").select(b.col("k")),
  "full: groupBy k, then b.k": () => full().groupBy("k").count().select(b.col("k")),
  "full: agg, then b.k": () => full().agg(F.count("*")).select(b.col("k")),
  "full: union, then b.k": () => full().union(full()).select(b.col("k")),
  "full: join c using k": () => full().join(c, "k").select(b.col("k"), a.col("k"), c.col("k"), F.col("k")),
  "full: join c on b.k": () =>
    full()
      .join(c, b.col("k").equalTo(c.col("k")))
      .select(b.col("k"), F.col("x")),
  "full: drop b.k": () => full().drop(b.col("k")),
  "inner: drop a.k": () => a.join(b, "k").drop(a.col("k")),
  "a.select(b.k)": () => a.select(b.col("k")),
  "a.select(c.x)": () => a.select(c.col("x")),
  "a.select(a[*])": () => a.select(a.col("*")),
  // Spark's ResolveMissingReferences: a filter or a sort reaches a column a projection beneath dropped
  "a.select(v), orderBy a.k": () => a.select("v").withColumn("z", F.lit(1)).orderBy(a.col("k").desc()),
  "a.select(v), filter a.k": () => a.select("v").filter(a.col("k").gt(1)),
  "a.select(v), groupBy a.k": () => a.select("v").groupBy(a.col("k")).count(),
  "self: all": selfJoin,
  "self: df.k": () => selfJoin().select(df.col("k")),
  "self: agg.k": () => selfJoin().select(agg.col("k")),
  "self: df.v, agg.count": () => selfJoin().select(df.col("v"), agg.col("count")),
  "self: filter df.k": () => selfJoin().filter(df.col("k").gt(1)),
  "self: filter df.v": () => selfJoin().filter(df.col("v").gt(5)),
  "self: groupBy df.k": () => selfJoin().groupBy(df.col("k")).count(),
  "self: groupBy df.v": () => selfJoin().groupBy(df.col("v")).count(),
  "self: orderBy df.k": () => selfJoin().orderBy(df.col("k")),
  "self: agg max df.k": () => selfJoin().agg(F.max(df.col("k"))),
  "self: withColumn df.k": () => selfJoin().withColumn("z", df.col("k").plus(1)),
  "self: withColumn agg.count": () => selfJoin().withColumn("c2", agg.col("count").multiply(2)).select("c2"),
  "self: drop df.k": () => selfJoin().drop(df.col("k")),
  "self: select v, count, then df.k": () => selfJoin().select("v", "count").select(df.col("k")),
  "self: filtered df": () => {
    const f = df.filter(df.col("v").gt(5));
    return df.join(f, df.col("k").equalTo(f.col("k"))).select(df.col("v"));
  },
  "self: joined again, df.v": () => selfJoin().join(session.range(1), F.lit(true)).select(df.col("v")),
  "self: joined again, df.k": () => selfJoin().join(session.range(1), F.lit(true)).select(df.col("k")),
  "self: left join, agg.k": () => df.join(agg, df.col("k").equalTo(agg.col("k")), "left").select(agg.col("k")),
  "self: semi join, df.k": () => df.join(agg, df.col("k").equalTo(agg.col("k")), "semi").select(df.col("k")),
  "self: select(v) joined with df, df.k": () => df.select("v").join(df, F.lit(true)).select(df.col("k")),
  "self: aliased, df.k": () =>
    df
      .alias("x")
      .join(df.alias("y"), F.col("x.k").equalTo(F.col("y.k")))
      .select(df.col("k")),
  "self: aliased, x.k": () =>
    df
      .alias("x")
      .join(df.alias("y"), F.col("x.k").equalTo(F.col("y.k")))
      .select("x.k"),
  "self: using inner, df.k, agg.k": () => df.join(agg, "k").select(df.col("k"), agg.col("k"), agg.col("count")),
  "self: using right, df.k": () => df.join(agg, "k", "right").select(df.col("k")),
  "self: using full, df.k, agg.k, k": () => df.join(agg, "k", "full").select(df.col("k"), agg.col("k"), F.col("k")),
});

const PYSPARK: Record<string, Expected> = {
  "inner: a.k, b.k, k": {
    cols: ["k", "k", "k"],
    types: ["int", "int", "int"],
    rows: [[1, 1, 1]],
  },
  "inner: *": {
    cols: ["k", "v", "w"],
    types: ["int", "string", "string"],
    rows: [[1, "a1", "b1"]],
  },
  "inner: b[*]": {
    cols: ["k", "w"],
    types: ["int", "string"],
    rows: [[1, "b1"]],
  },
  "inner: a[*]": {
    cols: ["k", "v"],
    types: ["int", "string"],
    rows: [[1, "a1"]],
  },
  "inner: groupBy b.k": {
    cols: ["k", "count"],
    types: ["int", "bigint"],
    rows: [[1, 1]],
  },
  "inner: filter a.k, select a.k, k": {
    cols: ["k", "k"],
    types: ["int", "int"],
    rows: [[1, 1]],
  },
  "left: a.k, b.k, k": {
    cols: ["k", "k", "k"],
    types: ["int", "int", "int"],
    rows: [
      [null, null, null],
      [1, 1, 1],
      [2, null, 2],
    ],
  },
  "left: *": {
    cols: ["k", "v", "w"],
    types: ["int", "string", "string"],
    rows: [
      [null, "an", null],
      [1, "a1", "b1"],
      [2, "a2", null],
    ],
  },
  "left: b[*]": {
    cols: ["k", "w"],
    types: ["int", "string"],
    rows: [
      [null, null],
      [1, "b1"],
      [null, null],
    ],
  },
  "left: a[*]": {
    cols: ["k", "v"],
    types: ["int", "string"],
    rows: [
      [null, "an"],
      [1, "a1"],
      [2, "a2"],
    ],
  },
  "left: groupBy b.k": {
    cols: ["k", "count"],
    types: ["int", "bigint"],
    rows: [
      [null, 2],
      [1, 1],
    ],
  },
  "left: filter a.k, select a.k, k": {
    cols: ["k", "k"],
    types: ["int", "int"],
    rows: [
      [1, 1],
      [2, 2],
    ],
  },
  "right: a.k, b.k, k": {
    cols: ["k", "k", "k"],
    types: ["int", "int", "int"],
    rows: [
      [null, null, null],
      [1, 1, 1],
      [null, 3, 3],
    ],
  },
  "right: *": {
    cols: ["k", "v", "w"],
    types: ["int", "string", "string"],
    rows: [
      [null, null, "bn"],
      [1, "a1", "b1"],
      [3, null, "b3"],
    ],
  },
  "right: b[*]": {
    cols: ["k", "w"],
    types: ["int", "string"],
    rows: [
      [null, "bn"],
      [1, "b1"],
      [3, "b3"],
    ],
  },
  "right: a[*]": {
    cols: ["k", "v"],
    types: ["int", "string"],
    rows: [
      [null, null],
      [1, "a1"],
      [null, null],
    ],
  },
  "right: groupBy b.k": {
    cols: ["k", "count"],
    types: ["int", "bigint"],
    rows: [
      [null, 1],
      [1, 1],
      [3, 1],
    ],
  },
  "right: filter a.k, select a.k, k": {
    cols: ["k", "k"],
    types: ["int", "int"],
    rows: [[1, 1]],
  },
  "full: a.k, b.k, k": {
    cols: ["k", "k", "k"],
    types: ["int", "int", "int"],
    rows: [
      [null, null, null],
      [null, null, null],
      [1, 1, 1],
      [2, null, 2],
      [null, 3, 3],
    ],
  },
  "full: *": {
    cols: ["k", "v", "w"],
    types: ["int", "string", "string"],
    rows: [
      [null, "an", null],
      [null, null, "bn"],
      [1, "a1", "b1"],
      [2, "a2", null],
      [3, null, "b3"],
    ],
  },
  "full: b[*]": {
    cols: ["k", "w"],
    types: ["int", "string"],
    rows: [
      [null, null],
      [null, "bn"],
      [1, "b1"],
      [null, null],
      [3, "b3"],
    ],
  },
  "full: a[*]": {
    cols: ["k", "v"],
    types: ["int", "string"],
    rows: [
      [null, "an"],
      [null, null],
      [1, "a1"],
      [2, "a2"],
      [null, null],
    ],
  },
  "full: groupBy b.k": {
    cols: ["k", "count"],
    types: ["int", "bigint"],
    rows: [
      [null, 3],
      [1, 1],
      [3, 1],
    ],
  },
  "full: filter a.k, select a.k, k": {
    cols: ["k", "k"],
    types: ["int", "int"],
    rows: [
      [1, 1],
      [2, 2],
    ],
  },
  "semi: b.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
  },
  "semi: a.k, k": {
    cols: ["k", "k"],
    types: ["int", "int"],
    rows: [[1, 1]],
  },
  "semi: filter b.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
  },
  "anti: b.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
  },
  "anti: a.k, k": {
    cols: ["k", "k"],
    types: ["int", "int"],
    rows: [
      [null, null],
      [2, 2],
    ],
  },
  "anti: filter b.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
  },
  "full: filter b.k": {
    cols: ["k", "v", "w"],
    types: ["int", "string", "string"],
    rows: [
      [1, "a1", "b1"],
      [3, null, "b3"],
    ],
  },
  "full: withColumn b.k": {
    cols: ["k", "v", "w", "bk"],
    types: ["int", "string", "string", "int"],
    rows: [
      [null, "an", null, null],
      [null, null, "bn", null],
      [1, "a1", "b1", 1],
      [2, "a2", null, null],
      [3, null, "b3", 3],
    ],
  },
  "full: filter k, select b.k, a.k": {
    cols: ["k", "k"],
    types: ["int", "int"],
    rows: [
      [1, 1],
      [null, 2],
      [3, null],
    ],
  },
  "full: select v, then b.k": {
    cols: ["v", "k"],
    types: ["string", "int"],
    rows: [
      ["an", null],
      [null, null],
      ["a1", 1],
      ["a2", null],
      [null, 3],
    ],
  },
  "full: select b.k, then a.k": {
    cols: ["k"],
    types: ["int"],
    rows: [[null], [null], [1], [2], [null]],
  },
  "full: orderBy, limit, dropDuplicates, then b.k": {
    cols: ["k"],
    types: ["int"],
    rows: [[null], [3], [1], [null], [null]],
  },
  "full: withColumnRenamed, drop, then b.k": {
    cols: ["k", "vv"],
    types: ["int", "string"],
    rows: [
      [null, "an"],
      [null, null],
      [1, "a1"],
      [null, "a2"],
      [3, null],
    ],
  },
  "full: b.k in expressions": {
    cols: ["x", "coalesce(k, k)", "(k + 1)"],
    types: ["int", "int", "int"],
    rows: [
      [null, null, null],
      [null, null, null],
      [2, 1, 2],
      [null, 2, null],
      [4, 3, 4],
    ],
  },
  "full: select b.k, *": {
    cols: ["k", "k", "v", "w"],
    types: ["int", "int", "string", "string"],
    rows: [
      [null, null, "an", null],
      [null, null, null, "bn"],
      [1, 1, "a1", "b1"],
      [null, 2, "a2", null],
      [3, 3, null, "b3"],
    ],
  },
  "full: alias, then b.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
  },
  "full: groupBy k, then b.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
  },
  "full: agg, then b.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT",
  },
  "full: union, then b.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
  },
  "full: join c using k": {
    cols: ["k", "k", "k", "k"],
    types: ["int", "int", "int", "int"],
    rows: [
      [1, 1, 1, 1],
      [3, null, 3, 3],
    ],
  },
  "full: join c on b.k": {
    cols: ["k", "x"],
    types: ["int", "string"],
    rows: [
      [1, "c1"],
      [3, "c3"],
    ],
  },
  "full: drop b.k": {
    cols: ["k", "v", "w"],
    types: ["int", "string", "string"],
    rows: [
      [null, "an", null],
      [null, null, "bn"],
      [1, "a1", "b1"],
      [2, "a2", null],
      [3, null, "b3"],
    ],
  },
  "inner: drop a.k": {
    cols: ["v", "w"],
    types: ["string", "string"],
    rows: [["a1", "b1"]],
  },
  "a.select(b.k)": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
  },
  "a.select(c.x)": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT",
  },
  "a.select(a[*])": {
    cols: ["k", "v"],
    types: ["int", "string"],
    rows: [
      [1, "a1"],
      [2, "a2"],
      [null, "an"],
    ],
  },
  "a.select(v), orderBy a.k": {
    cols: ["v", "z"],
    types: ["string", "int"],
    rows: [
      ["a2", 1],
      ["a1", 1],
      ["an", 1],
    ],
  },
  "a.select(v), filter a.k": {
    cols: ["v"],
    types: ["string"],
    rows: [["a2"]],
  },
  "a.select(v), groupBy a.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT",
  },
  "self: all": {
    cols: ["k", "v", "k", "count"],
    types: ["int", "int", "int", "bigint"],
    rows: [
      [1, 10, 1, 2],
      [1, 20, 1, 2],
      [2, 5, 2, 1],
    ],
  },
  "self: df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: agg.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: df.v, agg.count": {
    cols: ["v", "count"],
    types: ["int", "bigint"],
    rows: [
      [10, 2],
      [20, 2],
      [5, 1],
    ],
  },
  "self: filter df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: filter df.v": {
    cols: ["k", "v", "k", "count"],
    types: ["int", "int", "int", "bigint"],
    rows: [
      [1, 10, 1, 2],
      [1, 20, 1, 2],
    ],
  },
  "self: groupBy df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: groupBy df.v": {
    cols: ["v", "count"],
    types: ["int", "bigint"],
    rows: [
      [20, 1],
      [5, 1],
      [10, 1],
    ],
  },
  "self: orderBy df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: agg max df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: withColumn df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: withColumn agg.count": {
    cols: ["c2"],
    types: ["bigint"],
    rows: [[4], [4], [2]],
  },
  "self: drop df.k": {
    cols: ["v", "k", "count"],
    types: ["int", "int", "bigint"],
    rows: [
      [10, 1, 2],
      [20, 1, 2],
      [5, 2, 1],
    ],
  },
  "self: select v, count, then df.k": {
    error: "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT",
  },
  "self: filtered df": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: joined again, df.v": {
    cols: ["v"],
    types: ["int"],
    rows: [[10], [20], [5]],
  },
  "self: joined again, df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: left join, agg.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: semi join, df.k": {
    cols: ["k"],
    types: ["int"],
    rows: [[1], [1], [2]],
  },
  "self: select(v) joined with df, df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: aliased, df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: aliased, x.k": {
    cols: ["k"],
    types: ["int"],
    rows: [[1], [1], [1], [1], [2]],
  },
  "self: using inner, df.k, agg.k": {
    cols: ["k", "k", "count"],
    types: ["int", "int", "bigint"],
    rows: [
      [1, 1, 2],
      [1, 1, 2],
      [2, 2, 1],
    ],
  },
  "self: using right, df.k": {
    error: "_LEGACY_ERROR_TEMP_1182",
  },
  "self: using full, df.k, agg.k, k": {
    cols: ["k", "k", "k"],
    types: ["int", "int", "int"],
    rows: [
      [null, null, null],
      [null, null, null],
      [1, 1, 1],
      [1, 1, 1],
      [2, 2, 2],
    ],
  },
};

describe("DataFrame USING joins and self-joins as PySpark 4.3", () => {
  for (const [label, expected] of Object.entries(PYSPARK)) {
    it(label, async () => assertAsPySpark(CASES[label]!, expected));
  }
  it("covers every case", () => {
    for (const label of Object.keys(CASES)) if (!(label in PYSPARK)) throw new Error(`no PySpark answer for ${label}`);
  });
});
