/**
 * Scratch arrays (columnar/scratch.ts) hand out exactly n elements, reuse one backing store
 * while it is big enough, and grow when it is not; GroupIndex, whose row hashes come from one,
 * still numbers groups right when calls of different sizes and of two indexes interleave (a
 * stale hash from an earlier, longer call must never be read).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ScratchFloat64, ScratchInt32, ScratchUint8 } from "../../src/columnar/scratch.js";
import { makeVector } from "../../src/columnar/vector.js";
import { GroupIndex } from "../../src/execution/group-index.js";
import { LongType } from "../../src/types/datatypes.js";

test("a scratch array is n long, reused while big enough, grown when not", () => {
  for (const s of [new ScratchInt32(), new ScratchUint8(), new ScratchFloat64()]) {
    const a = s.get(1000);
    assert.equal(a.length, 1000);
    const b = s.get(10);
    assert.equal(b.length, 10);
    assert.equal(b.buffer, a.buffer, "a smaller request reuses the store");
    const c = s.get(5000);
    assert.equal(c.length, 5000);
    assert.notEqual(c.buffer, a.buffer, "a bigger request grows it");
    assert.equal(s.get(4000).buffer, c.buffer);
  }
});

test("GroupIndex: interleaved indexes and batch sizes give first-appearance ids", () => {
  const vec = (xs: number[]) => makeVector(LongType, Float64Array.from(xs), null, xs.length);
  const a = new GroupIndex([LongType]);
  const b = new GroupIndex([LongType]);
  const big = Array.from({ length: 5000 }, (_, i) => (i * 7) % 100);
  assert.deepEqual([...a.assign([vec(big)], big.length)].slice(0, 3), [0, 1, 2]);
  // b sees values a's longer call hashed at the same positions
  assert.deepEqual([...b.assign([vec([5, 5, 9, 5])], 4)], [0, 0, 1, 0]);
  assert.deepEqual([...a.assign([vec([7, 1000, 0])], 3)], [1, 100, 0]);
  assert.deepEqual([...b.assign([vec([9, 11])], 2)], [1, 2]);
  assert.deepEqual([...b.probe([vec([11, 5, 4])], 3)], [2, 0, -1]);
});
