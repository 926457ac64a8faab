/**
 * explode / explode_outer / posexplode against their definition as a flatMap over rows: for any
 * arrays (NULL, empty, NULL elements), explode gives each element in order beside its row,
 * explode_outer gives max(1, length) rows per input row (NULL for a NULL or empty array), and
 * posexplode numbers them from 0. The operator gathers by row index over whole batches, so this
 * checks the index arithmetic, not just the small cases of generators.test.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { functions as F } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const session = utcSession();

type Row = { id: number; arr: (string | null)[] | null };
const rows: fc.Arbitrary<Row[]> = fc
  .array(fc.option(fc.array(fc.option(fc.string({ maxLength: 3 }), { freq: 5 }), { maxLength: 5 }), { freq: 5 }), { maxLength: 40 })
  .map((arrs) => arrs.map((arr, id) => ({ id, arr })));

test("explode, explode_outer and posexplode are flatMaps over the rows, in order", async () => {
  await fc.assert(
    fc.asyncProperty(rows, async (input) => {
      const df = session.createDataFrame(input, "id INT, arr ARRAY<STRING>");
      const exploded = await df.select("id", F.explode("arr")).collect();
      assert.deepEqual(
        exploded,
        input.flatMap((r) => (r.arr ?? []).map((col) => ({ id: r.id, col }))),
      );
      const outer = await df.select("id", F.explode_outer("arr")).collect();
      assert.equal(
        outer.length,
        input.reduce((n, r) => n + Math.max(1, r.arr?.length ?? 0), 0),
      );
      assert.deepEqual(
        outer,
        input.flatMap((r) => (r.arr?.length ? r.arr.map((col) => ({ id: r.id, col })) : [{ id: r.id, col: null }])),
      );
      const positioned = await df.select(F.posexplode("arr"), "id").collect();
      assert.deepEqual(
        positioned,
        input.flatMap((r) => (r.arr ?? []).map((col, pos) => ({ pos, col, id: r.id }))),
      );
    }),
    { numRuns: 60 },
  );
});
