/**
 * EliminateOuterJoin: a filter above an outer join that rejects a row padded with NULLs on one
 * side narrows the join (full → left / right / inner, left / right → inner), as Spark 4.3's
 * optimized plans show; the rows are the same, and the side that must now match is filtered
 * before the join.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { optimize } from "../../src/optimizer/optimizer.js";
import type { LogicalPlan } from "../../src/plan/logical.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
after(() => session.stop());
const l = () =>
  session.createDataFrame(
    [
      ["a", 1],
      ["b", 2],
      [null, 3],
    ],
    "k STRING, v INT",
  );
const r = () =>
  session.createDataFrame(
    [
      ["a", 10],
      ["c", 30],
      [null, 40],
    ],
    "rk STRING, w INT",
  );
const on = F.col("k").equalTo(F.col("rk"));

function joinTypeOf(plan: LogicalPlan): string {
  let p = plan;
  while (p.kind !== "join") p = (p as { child: LogicalPlan }).child;
  return p.joinType;
}
const optimizedJoin = (df: ReturnType<typeof l>) => joinTypeOf(optimize(df.plan));
const rows = async (df: ReturnType<typeof l>) => (await df.collect()).map((x) => JSON.stringify(x)).sort();

describe("EliminateOuterJoin", () => {
  it("narrows the join by the sides whose padded rows the filter rejects", () => {
    assert.equal(optimizedJoin(l().join(r(), on, "full_outer").filter("k IS NOT NULL")), "left_outer");
    assert.equal(optimizedJoin(l().join(r(), on, "full_outer").filter("w > 5")), "right_outer");
    assert.equal(optimizedJoin(l().join(r(), on, "full_outer").filter("v > 0 AND w > 5")), "inner");
    assert.equal(optimizedJoin(l().join(r(), on, "left_outer").filter("w + 1 > 5")), "inner");
    assert.equal(optimizedJoin(l().join(r(), on, "right_outer").filter("upper(k) = 'A'")), "inner");
  });

  it("leaves the join when a padded row could pass (OR, coalesce, IS NULL, both sides in one conjunct)", () => {
    assert.equal(optimizedJoin(l().join(r(), on, "full_outer").filter("k IS NULL")), "full_outer");
    assert.equal(optimizedJoin(l().join(r(), on, "full_outer").filter("coalesce(v, 0) >= 0")), "full_outer");
    assert.equal(optimizedJoin(l().join(r(), on, "left_outer").filter("w > 5 OR v > 0")), "left_outer");
    assert.equal(optimizedJoin(l().join(r(), on, "full_outer").filter("v < w")), "full_outer");
    assert.equal(optimizedJoin(l().join(r(), on, "left_outer").filter("rand() < 2 AND w IS NULL")), "left_outer");
  });

  it("gives the rows of the join it replaces", async () => {
    for (const [type, cond] of [
      ["full_outer", "k IS NOT NULL"],
      ["full_outer", "w > 5"],
      ["full_outer", "v > 0 AND w > 5"],
      ["left_outer", "w > 5"],
      ["right_outer", "v > 1"],
    ] as const) {
      const narrowed = l().join(r(), on, type).filter(cond);
      assert.deepEqual(await rows(narrowed), await rowsWithoutTheRule(narrowed), `${type} ${cond}`);
    }
  });
});

/** The rows with the rule switched off (arus.optimizer.excludedRules). */
async function rowsWithoutTheRule(df: ReturnType<typeof l>): Promise<string[]> {
  session.conf.set("arus.optimizer.excludedRules", "EliminateOuterJoin");
  try {
    assert.notEqual(session.excludedRules().size, 0);
    return await rows(df);
  } finally {
    session.conf.unset("arus.optimizer.excludedRules");
  }
}
