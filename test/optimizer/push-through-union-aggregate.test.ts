/**
 * PushDownPredicates through a union and below an aggregate, and inference after the push, as
 * PySpark 4.3's optimized plans show them (checked with explain(True) on a json stream of
 * `k STRING, v INT, ts TIMESTAMP`): the filter that reaches the scan decides numInputRows.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { optimize } from "../../src/optimizer/optimizer.js";
import { explainLogical } from "../../src/plan/explain.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const df = session.memoryStream("k STRING, v INT, ts TIMESTAMP").toDF();

/** The optimized plan's tree, exprIds dropped. */
const tree = (d: { plan: Parameters<typeof optimize>[0] }) =>
  explainLogical(optimize(d.plan))
    .replace(/#\d+/g, "")
    .replace(/memory, .*$/gm, "memory")
    .trim();

describe("PushDownPredicates through Union (Spark's PushPredicateThroughNonJoin)", () => {
  it("pushes the filter into every input, down to each scan", () => {
    assert.equal(
      tree(df.union(df).filter(F.col("k").equalTo("a"))),
      [
        "Union false, false",
        "+- Filter ((k IS NOT NULL) AND (k = a))",
        "   +- StreamingRelation memory",
        "+- Filter ((k IS NOT NULL) AND (k = a))",
        "   +- StreamingRelation memory",
      ].join("\n"),
    );
  });
  it("renames the columns to each input's, by position", () => {
    const other = session.memoryStream("x STRING, y INT, z TIMESTAMP").toDF();
    assert.match(
      tree(df.union(other).filter(F.col("v").gt(1))),
      /\+- Filter \(\(y IS NOT NULL\) AND \(y > 1\)\)\n\s+\+- StreamingRelation/,
    );
  });
  it("leaves a non-deterministic conjunct above the union", () => {
    const t = tree(df.union(df).filter(F.col("k").equalTo("a").and(F.rand().gt(0.5))));
    assert.match(t, /^Filter \(rand\(\) > 0\.5\)\n\+- Union/);
    assert.equal(t.match(/\(k = a\)/g)?.length, 2);
  });
  it("keeps an event-time conjunct above each input's watermark", () => {
    const w = df.withWatermark("ts", "10 seconds");
    const t = tree(
      w.union(w).filter(
        F.col("k")
          .equalTo("a")
          .and(F.col("ts").gt(F.lit("2024-01-01").cast("timestamp"))),
      ),
    );
    assert.equal(
      t.match(/Filter \(\(ts IS NOT NULL\)[^\n]*\n\s+\+- EventTimeWatermark[^\n]*\n\s+\+- Filter \(\(k IS NOT NULL\) AND \(k = a\)\)/g)
        ?.length,
      2,
      t,
    );
  });
});

describe("PushDownPredicates below an Aggregate (Spark's PushPredicateThroughNonJoin)", () => {
  it("pushes a conjunct on a grouping column into the scan, keeps one on an aggregate above", () => {
    const q = df
      .groupBy("k")
      .agg(F.sum("v").alias("s"))
      .filter(F.col("k").equalTo("a").and(F.col("s").gt(1)));
    assert.match(
      tree(q),
      /^Filter \(\(s IS NOT NULL\) AND \(s > 1\)\)\n\+- Aggregate[^\n]*\n\s+\+- Filter \(\(k IS NOT NULL\) AND \(k = a\)\)\n\s+\+- StreamingRelation/,
    );
  });
  it("substitutes an aliased grouping expression and infers isnotnull of its column after the push", () => {
    const q = df
      .groupBy(F.upper(F.col("k")).alias("u"))
      .agg(F.sum("v").alias("s"))
      .filter(F.col("u").equalTo("A"));
    assert.match(tree(q), /^Aggregate[^\n]*\n\+- Filter \(\(k IS NOT NULL\) AND \(upper\(k\) = A\)\)\n\s+\+- StreamingRelation/);
  });
  it("pushes nothing below a global aggregate", () => {
    const q = df.agg(F.sum("v").alias("s")).filter(F.col("s").gt(1));
    assert.match(tree(q), /^Filter[^\n]*\n\+- Aggregate/);
  });
  it("under window() and a watermark: the key conjunct goes below the watermark, the window one stays above it", () => {
    const q = df
      .withWatermark("ts", "10 seconds")
      .groupBy(F.window(F.col("ts"), "10 seconds"), F.col("k"))
      .agg(F.sum("v").alias("s"))
      .filter(
        F.col("k")
          .equalTo("a")
          .and(F.col("window.start").gt(F.lit("2024-01-01").cast("timestamp"))),
      );
    const t = tree(q);
    assert.match(t, /EventTimeWatermark[^\n]*\n\s+\+- Filter \(\(k IS NOT NULL\) AND \(k = a\)\)\n\s+\+- StreamingRelation/, t);
    const aboveWatermark = t.slice(0, t.indexOf("EventTimeWatermark"));
    assert.match(aboveWatermark, /window/);
    assert.doesNotMatch(aboveWatermark, /k = a/);
  });
});

describe("PushDownPredicates below a session-window aggregate", () => {
  it("the key conjunct reaches the scan, the session_window.start one goes below the aggregate, above the watermark", () => {
    const q = df
      .withWatermark("ts", "5 seconds")
      .groupBy(F.session_window(F.col("ts"), "6 seconds"), F.col("k"))
      .agg(F.sum("v").alias("s"))
      .filter(
        F.col("k")
          .equalTo("a")
          .and(F.col("session_window.start").geq(F.lit("2024-01-01").cast("timestamp"))),
      );
    const t = tree(q);
    assert.match(t, /^Aggregate/, t);
    assert.match(t, /EventTimeWatermark[^\n]*\n\s+\+- Filter \(\(k IS NOT NULL\) AND \(k = a\)\)\n\s+\+- StreamingRelation/, t);
    assert.match(t.slice(0, t.indexOf("EventTimeWatermark")), /__session_window\(ts[^\n]*\.start >= /);
  });
});

describe("InferFiltersFromConstraints after the push through a projection", () => {
  it("a filter on c0 = lower(k) infers isnotnull(k) at the scan", () => {
    const q = df.withColumn("c0", F.lower(F.col("k"))).filter(F.col("c0").equalTo("b"));
    assert.match(tree(q), /^Project[^\n]*\n\+- Filter \(\(k IS NOT NULL\) AND \(lower\(k\) = b\)\)\n\s+\+- StreamingRelation/);
  });
});

describe("ConstantFolding after the push", () => {
  it("a condition on a constant grouping column folds to false where it lands, above the scan", () => {
    const q = df
      .withWatermark("ts", "5 seconds")
      .withColumn("c", F.lit(1))
      .groupBy(F.window("ts", "10 seconds"), "c")
      .count()
      .filter(F.col("c").gt(1));
    const t = tree(q);
    assert.match(t, /\+- Filter false\n\s+\+- StreamingRelation memory$/, t);
    assert.doesNotMatch(t, /1 > 1/);
  });
});
