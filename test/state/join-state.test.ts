// The stream-stream join's state layout: a count per key plus one entry per row, so an append
// writes one row; lists written by the earlier layout are read and migrated on first change.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import {
  allKeys,
  appendRow,
  appendRows,
  isRowEntry,
  joinKey,
  removeKey,
  replaceRows,
  rowsOf,
  type Stored,
  setRow,
  totalRows,
} from "../../src/execution/stateful/join-state.js";
import { MemoryStateStoreProvider } from "../../src/state/memory-provider.js";
import { encodeKey } from "../../src/state/store.js";

const OPTS = { minDeltasForSnapshot: 10, minBatchesToRetain: 100 };
const made: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "arus-join-state-"));
  made.push(dir);
  return dir;
};
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const provider = (dir = newDir()) => new MemoryStateStoreProvider(dir, OPTS);

describe("join state layout", () => {
  it("an append writes the row and the count, not the key's earlier rows", async () => {
    const p = provider();
    const s = await p.getStore(0);
    for (let i = 0; i < 50; i++) appendRow(s, '["k"]', [0, i, `v${i}`]);
    await s.commit();
    const s1 = await p.getStore(1);
    appendRow(s1, '["k"]', [0, 50, "v50"]);
    assert.equal(s1.metrics().numUpdatedKeys, 2, "one row entry + the count");
    assert.deepEqual(
      rowsOf(s1, '["k"]').map((r) => r[1]),
      Array.from({ length: 51 }, (_, i) => i),
    );
    await s1.commit();
    await p.close();
  });

  it("reads a key stored as one list (the earlier layout) and rewrites it on change", async () => {
    const p = provider();
    const s = await p.getStore(0);
    const legacy: Stored[] = [
      [0, 1, "a"],
      [1, 2, "b"],
    ];
    s.put('["old"]', legacy);
    await s.commit();
    const s1 = await p.getStore(1);
    const read = rowsOf(s1, '["old"]');
    assert.deepEqual(read, legacy);
    read[0] = [9]; // the join keeps its own list current as matches flag rows
    assert.deepEqual(s1.get('["old"]'), legacy, "rowsOf hands out a copy of a stored list");
    assert.equal(totalRows(s1), 2);
    setRow(s1, '["old"]', 0, [1, 1, "a"]);
    appendRow(s1, '["old"]', [0, 3, "c"]);
    assert.deepEqual(rowsOf(s1, '["old"]'), [
      [1, 1, "a"],
      [1, 2, "b"],
      [0, 3, "c"],
    ]);
    assert.deepEqual(s1.get('["old"]'), [3], "now a count");
    assert.deepEqual(legacy[0], [0, 1, "a"], "the stored list was not mutated");
    await s1.commit();
    await p.close();
  });

  it("matches a list model under random appends, flag updates and removals", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("append" as const), key: fc.nat(3), v: fc.integer() }),
      fc.record({ kind: fc.constant("appendMany" as const), key: fc.nat(3), vs: fc.array(fc.integer(), { maxLength: 4 }) }),
      fc.record({ kind: fc.constant("flag" as const), key: fc.nat(3), at: fc.nat() }),
      fc.record({ kind: fc.constant("remove" as const), key: fc.nat(3), mask: fc.nat() }),
      fc.record({ kind: fc.constant("drop" as const), key: fc.nat(3) }),
      fc.constant({ kind: "commit" as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const dir = newDir();
        const p = provider(dir);
        let s = await p.getStore(0);
        const model = new Map<string, Stored[]>();
        for (const o of ops) {
          if (o.kind === "commit") {
            await s.commit();
            s = await p.getStore(s.version + 1);
            continue;
          }
          const key = JSON.stringify([o.key]);
          const rows = model.get(key) ?? [];
          if (o.kind === "append") {
            appendRow(s, key, [0, o.v]);
            model.set(key, [...rows, [0, o.v]]);
          } else if (o.kind === "appendMany") {
            const added = o.vs.map((v): Stored => [0, v]);
            appendRows(s, key, added);
            if (rows.length + added.length) model.set(key, [...rows, ...added]);
          } else if (o.kind === "drop") {
            const seen: Stored[] = [];
            assert.equal(
              removeKey(s, key, (r) => seen.push(r)),
              rows.length,
            );
            assert.deepEqual(seen, rows, "each row handed over, in order");
            model.delete(key);
          } else if (o.kind === "flag" && rows.length) {
            const i = o.at % rows.length;
            const row: Stored = [1, ...rows[i]!.slice(1)];
            setRow(s, key, i, row);
            rows[i] = row;
          } else if (o.kind === "remove" && rows.length) {
            const keep = rows.filter((_, i) => ((o.mask >> i) & 1) === 0);
            const first = rows.findIndex((_, i) => ((o.mask >> i) & 1) === 1);
            if (first >= 0) replaceRows(s, key, keep, first);
            if (keep.length) model.set(key, keep);
            else model.delete(key);
          }
        }
        await s.commit();
        const reloaded = await provider(dir).getStore(s.version + 1); // from the files alone
        for (const store of [s, reloaded]) {
          assert.deepEqual(new Set(allKeys(store)), new Set(model.keys()));
          for (const [k, rows] of model) assert.deepEqual(rowsOf(store, k), rows);
          assert.equal(
            totalRows(store),
            [...model.values()].reduce((n, r) => n + r.length, 0),
          );
          for (const [k] of store.entries()) if (isRowEntry(k)) assert.ok(model.has(k.split("\u0001")[0]!), "no orphan rows");
        }
        await p.close();
      }),
      { numRuns: 60 },
    );
  });

  it("joinKey gives encodeKey's string for any key tuple (it is the stored key)", () => {
    const scalar = fc.oneof(fc.constant(null), fc.double(), fc.integer(), fc.string(), fc.boolean());
    const flat = fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 3 });
    const window = fc.record({ start: fc.integer(), end: fc.integer() });
    const value = fc.oneof(
      scalar,
      window,
      flat,
      fc.uint8Array({ maxLength: 4 }),
      fc.record({ a: fc.uint8Array({ maxLength: 2 }) }),
      fc.record({ w: window }),
      fc.array(scalar, { maxLength: 3 }),
      fc.constant(new Map([["k", 1]])),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 4 }), (vals) => {
        assert.equal(joinKey(vals), encodeKey(vals));
      }),
      { numRuns: 500 },
    );
  });
});
