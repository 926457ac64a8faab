// groupBy().pivot(column, values): Spark's column names and its two-phase semantics (a value with
// no rows in a group is NULL, even for count). Expected rows checked against PySpark 4.3.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
const df = s.createDataFrame(
  [
    { k: "a", y: 2020, v: 1 },
    { k: "a", y: 2021, v: 2 },
    { k: "b", y: 2020, v: 3 },
    { k: "b", y: null, v: 4 },
    { k: "a", y: 2020, v: 5 },
  ],
  "k STRING, y INT, v INT",
);

describe("pivot", () => {
  it("one aggregate: a column per value, NULL where a group has none", async () => {
    const p = df.groupBy("k").pivot("y", [2020, 2021]).sum("v").orderBy("k");
    assert.deepEqual(p.columns, ["k", "2020", "2021"]);
    assert.deepEqual(await p.toArray(), [
      ["a", 6, 2],
      ["b", 3, null],
    ]);
    const withNull = df.groupBy("k").pivot("y", [null, 2020]).sum("v").orderBy("k");
    assert.deepEqual(withNull.columns, ["k", "null", "2020"]);
    assert.deepEqual(await withNull.toArray(), [
      ["a", null, 6],
      ["b", 4, 3],
    ]);
  });
  it("several aggregates: value_name columns; count is NULL, not 0, for a missing value", async () => {
    const p = df.groupBy("k").pivot("y", [2020, 2021]).agg(F.sum("v"), F.count("v").alias("n")).orderBy("k");
    assert.deepEqual(p.columns, ["k", "2020_sum(v)", "2020_n", "2021_sum(v)", "2021_n"]);
    assert.deepEqual(await p.toArray(), [
      ["a", 6, 2, 2, 1],
      ["b", 3, 1, null, null],
    ]);
    assert.deepEqual(await df.groupBy("k").pivot("y", [2020, 2021, 1999]).count().orderBy("k").toArray(), [
      ["a", 2, 1, null],
      ["b", 1, null, null],
    ]);
  });
  it("asks for the values and refuses streams", () => {
    assert.throws(() => df.groupBy("k").pivot("y"), /pivot\(\) needs its values/);
    assert.throws(() => s.readStream.format("rate").load().groupBy("value").pivot("value", [1]), /not supported on streaming/);
  });
});
