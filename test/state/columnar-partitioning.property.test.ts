/**
 * `keyPartitions` (a batch's rows, before they reach a table) must give every row the partition
 * `partitionsOf` gives its entry once stored: the rows of a partition are routed to the thread
 * that writes that partition's files, so a disagreement would put one key in two threads' files.
 * Random keys of every columnar key kind, NULLs, NaN and -0 included, over 1-16 partitions.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { ColumnarTable, columnarSchemaOf } from "../../src/state/columnar/index.js";
import { keyPartitions } from "../../src/state/columnar/partitioning.js";
import {
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  NullType,
  StringType,
  StructOf,
  TimestampType,
  WindowStructType,
} from "../../src/types/datatypes.js";

const PairStruct = StructOf([field("a", IntegerType, true), field("b", DoubleType, true)]);

/** A key type and a generator of its (nullable) values. */
const KEY_KINDS: readonly [DataType, fc.Arbitrary<unknown>][] = [
  [BooleanType, fc.boolean()],
  [IntegerType, fc.integer({ min: -5, max: 5 })],
  [DateType, fc.integer({ min: 19_000, max: 19_003 })],
  [
    LongType,
    fc.oneof(
      fc.integer({ min: -3, max: 3 }).map((x) => x * 2 ** 40),
      // past ±2^53 − 1: the wide lane (columnar/int64.ts), hashed by exact value on both sides
      fc.constantFrom(2n ** 53n, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n),
    ),
  ],
  [DoubleType, fc.constantFrom(0, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -2.25, 1e300)],
  [TimestampType, fc.integer({ min: 0, max: 4 }).map((x) => x * 1_000_000 + 123)],
  [StringType, fc.constantFrom("", "a", "b", "ñ", "auction-17", "x".repeat(40))],
  [WindowStructType, fc.integer({ min: 0, max: 3 }).map((i) => ({ start: i * 5_000_000, end: (i + 2) * 5_000_000 }))],
  [
    PairStruct,
    fc.record({
      a: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
      b: fc.option(fc.constantFrom(0.5, -1, Number.NaN), { nil: null }),
    }),
  ],
  [NullType, fc.constant(null)],
];

test("keyPartitions gives each row the partition partitionsOf gives its stored entry", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: KEY_KINDS.length - 1 }), { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 1, max: 60 }),
      (kinds, numPartitions, seed, n) => {
        const types = kinds.map((k) => KEY_KINDS[k]![0]);
        const schema = columnarSchemaOf(types, [{ type: LongType, nullable: false }])!;
        assert.ok(schema, "every key kind above is columnar");
        const columns = kinds.map((k) => {
          const [type, arb] = KEY_KINDS[k]!;
          const vals = fc.sample(fc.option(arb, { nil: null, freq: 5 }), { seed: seed + k, numRuns: n });
          return vectorFromValues(type, vals);
        });
        const table = new ColumnarTable(schema);
        table.beginBatch();
        const ids = table.lookupOrInsert(columns, n);
        assert.deepEqual([...keyPartitions(schema, columns, n, numPartitions)], [...table.partitionsOf(ids, numPartitions)]);
      },
    ),
    { numRuns: 300 },
  );
});

test("partitionsOf stays right for entries whose ids were freed and reused by other keys (it keeps each entry's partition)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 80 }), { minLength: 2, maxLength: 5 }),
      fc.integer({ min: 2, max: 16 }),
      (batches, numPartitions) => {
        const schema = columnarSchemaOf([LongType], [{ type: LongType, nullable: false }])!;
        const table = new ColumnarTable(schema);
        for (const vals of batches) {
          const keys = [vectorFromValues(LongType, vals)];
          table.beginBatch();
          const ids = table.lookupOrInsert(keys, vals.length);
          // asked twice (a put, then the remove of the same entries), and after ids are reused
          assert.deepEqual([...table.partitionsOf(ids, numPartitions)], [...keyPartitions(schema, keys, vals.length, numPartitions)]);
          assert.deepEqual([...table.partitionsOf(ids, numPartitions)], [...keyPartitions(schema, keys, vals.length, numPartitions)]);
          // every other key goes: its id is free for the next batch's keys
          table.remove(ids.filter((_, i) => vals[i]! % 2 === 0));
          table.commitBatch();
        }
      },
    ),
    { numRuns: 200 },
  );
});
