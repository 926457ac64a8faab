/**
 * GroupIndex.assign skips hashing a row whose key repeats the row before it (group-runs.ts).
 * Whatever the runs, the group ids must be those of "one group per distinct key, numbered in
 * order of first appearance", across batches, with NULLs, NaN (one group), -0.0 and 0.0 (one
 * group), struct keys (a window) and strings in both layouts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { utf8FromStrings, utf8Vector } from "../../src/columnar/utf8.js";
import { makeVector, type Vector, vectorFromValues } from "../../src/columnar/vector.js";
import { GroupIndex } from "../../src/execution/group-index.js";
import { DoubleType, LongType, StringType, WindowStructType } from "../../src/types/datatypes.js";

type Key = [number | null, number | null, string | null, number | null];

const key: fc.Arbitrary<Key> = fc.tuple(
  fc.option(fc.integer({ min: 0, max: 3 }), { freq: 8 }),
  fc.option(fc.integer({ min: -2, max: 2 }), { freq: 8 }),
  fc.option(fc.constantFrom("", "a", "é", "日本", "bid"), { freq: 8 }),
  fc.option(fc.constantFrom(0, -0, 1.5, Number.NaN), { freq: 8 }),
);
/** Keys in runs (a key repeated 1–400 times), as time-ordered streams give window keys. */
const batch = fc
  .array(fc.tuple(key, fc.integer({ min: 1, max: 400 })), { minLength: 1, maxLength: 8 })
  .map((runs) => runs.flatMap(([k, r]) => Array<Key>(r).fill(k)));

/** The reference identity of a key: NaN equals NaN, -0.0 equals 0.0. */
const identity = (k: Key): string => JSON.stringify(k.map((x) => (typeof x === "number" && Number.isNaN(x) ? "NaN" : x)));

function vectors(keys: readonly Key[], utf8: boolean): Vector[] {
  const n = keys.length;
  const nullWin = keys.map((k) => k[0] === null);
  const start = Float64Array.from(keys, (k) => (k[0] ?? 0) * 10_000_000);
  const win = makeVector(WindowStructType, [], nullWin.some((x) => x) ? Uint8Array.from(nullWin, (x) => (x ? 0 : 1)) : null, n, [
    makeVector(WindowStructType.fields[0]!.type, start, null, n),
    makeVector(
      WindowStructType.fields[1]!.type,
      start.map((s) => s + 10_000_000),
      null,
      n,
    ),
  ]);
  const strings = keys.map((k) => k[2]);
  const u = utf8FromStrings(strings);
  const validity = strings.some((x) => x === null) ? Uint8Array.from(strings, (x) => (x === null ? 0 : 1)) : null;
  const str = utf8 && u ? utf8Vector(StringType, u, validity, n) : vectorFromValues(StringType, strings);
  return [
    win,
    vectorFromValues(
      LongType,
      keys.map((k) => k[1]),
    ),
    str,
    vectorFromValues(
      DoubleType,
      keys.map((k) => k[3]),
    ),
  ];
}

test("group ids with runs of equal keys are one per distinct key, in order of first appearance", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(batch, fc.boolean()), { minLength: 1, maxLength: 4 }), (batches) => {
      const index = new GroupIndex([WindowStructType, LongType, StringType, DoubleType]);
      const ids = new Map<string, number>();
      for (const [keys, utf8] of batches) {
        const got = index.assign(vectors(keys, utf8), keys.length);
        const want = keys.map((k) => {
          const id = identity(k);
          if (!ids.has(id)) ids.set(id, ids.size);
          return ids.get(id)!;
        });
        assert.deepStrictEqual([...got], want);
        // probe hashes every row: the run-skipping rows must have hashed alike
        assert.deepStrictEqual([...index.probe(vectors(keys, !utf8), keys.length)], want);
      }
      assert.equal(index.numGroups, ids.size);
    }),
    { numRuns: 200 },
  );
});
