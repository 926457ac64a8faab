/**
 * Filters a json/csv scan takes when the literal is written as a typed literal or a cast:
 * PySpark 4.3 folds `TIMESTAMP '...'`, `lit(s).cast('timestamp')`, a string compared with a
 * timestamp column and their DATE forms into literals and pushes the comparison (its explain:
 * `PushedFilters: [IsNotNull(ts), LessThan(ts,2024-01-01 00:00:10.0)]`).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { optimize } from "../../src/optimizer/optimizer.js";
import { pushedConjuncts } from "../../src/planner/pushed-filters.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const df = session.memoryStream("k STRING, ts TIMESTAMP, d DATE").toDF();

function pushed(q: { plan: Parameters<typeof optimize>[0] }): string[] {
  const p = optimize(q.plan);
  assert.equal(p.kind, "filter");
  return pushedConjuncts(p.condition).map((x) => x.text);
}

describe("timestamp and date literals in scan filters", () => {
  it("TIMESTAMP '...' typed literal", () => {
    assert.deepEqual(pushed(df.filter("ts < TIMESTAMP '2024-01-01 00:00:10'")), ["IsNotNull(ts)", "LessThan(ts,2024-01-01 00:00:10.0)"]);
  });
  it("lit(s).cast('timestamp'), either side", () => {
    assert.deepEqual(pushed(df.filter(F.col("ts").lt(F.lit("2024-01-01 00:00:10").cast("timestamp")))), [
      "IsNotNull(ts)",
      "LessThan(ts,2024-01-01 00:00:10.0)",
    ]);
    assert.deepEqual(pushed(df.filter(F.lit("2024-01-01 00:00:10.5").cast("timestamp").gt(F.col("ts")))), [
      "IsNotNull(ts)",
      "LessThan(ts,2024-01-01 00:00:10.5)",
    ]);
  });
  it("a string compared with a timestamp column (an implicit cast)", () => {
    assert.deepEqual(pushed(df.filter("ts >= '2024-01-01 00:00:10'")), ["IsNotNull(ts)", "GreaterThanOrEqual(ts,2024-01-01 00:00:10.0)"]);
  });
  it("DATE literals and casts, IN over them", () => {
    assert.deepEqual(pushed(df.filter("d < DATE '2024-01-03'")), ["IsNotNull(d)", "LessThan(d,2024-01-03)"]);
    assert.deepEqual(pushed(df.filter(F.col("d").geq(F.lit("2024-01-03").cast("date")))), [
      "IsNotNull(d)",
      "GreaterThanOrEqual(d,2024-01-03)",
    ]);
    assert.deepEqual(pushed(df.filter("d IN (DATE '2024-01-03', DATE '2024-01-01')")), ["In(d, [2024-01-01,2024-01-03])"]);
  });
  it("a cast of a column is not a literal", () => {
    assert.deepEqual(pushed(df.filter(F.col("ts").lt(F.col("k").cast("timestamp")))), ["IsNotNull(ts)", "IsNotNull(k)"]);
  });
});
