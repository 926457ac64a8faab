/**
 * PushPredicateThroughJoin on the join's own condition: an ON conjunct reading one side only
 * filters that side below the join, except on a side an outer join preserves (Spark 4.3's
 * optimized plans for the same joins).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { optimize } from "../../src/optimizer/optimizer.js";
import { conjuncts } from "../../src/plan/expressions.js";
import type { LogicalPlan } from "../../src/plan/logical.js";
import { exprToSql } from "../../src/plan/sql-text.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const stream = () => session.memoryStream("k STRING, v INT").toDF();
const dim = () =>
  session.createDataFrame(
    [
      ["a", "one"],
      ["b", "two"],
    ],
    "sk STRING, name STRING",
  );
const on = F.col("k").equalTo(F.col("sk")).and(F.col("v").isin(1, 2)).and(F.col("name").notEqual("x"));

/** The optimized join and the filter conjuncts (as SQL) right above each of its sides' leaves. */
function joinOf(plan: LogicalPlan): { condition: string[]; left: string[]; right: string[] } {
  let p = plan;
  while (p.kind !== "join") p = (p as { child: LogicalPlan }).child;
  const filters = (side: LogicalPlan): string[] => {
    const out: string[] = [];
    for (let q: LogicalPlan | undefined = side; q; q = (q as { child?: LogicalPlan }).child) {
      if (q.kind === "filter") out.push(...conjuncts(q.condition).map(exprToSql));
    }
    return out;
  };
  return { condition: p.condition ? conjuncts(p.condition).map(exprToSql) : [], left: filters(p.left), right: filters(p.right) };
}

const has = (list: string[], text: RegExp) => list.some((s) => text.test(s));

describe("single-side ON conjuncts go below the join", () => {
  it("inner: the stream-only conjunct filters the stream, the static-only one the static side", () => {
    const j = joinOf(optimize(stream().join(dim(), on).plan));
    assert.ok(!has(j.condition, /\bIN\b/i) && !has(j.condition, /name/), j.condition.join(" AND "));
    assert.ok(has(j.left, /\bv\b.*\bIN\b/i), j.left.join(" AND "));
    assert.ok(has(j.right, /name/), j.right.join(" AND "));
  });

  it("left outer: the preserved stream side keeps its conjunct in the join, the static side is filtered", () => {
    const j = joinOf(optimize(stream().join(dim(), on, "left_outer").plan));
    assert.ok(has(j.condition, /\bIN\b/i), j.condition.join(" AND "));
    assert.ok(!has(j.left, /\bIN\b/i), j.left.join(" AND "));
    assert.ok(has(j.right, /name/) && !has(j.condition, /name/), `${j.right} / ${j.condition}`);
  });

  it("full outer: nothing moves", () => {
    const j = joinOf(optimize(stream().join(dim(), on, "full_outer").plan));
    assert.equal(j.condition.length, 3);
    assert.deepEqual([j.left, j.right], [[], []]);
  });

  it("a non-deterministic conjunct stays in the join", () => {
    const j = joinOf(optimize(stream().join(dim(), F.col("k").equalTo(F.col("sk")).and(F.rand().gt(0.5))).plan));
    assert.ok(has(j.condition, /rand/i), j.condition.join(" AND "));
  });
});
