// df.na (fill / drop / replace), the set operations (intersect, subtract, exceptAll,
// intersectAll), isnan / nanvl and the small DataFrame conveniences (toDF, transform, tail, the
// partitioning no-ops). Every expected row was checked against PySpark 4.3 on the same data.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DataFrame, functions as F } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
const df = s.createDataFrame(
  [
    { i: 1, d: null, s: "a", x: null, b: true },
    { i: null, d: Number.NaN, s: null, x: 2.5, b: null },
    { i: 3, d: 1.5, s: "c", x: null, b: false },
    { i: null, d: null, s: null, x: null, b: null },
  ],
  "i INT, d DOUBLE, s STRING, x DOUBLE, b BOOLEAN",
);
const rows = async (d: DataFrame) => (await d.collect()).map((r) => Object.values(r));
const sortedRows = async (d: DataFrame) => (await rows(d)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe("df.na", () => {
  it("fill: a value fills NULL (and NaN) in the columns of its kind, cast to each column's type", async () => {
    assert.deepEqual(await rows(df.na.fill(0)), [
      [1, 0, "a", 0, true],
      [0, 0, null, 2.5, null],
      [3, 1.5, "c", 0, false],
      [0, 0, null, 0, null],
    ]);
    assert.deepEqual(
      (await rows(df.na.fill(1.7))).map((r) => r[0]),
      [1, 1, 3, 1],
    );
    assert.deepEqual(await rows(df.na.fill("z")), [
      [1, null, "a", null, true],
      [null, Number.NaN, "z", 2.5, null],
      [3, 1.5, "c", null, false],
      [null, null, "z", null, null],
    ]);
    assert.deepEqual(
      (await rows(df.na.fill(true))).map((r) => r[4]),
      [true, true, false, true],
    );
    assert.deepEqual(
      (await rows(df.na.fill(9, ["i"]))).map((r) => r[0]),
      [1, 9, 3, 9],
    );
    assert.deepEqual(await rows(df.na.fill({ i: 7, s: "q", d: 0.5 })), [
      [1, 0.5, "a", null, true],
      [7, 0.5, "q", 2.5, null],
      [3, 1.5, "c", null, false],
      [7, 0.5, "q", null, null],
    ]);
    assert.deepEqual(
      (await rows(df.fillna(5, "x"))).map((r) => r[3]),
      [5, 2.5, 5, 5],
    );
    // a string fill does not touch a numeric column, even when named
    assert.deepEqual(await rows(df.na.fill("z", ["i"])), await rows(df));
    assert.deepEqual(df.na.fill(0).columns, df.columns);
  });

  it("drop: any, all, thresh and subset (NaN counts as missing)", async () => {
    assert.deepEqual(await rows(df.na.drop()), []);
    assert.deepEqual(await rows(df.na.drop("all")), [
      [1, null, "a", null, true],
      [null, Number.NaN, null, 2.5, null],
      [3, 1.5, "c", null, false],
    ]);
    assert.deepEqual(await rows(df.na.drop("any", 2)), [
      [1, null, "a", null, true],
      [3, 1.5, "c", null, false],
    ]);
    assert.deepEqual((await rows(df.na.drop("any", undefined, ["i", "s"]))).length, 2);
    assert.deepEqual(await rows(df.dropna("any", undefined, "d")), [[3, 1.5, "c", null, false]]);
    assert.throws(() => df.na.drop("some" as "any"), /VALUE_NOT_ANY_OR_ALL/);
    assert.throws(() => df.na.drop("any", undefined, ["nope"]), /UNRESOLVED_COLUMN/);
  });

  it("replace: scalar, lists, objects and maps, only in columns of the values' kind", async () => {
    assert.deepEqual(
      (await rows(df.na.replace("a", "A"))).map((r) => r[2]),
      ["A", null, "c", null],
    );
    assert.deepEqual(
      (await rows(df.na.replace([1, 3], [10, 30], "i"))).map((r) => r[0]),
      [10, null, 30, null],
    );
    assert.deepEqual(
      (await rows(df.na.replace({ a: "AA", c: null }))).map((r) => r[2]),
      ["AA", null, null, null],
    );
    assert.deepEqual(
      (await rows(df.na.replace(1.5, 9.0))).map((r) => [r[0], r[1]]),
      [
        [1, null],
        [null, Number.NaN],
        [3, 9],
        [null, null],
      ],
    );
    assert.deepEqual(
      (await rows(df.replace(new Map([[1, 100]]), undefined, "i"))).map((r) => r[0]),
      [100, null, 3, null],
    );
    assert.throws(
      () =>
        df.na.replace(
          new Map<number | string, number>([
            [1, 2],
            ["a", 3],
          ]),
        ),
      /MIXED_TYPE_REPLACEMENT/,
    );
  });
});

describe("set operations", () => {
  const one = s.createDataFrame([{ i: 1 }, { i: null }, { i: 5 }], "i INT");
  const bag = s.createDataFrame([{ i: 1 }, { i: 1 }, { i: 2 }], "i INT");
  it("intersect and subtract are distinct, with NULLs equal", async () => {
    assert.deepEqual(await sortedRows(df.select("i").intersect(one)), [[1], [null]]);
    assert.deepEqual(await sortedRows(df.select("i").subtract(s.createDataFrame([{ i: 1 }], "i INT"))), [[3], [null]]);
    assert.deepEqual(await sortedRows(df.select("i").intersect(df.select("i"))), [[1], [3], [null]]);
  });
  it("exceptAll and intersectAll keep multiplicities", async () => {
    assert.deepEqual(await sortedRows(bag.exceptAll(s.createDataFrame([{ i: 1 }], "i INT"))), [[1], [2]]);
    assert.deepEqual(await sortedRows(bag.intersectAll(s.createDataFrame([{ i: 1 }, { i: 1 }, { i: 1 }], "i INT"))), [[1], [1]]);
    assert.deepEqual(await sortedRows(df.select("s").exceptAll(df.select("s").limit(1))), [["c"], [null], [null]]);
  });
  it("refuse different widths and streams, as Spark", () => {
    assert.throws(
      () => df.intersect(one),
      /NUM_COLUMNS_MISMATCH.*INTERSECT can only be performed on inputs with the same number of columns, but the first input has 5 columns and the second input has 1 columns/,
    );
    const stream = s.readStream.format("rate").load();
    assert.throws(
      () => stream.select("value").intersect(stream.select("value")),
      /Intersect of streaming DataFrames\/Datasets is not supported/,
    );
    assert.throws(() => one.subtract(stream.select("value")), /Except on a streaming DataFrame\/Dataset on the right is not supported/);
  });
});

describe("isnan, nanvl and conveniences", () => {
  it("isnan is never NULL; nanvl takes the second value where the first is NaN", async () => {
    const r = await df.select(F.isnan("d").alias("n"), F.nanvl("d", F.lit(-1)).alias("v")).collect();
    assert.deepEqual(
      r.map((x) => [x.n, x.v]),
      [
        [false, null],
        [true, -1],
        [false, 1.5],
        [false, null],
      ],
    );
    assert.equal(df.select(F.isnan("d")).schema.fields[0]!.nullable, false);
  });
  it("describe: Spark's statistics as strings, numeric and STRING columns by default", async () => {
    assert.deepEqual(df.describe().columns, ["summary", "i", "d", "s", "x"]);
    assert.deepEqual(await df.describe().toArray(), [
      ["count", "2", "2", "2", "1"],
      ["mean", "2.0", "NaN", null, "2.5"],
      ["stddev", "1.4142135623730951", "NaN", null, null],
      ["min", "1", "1.5", "a", "2.5"],
      ["max", "3", "NaN", "c", "2.5"],
    ]);
    assert.deepEqual(await df.describe("i", "s").toArray(), [
      ["count", "2", "2"],
      ["mean", "2.0", null],
      ["stddev", "1.4142135623730951", null],
      ["min", "1", "a"],
      ["max", "3", "c"],
    ]);
  });
  it("toDF, transform, tail and the partitioning no-ops", async () => {
    assert.deepEqual(df.toDF("a", "b", "c", "e", "f").columns, ["a", "b", "c", "e", "f"]);
    assert.throws(() => df.toDF("a"), /ASSIGNMENT_ARITY_MISMATCH/);
    const onlyI = (d: DataFrame, name: string) => d.select(name);
    assert.deepEqual(df.transform(onlyI, "i").columns, ["i"]);
    assert.deepEqual(
      (await df.tail(2)).map((r) => r.i),
      [3, null],
    );
    assert.equal(df.repartition(4).coalesce(1).hint("broadcast").unpersist(), df);
    assert.deepEqual(
      (await df.sortWithinPartitions(F.col("i").desc()).collect()).map((r) => r.i),
      [3, 1, null, null],
    );
  });
});
