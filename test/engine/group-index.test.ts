/**
 * GroupIndex keeps one group per distinct key across `assign` calls, whatever the batches'
 * physical layout: a struct key arrives with a validity array in a batch that had a NULL and
 * without one in a batch that had none (a window over a union of streams, say). Before the fix
 * the struct's validity became a key leaf only when present, so the same key hashed to two
 * groups — in batch aggregation, and in numRowsDroppedByWatermark of streaming aggregations.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { makeVector } from "../../src/columnar/vector.js";
import { GroupIndex } from "../../src/execution/group-index.js";
import { functions as F, Session } from "../../src/index.js";
import { field, LongType, StructOf } from "../../src/types/datatypes.js";

const S = StructOf([field("x", LongType, true)]);

test("a struct key is one group with or without a validity array", () => {
  const gi = new GroupIndex([S]);
  const plain = makeVector(S, [], null, 1, [makeVector(LongType, new Float64Array([1]), null, 1)]);
  const withValidity = makeVector(S, [], new Uint8Array([1, 0]), 2, [makeVector(LongType, new Float64Array([1, 0]), null, 2)]);
  assert.deepEqual([...gi.assign([plain], 1)], [0]);
  assert.deepEqual([...gi.assign([withValidity], 2)], [0, 1]);
  assert.equal(gi.numGroups, 2, "{x: 1} and NULL");
});

test("grouping by a nullable struct over a union counts each key once", async () => {
  const s = Session.builder().getOrCreate();
  const a = s.createDataFrame([{ x: 1 }], "x BIGINT").select(F.struct("x").alias("s"));
  const b = s
    .createDataFrame([{ x: 1 }, { x: null }], "x BIGINT")
    .select(F.when(F.col("x").isNull(), F.lit(null)).otherwise(F.struct("x")).alias("s"));
  const rows = await a.union(b).groupBy("s").count().collect();
  const counts = rows.map((r) => [JSON.stringify(r.s), r.count]).sort();
  assert.deepEqual(counts, [
    ["null", 1],
    ['{"x":1}', 2],
  ]);
});

test("-0.0 and 0.0 group together under the key 0.0 (Spark's NormalizeFloatingNumbers)", async () => {
  const s = Session.builder().getOrCreate();
  const rows = await s
    .createDataFrame([{ d: -0 }, { d: 0 }, { d: -0 }], "d DOUBLE")
    .groupBy("d")
    .count()
    .collect();
  assert.equal(rows.length, 1);
  assert.ok(Object.is(rows[0]!.d, 0), `key ${Object.is(rows[0]!.d, -0) ? "-0" : rows[0]!.d}`);
  assert.equal(rows[0]!.count, 3);
});
