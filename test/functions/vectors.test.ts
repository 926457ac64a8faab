/**
 * Spark 4.2's vector functions over ARRAY<FLOAT>: the scalar ones held to PySpark 4.3's answers
 * (to_json of a one-field struct, and typeof; errors by class), the aggregates to its answers and
 * through the merge of partial buffers (a streaming aggregation over several batches), and the
 * properties the functions must have whatever the input.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  [
    "vector_inner_product(array(0.1F,0.1F,0.1F,0.1F,0.1F,0.1F,0.1F,0.1F,0.1F,0.1F), array(1.0F,1.0F,1.0F,1.0F,1.0F,1.0F,1.0F,1.0F,1.0F,1.0F))",
    { json: '{"r":1.0}', type: "float" },
  ],
  ["vector_l2_distance(array(0.1F,0.2F,0.3F), array(0.4F,0.5F,0.6F))", { json: '{"r":0.51961523}', type: "float" }],
  ["vector_cosine_similarity(array(0.1F,0.2F,0.3F), array(0.4F,0.5F,0.6F))", { json: '{"r":0.97463185}', type: "float" }],
  ["vector_cosine_similarity(array(1.0F, 2.0F, 3.0F), array(4.0F, 5.0F, 6.0F))", { json: '{"r":0.97463185}', type: "float" }],
  ["vector_l2_distance(array(1.0F, 2.0F, 3.0F), array(4.0F, 5.0F, 6.0F))", { json: '{"r":5.196152}', type: "float" }],
  ["vector_norm(array(0.1F,0.2F,0.3F))", { json: '{"r":0.37416574}', type: "float" }],
  ["vector_norm(array(0.1F,0.2F,0.3F), 1.0F)", { json: '{"r":0.6}', type: "float" }],
  ["vector_normalize(array(0.1F,0.2F,0.3F))", { json: '{"r":[0.26726124,0.5345225,0.80178374]}', type: "array<float>" }],
  ["vector_normalize(array(3.0F, 4.0F), 1.0F)", { json: '{"r":[0.42857143,0.5714286]}', type: "array<float>" }],
  ["vector_normalize(array(3.0F, 4.0F), float('inf'))", { json: '{"r":[0.75,1.0]}', type: "array<float>" }],
  ["vector_normalize(array(3.0F, 4.0F), 3.0F)", { error: "INVALID_VECTOR_NORM_DEGREE" }],
  ["vector_norm(array(3.0F, 4.0F), CAST(NULL AS FLOAT))", { json: "{}", type: "float" }],
  ["vector_normalize(array(3.0F, 4.0F), CAST(NULL AS FLOAT))", { json: "{}", type: "array<float>" }],
  ["vector_norm(CAST(array() AS ARRAY<FLOAT>))", { json: '{"r":0.0}', type: "float" }],
  ["vector_normalize(CAST(array() AS ARRAY<FLOAT>))", { json: '{"r":[]}', type: "array<float>" }],
  ["vector_inner_product(CAST(array() AS ARRAY<FLOAT>), CAST(array() AS ARRAY<FLOAT>))", { json: '{"r":0.0}', type: "float" }],
  ["vector_cosine_similarity(CAST(array() AS ARRAY<FLOAT>), CAST(array() AS ARRAY<FLOAT>))", { json: "{}", type: "float" }],
  ["vector_l2_distance(CAST(array() AS ARRAY<FLOAT>), CAST(array() AS ARRAY<FLOAT>))", { json: '{"r":0.0}', type: "float" }],
  ["vector_inner_product(array(1.0F, NULL), array(1.0F, 2.0F))", { json: "{}", type: "float" }],
  ["vector_l2_distance(array(1.0F, NULL), array(1.0F, 2.0F))", { json: "{}", type: "float" }],
  ["vector_norm(array(1.0F, NULL))", { json: "{}", type: "float" }],
  ["vector_normalize(array(1.0F, NULL))", { json: "{}", type: "array<float>" }],
  ["vector_inner_product(CAST(NULL AS ARRAY<FLOAT>), array(1.0F))", { json: "{}", type: "float" }],
  ["vector_inner_product(array(float('nan'), 1.0F), array(1.0F, 1.0F))", { json: '{"r":"NaN"}', type: "float" }],
  ["vector_norm(array(float('inf'), 1.0F))", { json: '{"r":"Infinity"}', type: "float" }],
  ["vector_normalize(array(float('inf'), 1.0F))", { json: '{"r":["NaN",0.0]}', type: "array<float>" }],
  ["vector_cosine_similarity(array(float('inf'), 1.0F), array(1.0F, 1.0F))", { json: '{"r":"NaN"}', type: "float" }],
  ["vector_inner_product(array(3.0E38F, 3.0E38F), array(2.0F, 2.0F))", { json: '{"r":"Infinity"}', type: "float" }],
  ["vector_norm(array(3.0E38F, 3.0E38F))", { json: '{"r":"Infinity"}', type: "float" }],
  ["vector_normalize(array(3.0E38F, 3.0E38F))", { json: '{"r":[0.70710677,0.70710677]}', type: "array<float>" }],
  ["vector_cosine_similarity(array(3.0E38F, 3.0E38F), array(3.0E38F, 3.0E38F))", { json: '{"r":1.0}', type: "float" }],
  ["vector_l2_distance(array(3.0E38F, -3.0E38F), array(-3.0E38F, 3.0E38F))", { json: '{"r":"Infinity"}', type: "float" }],
  ["vector_norm(array(1.0E-30F, 1.0E-30F))", { json: '{"r":1.4142136E-30}', type: "float" }],
  ["vector_normalize(array(1.0E-30F, 1.0E-30F))", { json: '{"r":[0.70710677,0.70710677]}', type: "array<float>" }],
  ["vector_cosine_similarity(array(1.0E-30F, 1.0E-30F), array(1.0E-30F, 2.0E-30F))", { json: '{"r":0.9486833}', type: "float" }],
  ["vector_inner_product(array(1.0F), array(1.0F, 2.0F))", { error: "VECTOR_DIMENSION_MISMATCH" }],
  ["vector_l2_distance(array(1.0F), array(1.0F, 2.0F))", { error: "VECTOR_DIMENSION_MISMATCH" }],
  ["vector_norm(array(1, 2))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["vector_norm(array(3.0F, 4.0F), 2)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["vector_norm(array(3.0F, 4.0F), 2.0D)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["vector_norm(array(3.0F, 4.0F), 0.0F)", { error: "INVALID_VECTOR_NORM_DEGREE" }],
  ["vector_inner_product(array(1.0F), 'a')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["vector_inner_product(CAST(array(1.5) AS ARRAY<FLOAT>), array(2.0F))", { json: '{"r":3.0}', type: "float" }],
];

const aggregate = async (values: string) =>
  (
    await session
      .sql(`SELECT to_json(named_struct('a', vector_avg(col), 's', vector_sum(col))) FROM VALUES ${values} AS tab(col)`)
      .toArray()
  )[0]![0];

describe("vector functions (ARRAY<FLOAT>)", () => {
  it("give PySpark 4.3's answers", async () => {
    for (const [expr, expected] of PYSPARK) assert.deepEqual(await exprOutcome(session, expr), expected, expr);
  });

  it("vector_sum adds in FLOAT, vector_avg in double; NULL vectors and vectors with a NULL element are skipped (PySpark 4.3)", async () => {
    assert.equal(
      await aggregate("(array(1.0F, 2.0F)), (CAST(NULL AS ARRAY<FLOAT>)), (array(3.0F, 4.0F))"),
      '{"a":[2.0,3.0],"s":[4.0,6.0]}',
    );
    assert.equal(await aggregate("(array(1.0F, 2.0F)), (array(NULL, 4.0F))"), '{"a":[1.0,2.0],"s":[1.0,2.0]}');
    assert.equal(await aggregate("(CAST(NULL AS ARRAY<FLOAT>))"), "{}");
    assert.equal(await aggregate("(array(3.0E38F)), (array(3.0E38F))"), '{"a":[3.0E38],"s":["Infinity"]}');
    assert.equal(await aggregate("(array(float('nan'))), (array(1.0F))"), '{"a":["NaN"],"s":["NaN"]}');
    assert.equal(await aggregate("(CAST(array() AS ARRAY<FLOAT>)), (CAST(array() AS ARRAY<FLOAT>))"), '{"a":[],"s":[]}');
    const tenths = await session
      .sql(
        "SELECT to_json(named_struct('a', vector_avg(col), 's', vector_sum(col))) FROM (SELECT array(0.1F, 1.0E8F) AS col FROM range(10))",
      )
      .toArray();
    assert.equal(tenths[0]![0], '{"a":[0.1,1.0E8],"s":[1.0000001,1.0E9]}');
    await assert.rejects(
      aggregate("(array(1.0F, 2.0F)), (array(3.0F))"),
      /\[VECTOR_DIMENSION_MISMATCH\] Vectors passed to `vector_avg` must have the same dimension, but got 2 and 1/,
    );
    assert.throws(
      () => session.sql("SELECT vector_sum(col) FROM VALUES (array(1.0D)) AS tab(col)").schema,
      /requires the "ARRAY<FLOAT>" type/,
    );
  });

  it("a streaming vector_avg / vector_sum over several batches merges its partial buffers to the batch answer", async () => {
    const stream = session.memoryStream("k STRING, v ARRAY<FLOAT>");
    // eighths and quarters: FLOAT sums exact in any order (the batches' partial sums add in another order than one pass)
    const rows = Array.from({ length: 30 }, (_, i) => ({ k: `k${i % 3}`, v: [i / 8, 1 - i / 4] }));
    const q = await stream
      .toDF()
      .groupBy("k")
      .agg(F.vector_avg("v").alias("a"), F.vector_sum("v").alias("s"))
      .writeStream.format("memory")
      .queryName("vector_aggs")
      .outputMode("complete")
      .start();
    for (let b = 0; b < 3; b++) {
      stream.addData(rows.slice(b * 10, b * 10 + 10));
      await q.processAllAvailable();
    }
    await q.stop();
    const streamed = await session.sql("SELECT k, a, s FROM vector_aggs ORDER BY k").collect();
    const batch = await session
      .createDataFrame(rows, "k STRING, v ARRAY<FLOAT>")
      .groupBy("k")
      .agg(F.vector_avg("v").alias("a"), F.vector_sum("v").alias("s"))
      .orderBy("k")
      .collect();
    assert.deepEqual(streamed, batch);
  });

  it("normalize gives a unit vector, cosine of a vector with a positive multiple of itself is 1, l2 distance is the norm of the difference (property)", async () => {
    const float = fc.float({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }).map(Math.fround);
    await fc.assert(
      fc.asyncProperty(fc.array(float, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 50 }), async (v, k) => {
        const lit = (a: number[]) => `array(${a.map((x) => `CAST(${x} AS FLOAT)`).join(", ")})`;
        const scaled = v.map((x) => Math.fround(x * k));
        const [norm, unit, cos, dist, diffNorm] = (
          await session
            .sql(
              `SELECT vector_norm(${lit(v)}), vector_norm(vector_normalize(${lit(v)})), vector_cosine_similarity(${lit(v)}, ${lit(scaled)}), ` +
                `vector_l2_distance(${lit(v)}, ${lit(scaled)}), vector_norm(${lit(v.map((x, i) => Math.fround(x - scaled[i]!)))})`,
            )
            .toArray()
        )[0]! as (number | null)[];
        if (norm === 0) {
          assert.equal(unit, null);
          assert.equal(cos, null);
          return;
        }
        assert.ok(Math.abs(unit! - 1) < 1e-6, `|normalize(v)| = ${unit}`);
        assert.ok(Math.abs(cos! - 1) < 1e-6, `cos = ${cos}`);
        assert.ok(Math.abs(dist! - diffNorm!) <= 1e-6 * Math.max(1, diffNorm!), `${dist} vs ${diffNorm}`);
      }),
      { numRuns: 60 },
    );
  });
});
