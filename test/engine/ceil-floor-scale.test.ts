/**
 * ceil / floor / ceiling with a scale: the input as a DECIMAL (DOUBLE as DECIMAL(30,15), FLOAT
 * (14,7), integers their own), rounded up / down at the scale, typed DECIMAL(p - s + 1 + s', s')
 * with s' = min(max(scale, 0), s). Expected names, types and values from PySpark 4.3.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

describe("ceil and floor to a scale", () => {
  it("rounds up or down at the scale, into Spark's DECIMAL type", async () => {
    const cases: [string, string, string][] = [
      ["floor(3.14159, 2)", "decimal(4,2)", "3.14"],
      ["ceil(3.14159, 2)", "decimal(4,2)", "3.15"],
      ["ceil(-3.1, 0)", "decimal(2,0)", "-3"],
      ["ceil(1234.5, -2)", "decimal(5,0)", "1300"],
      ["floor(1234.5, -2)", "decimal(5,0)", "1200"],
      ["ceil(1.55D, 1)", "decimal(17,1)", "1.6"],
      ["floor(1.55D, 1)", "decimal(17,1)", "1.5"],
      ["ceil(5, -1)", "decimal(11,0)", "10"],
      ["ceil(CAST(5 AS BIGINT), -1)", "decimal(21,0)", "10"],
      ["ceil(1.5F, 0)", "decimal(8,0)", "2"],
      ["ceil(CAST(NULL AS DOUBLE), 1)", "decimal(17,1)", "null"],
      ["ceil(12.345, 5)", "decimal(6,3)", "12.345"],
      ["ceiling(2.5, 0)", "decimal(2,0)", "3"],
      ["floor(-0.5D, 0)", "decimal(16,0)", "-1"],
    ];
    for (const [expr, type, value] of cases) {
      const df = session.sql(`SELECT ${expr}`);
      const [row] = await df.collect();
      assert.deepEqual(
        [df.columns[0], df.dtypes[0]![1], String(row![df.columns[0]!])],
        [expr.replace("1.55D", "1.55").replace("1.5F", "1.5").replace("-0.5D", "-0.5"), type, value],
      );
    }
  });

  it("needs a constant INT scale, and a value that fits", async () => {
    assert.throws(
      () => session.sql("SELECT ceil(2.5, NULL)"),
      /\[NON_FOLDABLE_ARGUMENT\] The function `ceil` requires the parameter `scale`/,
    );
    await assert.rejects(session.sql("SELECT ceil(1e300D, -2) AS c").collect(), /NUMERIC_VALUE_OUT_OF_RANGE/);
  });

  it("has F.ceil(c, scale), F.floor(c, scale), F.ceiling(c, scale)", async () => {
    const df = session.createDataFrame([[1.55]], "d double").select(F.ceil("d", 1), F.floor("d", 1), F.ceiling("d", 1));
    assert.deepEqual(df.columns, ["ceil(d, 1)", "floor(d, 1)", "ceiling(d, 1)"]);
    const [row] = await df.collect();
    assert.deepEqual(
      df.columns.map((c) => String(row![c])),
      ["1.6", "1.5", "1.6"],
    );
  });
});
