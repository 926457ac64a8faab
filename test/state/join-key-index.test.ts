// The join table's key index (src/state/join/key-index.ts) against a Map, with hashes that
// collide on purpose (few distinct values), through growth and rebuilds; then a join side
// table with hundreds of keys (the index grown many times) against a model, through aborts
// and compactions, which rebuild the index.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { keyTextHash } from "../../src/common/hash.js";
import { KeyIndex } from "../../src/state/join/key-index.js";
import { JoinSideTable } from "../../src/state/join/table.js";
import { LongType } from "../../src/types/datatypes.js";

describe("join key index", () => {
  it("finds what a Map finds, however the hashes collide, through growth and rebuilds", () => {
    const op = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant("add" as const), key: fc.nat(400) }), weight: 8 },
      { arbitrary: fc.record({ kind: fc.constant("find" as const), key: fc.nat(400) }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant("keep" as const), n: fc.nat(300) }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 600 }), fc.constantFrom(1, 3, 64, 2 ** 32), (ops, spread) => {
        // a hash with `spread` values: 1 puts every key in one probe chain
        const hashOf = (text: string) => (spread === 2 ** 32 ? keyTextHash(text) : keyTextHash(text) % spread);
        const index = new KeyIndex();
        const texts: string[] = [];
        const model = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === "keep") {
            // keep the first n ids, as an aborted batch does
            const n = Math.min(o.n, texts.length);
            index.rebuild(n, (id) => index.hashOf(id));
            for (const t of texts.splice(n)) model.delete(t);
            continue;
          }
          const text = `[${o.key}]`;
          const found = index.find(hashOf(text), text, texts);
          assert.equal(found, model.get(text) ?? -1, `find ${text}`);
          if (o.kind === "add" && found < 0) {
            const id = texts.length;
            texts.push(text);
            index.add(id, hashOf(text));
            model.set(text, id);
          }
        }
        for (const [text, id] of model) assert.equal(index.find(hashOf(text), text, texts), id);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps a side table's keys through growth, aborts and compactions", () => {
    const op = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant("append" as const), key: fc.nat(500), n: fc.integer({ min: 1, max: 40 }) }), weight: 6 },
      { arbitrary: fc.record({ kind: fc.constant("evict" as const), below: fc.nat(500) }), weight: 2 },
      { arbitrary: fc.record({ kind: fc.constant("commit" as const) }), weight: 3 },
      { arbitrary: fc.record({ kind: fc.constant("abort" as const) }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const table = new JoinSideTable([LongType], 8);
        table.beginBatch();
        // key k holds rows with values; committed: the model at the last commit
        let model = new Map<number, number[]>();
        let committed = new Map<number, number[]>();
        const copy = (m: Map<number, number[]>) => new Map([...m].map(([k, v]) => [k, [...v]]));
        let next = 0;
        for (const o of ops) {
          if (o.kind === "append") {
            // n consecutive keys from `key`, one row each
            for (let k = o.key; k < o.key + o.n; k++) {
              const text = `[${k}]`;
              table.appendFrom(text, keyTextHash(text), k, [vectorFromValues(LongType, [next])], 0, false);
              (model.get(k) ?? model.set(k, []).get(k)!).push(next++);
            }
          } else if (o.kind === "evict") {
            table.evictKeys(o.below, () => {});
            for (const k of [...model.keys()]) if (k <= o.below) model.delete(k);
          } else if (o.kind === "commit") {
            table.commitBatch();
            committed = copy(model);
          } else {
            table.abortBatch();
            model = copy(committed);
          }
        }
        for (let k = 0; k < 540; k++) {
          const text = `[${k}]`;
          const ids: number[] = [];
          table.rowsOf(text, keyTextHash(text), ids);
          assert.deepEqual(
            ids.map((r) => table.value(r, 0)),
            model.get(k) ?? [],
            `key ${k}`,
          );
        }
        assert.equal(
          table.liveRows,
          [...model.values()].reduce((n, v) => n + v.length, 0),
        );
      }),
      { numRuns: 150 },
    );
  });
});
