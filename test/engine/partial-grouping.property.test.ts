/**
 * Stage A's grouping (execution/partial/partial-grouping.ts) groups exactly as the general
 * GroupIndex: the same group id for every row, ids in order of first appearance, and the same
 * distinct keys — over the key types stage A groups by (a window struct, a STRING as UTF-8 bytes
 * or JS strings, BIGINT with values beyond ±2^53 − 1, INT, BOOLEAN), NULLs in each, several
 * batches into one index, rows independent or in runs of one key. Struct fields on the exact
 * 64-bit lane take the GroupIndex.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { utf8FromStrings, utf8Vector } from "../../src/columnar/utf8.js";
import { getValue, makeVector, type Vector } from "../../src/columnar/vector.js";
import { GroupIndex } from "../../src/execution/group-index.js";
import { partialGrouping } from "../../src/execution/partial/partial-grouping.js";
import {
  BooleanType,
  type DataType,
  field,
  IntegerType,
  LongType,
  StringType,
  StructOf,
  TimestampType,
} from "../../src/types/datatypes.js";

const WINDOW = StructOf([field("start", TimestampType), field("end", TimestampType)]);

type Row = { w: number | null; s: string | null; l: bigint | null; i: number | null; b: boolean | null };

const row: fc.Arbitrary<Row> = fc.record({
  w: fc.option(fc.constantFrom(0, 10_000_000, 20_000_000, -10_000_000), { freq: 10 }),
  s: fc.option(fc.constantFrom("a", "b", "", "é", "日本", "a\u0000"), { freq: 10 }),
  l: fc.option(
    fc.oneof(
      { weight: 9, arbitrary: fc.integer({ min: -5, max: 5 }).map(BigInt) },
      { weight: 1, arbitrary: fc.constantFrom(2n ** 53n, 2n ** 53n + 2n) },
    ),
    { freq: 10 },
  ),
  i: fc.option(fc.integer({ min: -2, max: 2 }), { freq: 10 }),
  b: fc.option(fc.boolean(), { freq: 10 }),
});

/** A batch's rows: independent, or in runs of one key (rows in event-time order), which the grouping looks up once per run. */
const batchRows: fc.Arbitrary<Row[]> = fc.oneof(
  fc.array(row, { maxLength: 300 }),
  fc
    .array(fc.tuple(row, fc.integer({ min: 1, max: 60 })), { maxLength: 20 })
    .map((runs) => runs.flatMap(([r, k]) => Array<Row>(k).fill(r))),
);

const validityOf = (vals: readonly unknown[]) => (vals.some((v) => v === null) ? Uint8Array.from(vals, (v) => (v === null ? 0 : 1)) : null);

function windows(vals: (number | null)[]): Vector {
  const n = vals.length;
  const start = makeVector(
    TimestampType,
    Float64Array.from(vals, (v) => v ?? 0),
    null,
    n,
  );
  const end = makeVector(
    TimestampType,
    Float64Array.from(vals, (v) => (v ?? 0) + 10_000_000),
    null,
    n,
  );
  return makeVector(WINDOW, new Array(n).fill(null), validityOf(vals), n, [start, end]);
}

function strings(vals: (string | null)[], utf8: boolean): Vector {
  const n = vals.length;
  const u = utf8 ? utf8FromStrings(vals, n) : null;
  return u ? utf8Vector(StringType, u, validityOf(vals), n) : makeVector(StringType, [...vals], validityOf(vals), n);
}

function longs(vals: (bigint | null)[]): Vector {
  const n = vals.length;
  const unsafe = vals.some((v) => v !== null && (v > 2n ** 53n - 1n || v < -(2n ** 53n - 1n)));
  const values = unsafe ? BigInt64Array.from(vals, (v) => v ?? 0n) : Float64Array.from(vals, (v) => Number(v ?? 0n));
  return makeVector(LongType, values, validityOf(vals), n);
}

const COLUMNS: Record<keyof Row, { type: DataType; vector: (rows: Row[], utf8: boolean) => Vector }> = {
  w: { type: WINDOW, vector: (rows) => windows(rows.map((r) => r.w)) },
  s: {
    type: StringType,
    vector: (rows, utf8) =>
      strings(
        rows.map((r) => r.s),
        utf8,
      ),
  },
  l: { type: LongType, vector: (rows) => longs(rows.map((r) => r.l)) },
  i: {
    type: IntegerType,
    vector: (rows) =>
      makeVector(
        IntegerType,
        Int32Array.from(rows, (r) => r.i ?? 0),
        validityOf(rows.map((r) => r.i)),
        rows.length,
      ),
  },
  b: {
    type: BooleanType,
    vector: (rows) =>
      makeVector(
        BooleanType,
        Uint8Array.from(rows, (r) => (r.b ? 1 : 0)),
        validityOf(rows.map((r) => r.b)),
        rows.length,
      ),
  },
};

const valuesOf = (v: Vector) => Array.from({ length: v.length }, (_, i) => getValue(v, i));

test("stage A's grouping: the same group ids and distinct keys as the GroupIndex", () => {
  const keyShape = fc.constantFrom<(keyof Row)[]>(["w", "s"], ["w", "l"], ["w"], ["s"], ["l", "i", "b"], ["w", "s", "i"], ["b"]);
  fc.assert(
    fc.property(keyShape, fc.array(batchRows, { minLength: 1, maxLength: 4 }), fc.boolean(), (shape, batches, utf8) => {
      const types = shape.map((c) => COLUMNS[c].type);
      const keysOf = batches.map((rows) => shape.map((c) => COLUMNS[c].vector(rows, utf8)));
      const got = partialGrouping(types, keysOf);
      const want = new GroupIndex(types);
      for (let b = 0; b < batches.length; b++) {
        const n = batches[b]!.length;
        if (n === 0) continue;
        assert.deepStrictEqual([...got.assign(keysOf[b]!, n)], [...want.assign(keysOf[b]!, n)], `batch ${b}`);
      }
      assert.equal(got.numGroups, want.numGroups);
      assert.deepStrictEqual(got.keyVectors().map(valuesOf), want.keyVectors().map(valuesOf));
    }),
    { numRuns: 400 },
  );
});

test("stage A's grouping: a window whose bounds are beyond ±2^53 − 1 µs takes the GroupIndex", () => {
  const wide = makeVector(TimestampType, BigInt64Array.from([2n ** 53n + 1n, 2n ** 53n + 1n]), null, 2);
  const w = makeVector(WINDOW, [null, null], null, 2, [wide, wide]);
  const g = partialGrouping([WINDOW], [[w]]);
  assert.ok(g instanceof GroupIndex);
  assert.deepStrictEqual([...g.assign([w], 2)], [0, 0]);
});
