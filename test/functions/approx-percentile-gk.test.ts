/**
 * percentile_approx as Spark computes it (functions/quantile-summaries.ts: Spark's
 * Greenwald-Khanna summary, step for step): PySpark 4.3's values, also where the summary is
 * approximate (a small accuracy; 120 000 values, past the head buffer and compressions), which
 * the exact rank ceil(p × n) missed (24 where Spark says 24 and the rank 25). Then the summary's
 * bound: every answer within ε·n ranks of the exact one (property).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { QuantileSummaries } from "../../src/functions/quantile-summaries.js";
import { Session } from "../../src/index.js";
import { type QueryOutcome, queryOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().getOrCreate();

const PYSPARK: [string, QueryOutcome][] = [
  [
    "SELECT percentile_approx(v, array(0.25, 0.5, 0.75), 100) AS p FROM range(1, 101) AS t(v)",
    { columns: ["p"], rows: ['{"p":[24,49,74]}'] },
  ],
  ["SELECT percentile_approx(v, 0.5) AS p FROM range(1, 101) AS t(v)", { columns: ["p"], rows: ['{"p":50}'] }],
  [
    "SELECT percentile_approx(v, array(0.1, 0.5, 0.9, 0.99), 1000) AS p FROM (SELECT (id * 7919) % 100003 AS v FROM range(60000))",
    { columns: ["p"], rows: ['{"p":[10027,49975,89937,98930]}'] },
  ],
  [
    "SELECT percentile_approx(v, array(0.01, 0.5, 0.999)) AS p FROM (SELECT (id * 7919) % 100003 AS v FROM range(120000))",
    { columns: ["p"], rows: ['{"p":[988,49996,99898]}'] },
  ],
  [
    "SELECT percentile_approx(v, 0.3, 50) AS p FROM (SELECT CAST((id * 31) % 997 AS DOUBLE) / 7 AS v FROM range(5000))",
    { columns: ["p"], rows: ['{"p":41.714285714285715}'] },
  ],
  [
    "SELECT percentile_approx(v, 0.5) AS p FROM VALUES (DATE'2024-01-01'), (DATE'2024-01-09') AS t(v)",
    { columns: ["p"], rows: ['{"p":"2024-01-01"}'] },
  ],
  [
    "SELECT k, percentile_approx(v, 0.75, 20) AS p FROM (SELECT id % 3 AS k, (id * 13) % 101 AS v FROM range(3000)) GROUP BY k",
    { columns: ["k", "p"], rows: ['{"k":0,"p":71}', '{"k":1,"p":71}', '{"k":2,"p":70}'] },
  ],
  ["SELECT percentile_approx(v, 0.5) AS p FROM VALUES (CAST(NULL AS INT)) AS t(v)", { columns: ["p"], rows: ["{}"] }],
  ["SELECT percentile_approx(CAST(v AS FLOAT), 0.5, 100) AS p FROM range(1, 101) AS t(v)", { columns: ["p"], rows: ['{"p":49.0}'] }],
];

describe("percentile_approx (Spark's quantile summary)", () => {
  it("gives PySpark 4.3's values", async () => {
    for (const [sql, expected] of PYSPARK) assert.deepEqual(await queryOutcome(session, sql), expected, sql);
  });

  it("answers within ε·n ranks of the exact quantile (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 3000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 10, max: 500 }),
        (values, p, accuracy) => {
          const s = new QuantileSummaries(1 / accuracy);
          for (const v of values) s.insert(v);
          const [q] = s.query([p])!;
          const sorted = [...values].sort((a, b) => a - b);
          const n = sorted.length;
          // q's rank range in the sorted values must come within 2εn of ceil(p·n) (the GK guarantee; ε = 1 / accuracy)
          const lo = sorted.findIndex((v) => v >= q!) + 1;
          const hi = n - [...sorted].reverse().findIndex((v) => v <= q!);
          const target = Math.min(Math.max(Math.ceil(p * n), 1), n);
          const slack = Math.ceil((2 * n) / accuracy) + 1;
          assert.ok(lo - slack <= target && target <= hi + slack, `q=${q} ranks ${lo}..${hi}, target ${target} ± ${slack}`);
        },
      ),
      { numRuns: 100 },
    );
  });
});
