/**
 * agg(DISTINCT args) sees each distinct argument tuple once per group, whatever the aggregate
 * (functions/distinct-input.ts): values checked against PySpark 4.3 for aggregates that once
 * ignored DISTINCT (var_pop, covariances, count_if, kurtosis, try_sum, bit_xor, collect_list,
 * multi-argument count, the regressions), and a property holding every listed aggregate to the
 * same aggregate over the rows made distinct first.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const ROWS = "FROM VALUES (1, 2.0D), (1, 2.0D), (2, 4.0D), (3, 4.0D), (3, 8.0D), (NULL, 1.0D) AS t(x, y)";

async function value(expr: string): Promise<unknown> {
  const v = (await session.sql(`SELECT ${expr} AS v ${ROWS}`).toArray())[0]![0];
  return typeof v === "bigint" ? Number(v) : v;
}

describe("DISTINCT aggregates", () => {
  it("match PySpark 4.3 on aggregates that do not deduplicate by themselves", async () => {
    const spark: [string, unknown][] = [
      ["count(DISTINCT x, y)", 4],
      ["sort_array(collect_list(DISTINCT x))", [1, 2, 3]],
      ["sort_array(array_agg(DISTINCT x))", [1, 2, 3]],
      ["var_pop(DISTINCT x)", 0.6666666666666666],
      ["stddev_pop(DISTINCT x)", 0.816496580927726],
      ["stddev_samp(DISTINCT y)", 3.095695936834452],
      ["var_samp(DISTINCT y)", 9.583333333333334],
      ["corr(DISTINCT x, y)", 0.760885910252682],
      ["covar_pop(DISTINCT x, y)", 1.375],
      ["covar_samp(DISTINCT x, y)", 1.8333333333333333],
      ["count_if(DISTINCT x > 1)", 1],
      ["kurtosis(DISTINCT y)", -1.0989792060491494],
      ["skewness(DISTINCT y)", 0.6568077344996993],
      ["try_sum(DISTINCT x)", 6],
      ["bit_xor(DISTINCT x)", 0],
      ["regr_count(DISTINCT y, x)", 4],
      ["regr_sxx(DISTINCT y, x)", 2],
      ["regr_syy(DISTINCT y, x)", 18.666666666666668],
      ["regr_sxy(DISTINCT y, x)", 5.5],
      ["regr_avgx(DISTINCT y, x)", 2],
      ["regr_avgy(DISTINCT y, x)", 4.666666666666667],
      ["regr_r2(DISTINCT y, x)", 0.5789473684210525],
      ["sum(DISTINCT x) FILTER (WHERE y > 1)", 6],
      ["count(DISTINCT y) FILTER (WHERE x > 1)", 2],
      ["avg(DISTINCT y)", 3.75],
      ["median(DISTINCT y)", 3],
    ];
    for (const [expr, want] of spark) {
      const got = await value(expr);
      if (typeof want === "number" && typeof got === "number") assert.ok(Math.abs(got - want) < 1e-12, `${expr}: ${got}, Spark ${want}`);
      else assert.deepEqual(got, want, expr);
    }
  });

  it("mode(DISTINCT x) is refused, as Spark does", async () => {
    await assert.rejects(
      value("mode(DISTINCT x)"),
      /\[INVALID_WITHIN_GROUP_EXPRESSION\.DISTINCT_UNSUPPORTED\] Invalid function `mode` with WITHIN GROUP/,
    );
  });

  it("equal the same aggregate over the rows made distinct first (property)", async () => {
    // each aggregate, the values its arguments read, and the same aggregate over those made distinct
    const aggregates: [string, string, string][] = [
      ["count(DISTINCT x)", "x", "count(x)"],
      ["count(DISTINCT x, y)", "x, y", "count(x, y)"],
      ["sum(DISTINCT x)", "x", "sum(x)"],
      ["var_pop(DISTINCT x)", "x", "var_pop(x)"],
      ["covar_samp(DISTINCT x, y)", "x, y", "covar_samp(x, y)"],
      ["sort_array(collect_list(DISTINCT x))", "x", "sort_array(collect_list(x))"],
      ["count_if(DISTINCT x > 0)", "x > 0 AS c", "count_if(c)"],
      ["bit_xor(DISTINCT x)", "x", "bit_xor(x)"],
      ["percentile(DISTINCT y, 0.5)", "y", "percentile(y, 0.5)"],
      ["regr_sxy(DISTINCT y, x)", "x, y", "regr_sxy(y, x)"],
    ];
    const row = fc.tuple(
      fc.integer({ min: 0, max: 2 }),
      fc.option(fc.integer({ min: -3, max: 3 }), { freq: 5 }),
      fc.option(fc.integer({ min: 0, max: 2 }), { freq: 5 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 30 }), async (rows) => {
        const values = rows.map(([g, x, y]) => `(${g}, ${x ?? "CAST(NULL AS INT)"}, ${y ?? "CAST(NULL AS INT)"})`).join(", ");
        const t = `VALUES ${values} AS t(g, x, y)`;
        for (const [a, cols, plain] of aggregates) {
          const distinct = await session.sql(`SELECT g, ${a} AS v FROM ${t} GROUP BY g ORDER BY g`).toArray();
          const deduplicated = await session
            .sql(`SELECT g, ${plain} AS v FROM (SELECT DISTINCT g, ${cols} FROM ${t}) GROUP BY g ORDER BY g`)
            .toArray();
          assert.deepEqual(distinct, deduplicated, `${a} over ${t}`);
        }
      }),
      { numRuns: 40 },
    );
  });
});
