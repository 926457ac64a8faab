/**
 * GroupIndex's inline probe for one or two numeric leaves without NULLs (`probeNumeric`,
 * session 13) groups exactly as the leaf-by-leaf probe: NaN with NaN, -0.0 with 0.0, BIGINT
 * beyond ±2^53 − 1 by exact value (those batches take the leaf-by-leaf probe, into the same
 * index), batches with NULLs mixed in, and the table growing mid-batch. The reference is a Map
 * over a canonical text of each key, ids in order of first appearance.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { makeVector, type Vector } from "../../src/columnar/vector.js";
import { GroupIndex } from "../../src/execution/group-index.js";
import { DoubleType, IntegerType, LongType } from "../../src/types/datatypes.js";

const double = fc.constantFrom(0, -0, 1.5, -2, Number.NaN, 1e300, 7);
const int = fc.integer({ min: -3, max: 3 });
/** Safe BIGINTs, mostly; 2^53 and 2^53 + 2 are unsafe (and distinct as exact values). */
const long = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: -1000, max: 1000 }).map(BigInt) },
  { weight: 1, arbitrary: fc.constantFrom(2n ** 53n, 2n ** 53n + 2n, 2n ** 53n - 1n) },
);

type Key = [number | null, bigint | null];
const keyText = ([d, l]: Key) => `${d === null ? "null" : Number.isNaN(d) ? "NaN" : String(d === 0 ? 0 : d)}|${l ?? "null"}`;

function doubles(vals: (number | null)[]): Vector {
  const n = vals.length;
  const nulls = vals.some((v) => v === null);
  return makeVector(
    DoubleType,
    Float64Array.from(vals, (v) => v ?? 0),
    nulls ? Uint8Array.from(vals, (v) => (v === null ? 0 : 1)) : null,
    n,
  );
}

function longs(vals: (bigint | null)[]): Vector {
  const n = vals.length;
  const nulls = vals.some((v) => v === null);
  const validity = nulls ? Uint8Array.from(vals, (v) => (v === null ? 0 : 1)) : null;
  const unsafe = vals.some((v) => v !== null && (v > 2n ** 53n - 1n || v < -(2n ** 53n - 1n)));
  // the wide lane when a value is unsafe (columnar/int64.ts), doubles otherwise
  if (unsafe)
    return makeVector(
      LongType,
      BigInt64Array.from(vals, (v) => v ?? 0n),
      validity,
      n,
    );
  return makeVector(
    LongType,
    Float64Array.from(vals, (v) => Number(v ?? 0n)),
    validity,
    n,
  );
}

test("two numeric keys: the same groups as a map of their values", () => {
  const row = fc.tuple(fc.option(double, { freq: 12 }), fc.option(long, { freq: 12 })) as fc.Arbitrary<Key>;
  fc.assert(
    fc.property(fc.array(fc.array(row, { maxLength: 400 }), { minLength: 1, maxLength: 4 }), (batches) => {
      const gi = new GroupIndex([DoubleType, LongType]);
      const ref = new Map<string, number>();
      for (const rows of batches) {
        const n = rows.length;
        const got = gi.assign([doubles(rows.map((r) => r[0])), longs(rows.map((r) => r[1]))], n);
        const want = rows.map((r) => {
          const k = keyText(r);
          if (!ref.has(k)) ref.set(k, ref.size);
          return ref.get(k)!;
        });
        assert.deepStrictEqual([...got], want);
      }
      assert.equal(gi.numGroups, ref.size);
    }),
    { numRuns: 300 },
  );
});

test("one INT key over thousands of groups (the table grows mid-batch)", () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -5000, max: 5000 }), { minLength: 1, maxLength: 6000 }), int, (vals, shift) => {
      const gi = new GroupIndex([IntegerType]);
      const ref = new Map<number, number>();
      for (const batch of [vals, vals.map((v) => v + shift)]) {
        const n = batch.length;
        const got = gi.assign([makeVector(IntegerType, Int32Array.from(batch), null, n)], n);
        const want = batch.map((v) => {
          if (!ref.has(v)) ref.set(v, ref.size);
          return ref.get(v)!;
        });
        assert.deepStrictEqual([...got], want);
      }
      const keys = gi.keyVectors()[0]!;
      assert.deepStrictEqual([...(keys.values as Int32Array).subarray(0, keys.length)], [...ref.keys()]);
    }),
    { numRuns: 40 },
  );
});
