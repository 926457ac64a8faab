/**
 * `distinctEventTimes` (what state threads report for explainWatermark, read from the window
 * dictionary for window keys) holds the same values as the per-entry `eventTimes` scan, after
 * random inserts and committed removes, NULL windows included.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { distinctEventTimes } from "../../src/state/columnar/event-time.js";
import { ColumnarTable, columnarSchemaOf } from "../../src/state/columnar/index.js";
import { LongType, StringType, TimestampType, WindowStructType } from "../../src/types/datatypes.js";

const win = fc.option(
  fc.integer({ min: 0, max: 6 }).map((i) => ({ start: i * 5_000_000, end: (i + 2) * 5_000_000 })),
  { nil: null, freq: 8 },
);
const key = fc.constantFrom("a", "b", "c");

for (const kind of ["window", "timestamp"] as const) {
  test(`distinctEventTimes equals the set of eventTimes (${kind} key)`, () => {
    const type = kind === "window" ? WindowStructType : TimestampType;
    const time =
      kind === "window"
        ? win
        : fc.option(
            fc.integer({ min: 0, max: 6 }).map((i) => i * 1_000_000),
            { nil: null, freq: 8 },
          );
    fc.assert(
      fc.property(fc.array(fc.tuple(time, key), { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 20 }), (rows, removals) => {
        const schema = columnarSchemaOf([type, StringType], [{ type: LongType, nullable: false }])!;
        const t = new ColumnarTable(schema);
        t.beginBatch();
        const keys = [
          vectorFromValues(
            type,
            rows.map((r) => r[0]),
          ),
          vectorFromValues(
            StringType,
            rows.map((r) => r[1]),
          ),
        ];
        t.lookupOrInsert(keys, rows.length);
        const live = t.liveIds();
        const gone = [...new Set(removals.filter((i) => i < live.length).map((i) => live[i]!))];
        t.commitBatch();
        t.beginBatch();
        t.remove(gone);
        t.commitBatch(); // removed entries keep their dictionary references until the commit
        const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
        assert.deepEqual(sorted(distinctEventTimes(t, 0)), sorted([...new Set(t.eventTimes(0))]));
      }),
      { numRuns: 300 },
    );
  });
}
