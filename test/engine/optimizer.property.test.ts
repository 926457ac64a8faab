// The optimizer must never change results: random data, random filter/project pipelines,
// optimized (all rules on) vs unoptimized (every rule excluded) must return the same rows.
import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";
import { RULES } from "../../src/optimizer/optimizer.js";
import { sorted, utcSession } from "./helpers.js";

const s = utcSession();
const row = fc.record({
  a: fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }),
  b: fc.option(fc.double({ min: -10, max: 10, noNaN: true }), { nil: null }),
  c: fc.option(fc.constantFrom("x", "y", "z"), { nil: null }),
});
const predicate = fc.constantFrom(
  "a > 0",
  "a <= 2 AND b > 0",
  "c = 'x' OR a IS NULL",
  "NOT (b < 1)",
  "a + 1 > 2",
  "c IN ('x', 'z')",
  "coalesce(a, 0) = 0",
  "1 + 1 = 2",
  "b * 2 > a",
);
const projection = fc.constantFrom(["a", "b", "c"], ["a + 1 AS a1", "c"], ["upper(c) AS u", "b"], ["a", "b * a AS p", "c"]);

it("optimized and unoptimized plans give the same rows", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(row, { maxLength: 30 }), fc.array(predicate, { maxLength: 3 }), projection, async (rows, preds, proj) => {
      const t = s.createDataFrame(rows, "a INT, b DOUBLE, c STRING");
      const other = s.createDataFrame(
        [
          { c: "x", w: 1 },
          { c: "z", w: 2 },
        ],
        "c STRING, w INT",
      );
      let df = t.join(other, "c", "left");
      for (const p of preds) df = df.filter(p);
      df = df.selectExpr(...proj, "w");
      s.conf.set("arus.optimizer.excludedRules", RULES.map((r) => r.name).join(","));
      const plain = await df.collect();
      s.conf.set("arus.optimizer.excludedRules", "");
      const optimized = await df.collect();
      assert.deepEqual(sorted(optimized), sorted(plain));
    }),
    { numRuns: 60 },
  );
});
