// stddev / variance and friends: Spark's figures (PySpark 4.3 on the same rows), and the property
// that folding rows in one buffer or in several merged buffers gives the same moments (the
// streaming state merges a batch's partial buffer into the stored one).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { makeVector } from "../../src/columnar/vector.js";
import { lookupFunction } from "../../src/functions/registry.js";
import { functions as F } from "../../src/index.js";
import { DoubleType } from "../../src/types/datatypes.js";
import "../../src/functions/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();

describe("variance and standard deviation", () => {
  it("match Spark, NULL for no rows and (sample forms) one row", async () => {
    const df = s.createDataFrame(
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "a", v: 4 },
        { k: "b", v: 3 },
        { k: "c", v: null },
        { k: "a", v: 10.5 },
      ],
      "k STRING, v DOUBLE",
    );
    const out = df.groupBy("k").agg(F.stddev("v"), F.stddev_pop("v"), F.variance("v"), F.var_pop("v")).orderBy("k");
    assert.deepEqual(out.columns, ["k", "stddev(v)", "stddev_pop(v)", "variance(v)", "var_pop(v)"]);
    assert.deepEqual(await out.toArray(), [
      ["a", 4.269562819149832, 3.69754986443726, 18.229166666666664, 13.671874999999998],
      ["b", null, 0, null, 0],
      ["c", null, null, null, null],
    ]);
    assert.deepEqual(
      await s.sql("SELECT stddev(x), var_samp(x), stddev_pop(x), std(x) FROM VALUES (0.1), (0.2), (0.3), (1e10) t(x)").toArray(),
      [[4999999999.9, 24999999999000000000, 4330127018.83559, 4999999999.9]],
    );
  });

  it("one buffer or several merged give the same moments", () => {
    const fn = lookupFunction("var_pop");
    assert.ok(fn?.kind === "aggregate");
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (xs, cuts) => {
          const one = fn.create([DoubleType], DoubleType, false, []);
          one.resize(1);
          one.update(new Int32Array(xs.length), xs.length, [makeVector(DoubleType, Float64Array.from(xs), null)]);
          const merged = fn.create([DoubleType], DoubleType, false, []);
          merged.resize(1);
          const bounds = [...new Set(cuts.map((c) => c % xs.length))].sort((a, b) => a - b);
          let from = 0;
          for (const to of [...bounds, xs.length]) {
            if (to <= from) continue;
            const part = fn.create([DoubleType], DoubleType, false, []);
            part.resize(1);
            part.update(new Int32Array(to - from), to - from, [makeVector(DoubleType, Float64Array.from(xs.slice(from, to)), null)]);
            merged.merge(new Int32Array(1), 1, part.buffers(1));
            from = to;
          }
          const a = one.evaluate(1).values[0] as number;
          const b = merged.evaluate(1).values[0] as number;
          assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)), `${a} vs ${b}`);
        },
      ),
    );
  });
});
