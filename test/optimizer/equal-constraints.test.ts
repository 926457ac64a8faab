/**
 * InferFiltersFromConstraints through equalities: a constraint on one side of `a = b` is
 * inferred for the other side (Spark's inferAdditionalConstraints), in a filter and across a
 * join to each side the join type lets it filter.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { inferEqualConstraints } from "../../src/optimizer/infer-equal-constraints.js";
import { conjuncts } from "../../src/plan/expressions.js";
import type { LogicalPlan } from "../../src/plan/logical.js";
import { exprToSql } from "../../src/plan/sql-text.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const stream = () => session.memoryStream("a INT, b INT, l BIGINT").toDF();
const other = () => session.memoryStream("c INT, d INT").toDF();

const conds = (p: LogicalPlan) => (p.kind === "filter" ? conjuncts(p.condition).map(exprToSql) : []);

describe("constraints carried through equalities", () => {
  it("a = b AND a = 1 gives b = 1", () => {
    const p = inferEqualConstraints.apply(stream().filter(F.col("a").equalTo(F.col("b")).and(F.col("a").equalTo(1))).plan, {
      keepStatefulInputs: false,
    });
    assert.deepEqual(conds(p).length, 3);
    assert.match(conds(p)[2]!, /^\(?b\b.*=\s*1\)?$/);
  });

  it("b = a beside a = b infers nothing (no b = b), nor does a column of another type", () => {
    const p1 = stream().filter(
      F.col("a")
        .equalTo(F.col("b"))
        .and(F.col("b").equalTo(F.col("a"))),
    ).plan;
    assert.equal(inferEqualConstraints.apply(p1, { keepStatefulInputs: false }), p1);
    const p2 = stream().filter(F.col("a").equalTo(F.col("l")).and(F.col("a").equalTo(1))).plan;
    assert.equal(conds(inferEqualConstraints.apply(p2, { keepStatefulInputs: false })).length, conds(p2).length);
  });

  it("a non-deterministic conjunct is not carried", () => {
    const p = stream().filter(F.col("a").equalTo(F.col("b")).and(F.col("a").gt(F.rand()))).plan;
    assert.equal(inferEqualConstraints.apply(p, { keepStatefulInputs: false }), p);
  });

  const joined = (how: string) => {
    const plan = inferEqualConstraints.apply(
      stream()
        .filter(F.col("a").lt(10))
        .join(other(), F.col("a").equalTo(F.col("c")).and(F.col("d").gt(5)), how).plan,
      { keepStatefulInputs: false },
    );
    let j = plan;
    while (j.kind !== "join") j = (j as { child: LogicalPlan }).child;
    return { left: conds(j.left).join(" AND "), right: conds(j.right).join(" AND ") };
  };

  it("inner join: the left side's a < 10 filters the right by c < 10", () => {
    const j = joined("inner");
    assert.match(j.right, /\bc\b.*<\s*10/);
    assert.doesNotMatch(j.left, /\bd\b/); // d > 5 involves no equality column
  });

  it("left outer: only the right side is filtered; right outer: only the left; full outer: neither", () => {
    assert.match(joined("left_outer").right, /\bc\b.*<\s*10/);
    assert.doesNotMatch(joined("right_outer").right, /\bc\b/);
    assert.deepEqual(joined("full_outer").right, "");
  });
});
