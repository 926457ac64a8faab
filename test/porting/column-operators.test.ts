/**
 * Porting from PySpark: JavaScript operators on a Column fail loudly (no NaN, no
 * "[object Object]"), F.sql`...` writes SQL with values that are never spliced as text.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Column, functions as F } from "../../src/index.js";
import { utcSession } from "../engine/helpers.js";

const session = utcSession();
const values = () => session.range(6).withColumnRenamed("id", "value");
// biome-ignore lint/suspicious/noExplicitAny: the point is what JavaScript does with untyped code
const loose = (c: Column): any => c;

describe("a Column used with a JavaScript operator", () => {
  for (const [what, use] of [
    ["%", (c: Column) => loose(c) % 3],
    ["-", (c: Column) => loose(c) - 40],
    ["* on the right", (c: Column) => 2 * loose(c)],
    ["<", (c: Column) => loose(c) < 3],
    ["+ with a string", (c: Column) => loose(c) + "x"],
    // biome-ignore lint/suspicious/noDoubleEquals: loose equality is what coerces
    ["== with a number", (c: Column) => loose(c) == 3],
    ["Number()", (c: Column) => Number(c)],
  ] as const) {
    it(`${what} throws a TypeError naming the method and the SQL form`, () => {
      assert.throws(
        () => use(F.col("value")),
        (e: Error) =>
          e instanceof TypeError &&
          e.message.includes("Column<'value'>") &&
          e.message.includes(".mod(x)") &&
          e.message.includes(".minus(x)") &&
          e.message.includes('F.expr("value % 3")'),
      );
    });
  }
  it("String() and template literals give PySpark's Column<'...'> text", () => {
    assert.equal(String(F.col("value").mod(3)), "Column<'(value % 3)'>");
    assert.equal(`${F.col("a")}`, "Column<'a'>");
  });
  it("arus itself never coerces a Column: a query using every method runs", async () => {
    const v = F.col("value");
    const rows = await values()
      .select(
        v.plus(1).minus(2).multiply(3).divide(2).alias("x"),
        v
          .mod(3)
          .equalTo(0)
          .and(v.gt(1).or(v.leq(0)))
          .alias("b"),
      )
      .collect();
    assert.deepEqual(
      rows.map((r) => r.b),
      [true, false, false, true, false, false],
    );
  });
});

describe("F.sql tagged template", () => {
  it("reads as SQL and equals the Column-method form", async () => {
    const n = 3;
    const a = await values().select(F.sql`value % ${n}`.alias("m")).collect();
    const b = await values().select(F.col("value").mod(n).alias("m")).collect();
    assert.deepEqual(a, b);
    assert.deepEqual(
      a.map((r) => r.m),
      [0, 1, 2, 0, 1, 2],
    );
  });
  it("a Column interpolated stands for itself", async () => {
    const rows = await values()
      .select(F.sql`${F.col("value")} * 2 + ${1}`.alias("y"))
      .collect();
    assert.deepEqual(
      rows.map((r) => r.y),
      [1, 3, 5, 7, 9, 11],
    );
  });
  it("a string is a literal value, never SQL text (no injection)", async () => {
    const evil = "x' OR 1=1 --";
    const df = session.createDataFrame([{ name: "x" }, { name: evil }], "name STRING");
    const rows = await df.where(F.sql`name = ${evil}`).collect();
    assert.deepEqual(rows, [{ name: evil }]);
    const none = await df.where(F.sql`name = ${"nope' OR 'a'='a"}`).collect();
    assert.deepEqual(none, []);
  });
  it("an interpolation inside quotes or a name is an error saying so", () => {
    assert.throws(() => F.sql`name = '${"a"}'`, /interpolated value must stand where a value stands, bare/);
  });
});
