/**
 * PushDownPredicates through a withWatermark node: conjuncts reading the event-time column stay
 * above it (filtering event times below it would change the watermark), the rest go below. The
 * node names its column as written, and names resolve case-insensitively as in Spark.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { optimize } from "../../src/optimizer/optimizer.js";
import type { LogicalPlan } from "../../src/plan/logical.js";
import { exprToSql } from "../../src/plan/sql-text.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

/** The filter conditions on the path from the root down to the scan, marking the watermark node. */
function shape(p: LogicalPlan, out: string[] = []): string[] {
  if (p.kind === "filter") out.push(`filter ${exprToSql(p.condition)}`);
  if (p.kind === "watermark") out.push("watermark");
  const child = (p as { child?: LogicalPlan }).child;
  return child ? shape(child, out) : out;
}

describe("PushDownPredicates through withWatermark", () => {
  for (const written of ["ts", "TS", "Ts"]) {
    it(`withWatermark("${written}") keeps the event-time conjunct above, the other below`, () => {
      const df = session
        .memoryStream("k STRING, ts TIMESTAMP")
        .toDF()
        .withWatermark(written, "5 seconds")
        .filter(F.col("TS").gt(F.lit("2024-01-01 00:00:10").cast("timestamp")).and(F.col("k").notEqual("x")));
      const steps = shape(optimize(df.plan)).filter((s) => s === "watermark" || s.startsWith("filter"));
      const at = steps.indexOf("watermark");
      assert.ok(at > 0, `a filter stays above the watermark: ${steps.join(" | ")}`);
      assert.match(steps.slice(0, at).join(" "), /ts/i);
      assert.doesNotMatch(steps.slice(0, at).join(" "), /\bk\b/);
      assert.match(steps.slice(at + 1).join(" "), /\bk\b/);
      assert.doesNotMatch(steps.slice(at + 1).join(" "), /ts/i);
    });
  }
});
