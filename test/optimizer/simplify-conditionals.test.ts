/**
 * SimplifyConditionals: a CASE / IF whose branches all give its ELSE value, under deterministic
 * conditions, is that value (Spark 4.3's optimized plan for the fuzzer's repro shows `v = 1`).
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { optimize } from "../../src/optimizer/optimizer.js";
import { transformPlanExpressions } from "../../src/optimizer/plan-expressions.js";
import { anyExpr } from "../../src/plan/expressions.js";
import type { LogicalPlan } from "../../src/plan/logical.js";

const session = Session.builder().getOrCreate();
after(() => session.stop());
const df = () =>
  session.createDataFrame(
    [
      ["a", 1],
      ["b", 2],
      ["c", null],
    ],
    "k STRING, v INT",
  );
function hasCase(plan: LogicalPlan): boolean {
  let found = false;
  transformPlanExpressions(plan, (e) => {
    found ||= anyExpr(e, (x) => x.kind === "caseWhen");
    return e;
  });
  return found;
}

describe("SimplifyConditionals", () => {
  it("a CASE whose branches all equal its ELSE is that value, and filters the same rows", async () => {
    const same = df().filter(F.when(F.col("k").equalTo("b"), F.col("v")).otherwise(F.col("v")).equalTo(1));
    assert.equal(hasCase(optimize(same.plan)), false);
    assert.deepEqual(await same.collect(), [{ k: "a", v: 1 }]);
    assert.equal(hasCase(optimize(df().selectExpr("IF(k = 'a', v + 1, v + 1) AS w").plan)), false);
  });

  it("keeps a CASE with different values, no ELSE, or a non-deterministic condition", () => {
    assert.equal(hasCase(optimize(df().selectExpr("CASE WHEN k = 'a' THEN v ELSE v + 1 END AS w").plan)), true);
    assert.equal(hasCase(optimize(df().selectExpr("CASE WHEN k = 'a' THEN v END AS w").plan)), true);
    assert.equal(hasCase(optimize(df().selectExpr("CASE WHEN rand() < 0.5 THEN v ELSE v END AS w").plan)), true);
  });
});
