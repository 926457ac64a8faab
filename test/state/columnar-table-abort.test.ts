// Aborting a batch puts removed entries back into the table's index; when that makes the index
// grow, the restored entry must still be found (it once was lost: the grown index copied the old
// slots before the entry was in them, so a later batch would have inserted the key twice).
import assert from "node:assert/strict";
import { it } from "node:test";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { ColumnarTable, columnarSchemaOf } from "../../src/state/columnar/index.js";
import { LongType } from "../../src/types/datatypes.js";

const SCHEMA = columnarSchemaOf([LongType], [{ type: LongType, nullable: false }])!;

it("an entry restored by abortBatch is found again, across the index's growth thresholds", () => {
  for (const n of [1534, 1535, 1536, 1537, 3070, 3071, 3072, 3073]) {
    const t = new ColumnarTable(SCHEMA);
    const keys = [
      vectorFromValues(
        LongType,
        Array.from({ length: n }, (_, i) => i),
      ),
    ];
    t.beginBatch();
    const ids = t.lookupOrInsert(keys, n);
    t.commitBatch();
    for (const victim of [0, n - 1]) {
      t.beginBatch();
      t.remove([ids[victim]!]);
      t.abortBatch();
      const found = t.lookup(keys, n);
      assert.deepEqual([...found], [...ids], `${n} keys, restored ${victim}: every key found at its entry`);
      t.beginBatch();
      assert.equal(t.lookupOrInsert([vectorFromValues(LongType, [victim])], 1)[0], ids[victim], "no second entry for the key");
      t.commitBatch();
    }
  }
});
