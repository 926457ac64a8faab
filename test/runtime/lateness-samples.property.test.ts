/**
 * The watermark node keeps every step-th row's lateness instead of all of them
 * (LatenessSampler, execution/stateful/context.ts); the profile it gives must equal the one
 * computed from every row's lateness the way it was before (sample every step-th, sort, read
 * the percentiles), on both sides of the 16 384-sample limit.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { LATENESS_SAMPLES, LatenessSampler } from "../../src/execution/stateful/context.js";
import { latenessProfile } from "../../src/runtime/progress.js";

/** The profile from the full per-row lateness array (the former `latenessProfile`). */
function reference(all: Float64Array) {
  const n = all.length;
  let max = 0;
  for (let i = 0; i < n; i++) if (all[i]! > max) max = all[i]!;
  const step = Math.max(1, Math.ceil(n / LATENESS_SAMPLES));
  const s = new Float64Array(Math.ceil(n / step));
  for (let i = 0, k = 0; i < n; i += step) s[k++] = all[i]!;
  s.sort();
  const q = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]! : 0);
  return { count: n, p50: q(0.5), p90: q(0.9), p99: q(0.99), max, delayFor99: q(0.99), delayFor999: q(0.999) };
}

test("sampled lateness gives the profile of every row's lateness", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: LATENESS_SAMPLES - 3, max: 3 * LATENESS_SAMPLES + 7 })),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (n, seed) => {
        let x = seed;
        const all = new Float64Array(n);
        const sampler = new LatenessSampler(n);
        for (let i = 0; i < n; i++) {
          x = (Math.imul(x, 1103515245) + 12345) >>> 0;
          // mostly on time (0), some late by up to ~10 s
          all[i] = x % 3 === 0 ? 0 : x % 10_000;
          sampler.add(all[i]!);
        }
        assert.deepEqual(latenessProfile(sampler.result()), reference(all));
      },
    ),
    { numRuns: 60 },
  );
});

test("the percentiles are those of the sorted samples, whatever their order and ties", () => {
  const samples = fc.oneof(
    fc.float64Array({ noNaN: true, maxLength: 400 }),
    fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 400 }).map((xs) => Float64Array.from(xs)),
    fc.nat(3000).map((n) => Float64Array.from({ length: n }, (_, i) => i)),
    fc.nat(3000).map((n) => Float64Array.from({ length: n }, (_, i) => n - i)),
  );
  fc.assert(
    fc.property(samples, (s) => {
      const sorted = s.slice().sort();
      const q = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : 0);
      const got = latenessProfile({ count: s.length, max: 0, samples: s });
      // -0 and 0 are one lateness
      const same = (a: number, b: number) => a === b;
      assert.ok(
        same(got.p50, q(0.5)) && same(got.p90, q(0.9)) && same(got.p99, q(0.99)) && same(got.delayFor999, q(0.999)),
        JSON.stringify({ got, s: [...s] }),
      );
    }),
    { numRuns: 300 },
  );
});
