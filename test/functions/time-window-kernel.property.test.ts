/**
 * `__time_window`'s kernel reuses the previous row's window when a row falls in the same slide
 * (session 13: streams come in time order, and the division was most of the kernel). Property:
 * every row's window is Spark's floor-aligned formula, computed alone — rows in and out of
 * order, before the epoch, with start offsets, NULL rows, for every candidate i.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { makeVector } from "../../src/columnar/vector.js";
import "../../src/functions/windows.js";
import { lookupFunction, type ScalarFunction } from "../../src/functions/registry.js";
import { LongType, TimestampType } from "../../src/types/datatypes.js";

const kernel = (lookupFunction("__time_window") as ScalarFunction).kernel;
const lit = (x: number, n: number) => makeVector(LongType, new Float64Array(n).fill(x), null, n);

test("each row's window is the formula's, whatever the row before it", () => {
  fc.assert(
    fc.property(
      fc.array(fc.option(fc.integer({ min: -30_000_000, max: 30_000_000 }), { nil: null, freq: 10 }), { minLength: 1, maxLength: 200 }),
      fc.constantFrom([10_000_000, 2_000_000], [10_000_000, 10_000_000], [3_000_000, 1_000_000], [7, 7]),
      fc.integer({ min: -3_000_000, max: 3_000_000 }),
      fc.integer({ min: 0, max: 4 }),
      fc.boolean(),
      (vals, [w, s], st, i, sorted) => {
        const ts = sorted ? [...vals].sort((a, b) => (a ?? 0) - (b ?? 0)) : vals;
        const n = ts.length;
        const tsv = makeVector(
          TimestampType,
          Float64Array.from(ts, (x) => x ?? 0),
          Uint8Array.from(ts, (x) => (x === null ? 0 : 1)),
          n,
        );
        const out = kernel([tsv, lit(w, n), lit(s, n), lit(st % s, n), lit(i, n)], n, {} as never);
        const start = out.children![0]!.values as Float64Array;
        const end = out.children![1]!.values as Float64Array;
        for (let r = 0; r < n; r++) {
          const x = ts[r] ?? 0;
          const rem = (x - (st % s)) % s;
          const want = x - (rem < 0 ? rem + s : rem) - i * s;
          assert.equal(start[r], want, `row ${r} (${x}): start`);
          assert.equal(end[r], want + w, `row ${r} (${x}): end`);
        }
        assert.deepEqual([...out.validity!], [...tsv.validity!]);
      },
    ),
    { numRuns: 400 },
  );
});
