// interleave (Expand's one-pass layout) must equal concatenating the parts and gathering row i
// of part j into position i * k + j, for every physical layout, NULLs and structs included.
import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";
import { concatVectors, getValue, interleave, take, vectorFromValues } from "../../src/columnar/vector.js";
import { type DataType, field, IntegerType, LongType, StringType, StructOf } from "../../src/types/datatypes.js";

const WINDOW = StructOf([field("start", LongType), field("end", LongType)]);
const TYPES: { type: DataType; value: fc.Arbitrary<unknown> }[] = [
  { type: IntegerType, value: fc.integer({ min: -5, max: 5 }) },
  { type: StringType, value: fc.string({ maxLength: 3 }) },
  { type: WINDOW, value: fc.record({ start: fc.option(fc.integer(), { nil: null }), end: fc.integer() }) },
];

/** A type and k parts of n rows each (with or without NULLs). */
const input = fc.constantFrom(...TYPES).chain((t) =>
  fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 12 }), fc.boolean()).chain(([k, n, nulls]) => {
    const part = fc.array(nulls ? fc.option(t.value, { nil: null }) : t.value, { minLength: n, maxLength: n });
    return fc.record({ type: fc.constant(t.type), n: fc.constant(n), parts: fc.array(part, { minLength: k, maxLength: k }) });
  }),
);

it("interleave equals concat + gather", () => {
  fc.assert(
    fc.property(input, ({ type, n, parts: raw }) => {
      const k = raw.length;
      const parts = raw.map((vals) => vectorFromValues(type, vals as unknown[]));
      const idx = new Int32Array(n * k);
      for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) idx[i * k + j] = j * n + i;
      const want = take(concatVectors(type, parts), idx);
      const got = interleave(type, parts);
      assert.equal(got.length, n * k);
      for (let r = 0; r < n * k; r++) assert.deepStrictEqual(getValue(got, r), getValue(want, r), `row ${r}`);
    }),
    { numRuns: 300 },
  );
});
