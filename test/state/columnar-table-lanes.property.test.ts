/**
 * The columnar table matches rows on two lanes by value inline (`simpleLanes`, key-codes.ts;
 * `probeHome`, slot-index.ts) for an int lane and an f64 lane as well as two int lanes (session
 * 13: a window and a BIGINT id, Nexmark q5). The property: `lookupOrInsert` gives one entry per
 * distinct key — NaN equal to NaN, -0.0 to 0.0, rows of a key absent before the batch found
 * again after its first row inserted it — whatever batches with NULLs (the general loop)
 * come between, `lookup` finds every key at its entry, and removals keep the rest findable.
 *
 * It found `lookup` taking an INT key of -2 for an unseen dictionary value ("absent"): a
 * removal of such a key in a delta was skipped on recovery, and the evicted entry came back.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { ColumnarStateProvider, ColumnarTable, columnarSchemaOf } from "../../src/state/columnar/index.js";
import { DoubleType, field, IntegerType, LongType, StringType, StructOf, TimestampType } from "../../src/types/datatypes.js";

const SCHEMA = columnarSchemaOf([IntegerType, DoubleType], [{ type: LongType, nullable: false }])!;
const int = fc.integer({ min: -2, max: 40 });
const double = fc.constantFrom(0, -0, 0.5, Number.NaN, -7, 1e20, 3);
type Key = [number, number | null];
const keyText = ([a, b]: Key) => `${a}|${b === null ? "null" : Number.isNaN(b) ? "NaN" : b === 0 ? 0 : b}`;

test("an int and a double key: one entry per distinct key, found again by lookup", () => {
  const key = fc.tuple(int, fc.option(double, { freq: 15 })) as fc.Arbitrary<Key>;
  fc.assert(
    fc.property(
      fc.array(fc.array(key, { maxLength: 3000 }), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 40 }),
      (batches, drop) => {
        const t = new ColumnarTable(SCHEMA);
        const entries = new Map<string, number>();
        for (const rows of batches) {
          const n = rows.length;
          const keys = [
            vectorFromValues(
              IntegerType,
              rows.map((r) => r[0]),
            ),
            vectorFromValues(
              DoubleType,
              rows.map((r) => r[1]),
            ),
          ];
          t.beginBatch();
          const ids = t.lookupOrInsert(keys, n);
          rows.forEach((r, i) => {
            const k = keyText(r);
            const e = entries.get(k);
            if (e === undefined) {
              assert.ok(![...entries.values()].includes(ids[i]!), `a new key ${k} gets an entry of its own`);
              entries.set(k, ids[i]!);
            } else assert.equal(ids[i], e, `key ${k}: its entry`);
          });
          // remove the keys whose int is `drop`
          const gone = [...entries].filter(([k]) => k.startsWith(`${drop}|`));
          t.remove(gone.map(([, e]) => e));
          for (const [k] of gone) entries.delete(k);
          t.commitBatch();
          const found = t.lookup(keys, n);
          for (const [i, r] of rows.entries()) assert.equal(found[i], entries.get(keyText(r)) ?? -1, `lookup of ${keyText(r)}`);
        }
        assert.equal(t.numLive, entries.size);
      },
    ),
    { numRuns: 150 },
  );
});

test("an INT key of -2 removed in a delta stays removed when the state is loaded again", async () => {
  // (-2, NULL): a NULL keeps the rows off the inline probe, on the loop that checked for "absent"
  const dir = mkdtempSync(path.join(tmpdir(), "arus-columnar-lanes-"));
  try {
    const schema = columnarSchemaOf([IntegerType, DoubleType], [{ type: LongType, nullable: false }])!;
    const opts = { minDeltasForSnapshot: 10, minBatchesToRetain: 100 };
    const keys = [vectorFromValues(IntegerType, [-2, 5]), vectorFromValues(DoubleType, [null, 1])];
    const p = new ColumnarStateProvider([dir], schema, opts);
    let s = await p.getStore(0);
    s.lookupOrInsert(keys, 2);
    await s.commit();
    s = await p.getStore(1);
    s.remove([s.lookupOrInsert(keys, 2)[0]!]);
    await s.commit();
    await p.close();
    const again = new ColumnarStateProvider([dir], schema, opts);
    const loaded = await again.getStore(2);
    assert.equal(loaded.numKeys, 1, "only 5 is left");
    assert.equal(loaded.table.lookup(keys, 2)[0], -1, "-2 is not there");
    loaded.abort();
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Struct keys (key-codes.ts `tupleCodes`): one- and two-field structs without NULL fields take
// `pairCodes` (a window: the common key), others `anyTupleCodes`; a STRING beside them has its
// own dictionary. Whatever the shape, each distinct key gets one entry and lookup finds it.
const structShapes = [
  { name: "a two-field struct (a window) and a string", fields: 2, nullFields: false },
  { name: "a one-field struct and a string", fields: 1, nullFields: false },
  { name: "a three-field struct and a string", fields: 3, nullFields: false },
  { name: "a two-field struct with NULL fields and a string", fields: 2, nullFields: true },
];
for (const shape of structShapes) {
  test(`${shape.name}: one entry per distinct key, found again by lookup`, () => {
    const structType = StructOf(
      Array.from({ length: shape.fields }, (_, f) => field(`f${f}`, f === 0 ? TimestampType : LongType, shape.nullFields)),
    );
    const schema = columnarSchemaOf([structType, StringType], [{ type: LongType, nullable: false }])!;
    assert.ok(schema, "the key shape is columnar");
    const fieldValue = shape.nullFields ? fc.option(fc.integer({ min: 0, max: 4 }), { freq: 4 }) : fc.integer({ min: 0, max: 4 });
    const struct = fc.option(fc.array(fieldValue, { minLength: shape.fields, maxLength: shape.fields }), { freq: 12 });
    const key = fc.tuple(struct, fc.option(fc.constantFrom("a", "b", "ü", ""), { freq: 12 }));
    type StructKey = [(number | null)[] | null, string | null];
    const text = ([s, str]: StructKey) => JSON.stringify([s, str]);
    fc.assert(
      fc.property(fc.array(fc.array(key, { maxLength: 400 }), { minLength: 1, maxLength: 4 }), (batches) => {
        const t = new ColumnarTable(schema);
        const entries = new Map<string, number>();
        for (const rows of batches as StructKey[][]) {
          const n = rows.length;
          const keys = [
            vectorFromValues(
              structType,
              rows.map(([s]) =>
                s === null ? null : Object.fromEntries(s.map((x, f) => [`f${f}`, x === null ? null : f === 0 ? x * 10_000_000 : x])),
              ),
            ),
            vectorFromValues(
              StringType,
              rows.map(([, str]) => str),
            ),
          ];
          t.beginBatch();
          const ids = t.lookupOrInsert(keys, n);
          rows.forEach((r, i) => {
            const k = text(r);
            const e = entries.get(k);
            if (e === undefined) {
              assert.ok(![...entries.values()].includes(ids[i]!), `a new key ${k} gets an entry of its own`);
              entries.set(k, ids[i]!);
            } else assert.equal(ids[i], e, `key ${k}: its entry`);
          });
          t.commitBatch();
          const found = t.lookup(keys, n);
          for (const [i, r] of rows.entries()) assert.equal(found[i], entries.get(text(r)), `lookup of ${text(r)}`);
        }
        assert.equal(t.numLive, entries.size);
      }),
      { numRuns: 60 },
    );
  });
}
