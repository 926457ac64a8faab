/**
 * A group-mode task's state: what the operators commit reaches the changelog records, becomes
 * the state only once the transaction committed (publish), is forgotten if it aborted
 * (discard), and replaying the changelog rebuilds exactly the published state.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { TaskState } from "../../src/runtime/cluster/task-state.js";

type Op = { kind: "put"; key: string; value: number } | { kind: "remove"; key: string };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("put" as const), key: fc.constantFrom("a", "b", "c", "d\u0000x", "é"), value: fc.integer() }),
  fc.record({ kind: fc.constant("remove" as const), key: fc.constantFrom("a", "b", "c", "d\u0000x", "é") }),
);
const batch = fc.record({ ops: fc.array(op, { maxLength: 8 }), store: fc.constantFrom("default", "other"), commits: fc.boolean() });

function contents(t: TaskState, store: string): [string, unknown][] {
  const s = t.open(0, store);
  const out = [...s.entries()].map(([k, v]) => [k, v[0]] as [string, unknown]).sort();
  s.abort();
  return out;
}

describe("group mode: task state", () => {
  it("publish/discard follow the transaction, and the changelog replays to the same state", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { maxLength: 12 }), async (batches) => {
        const live = new TaskState(3);
        const changelog: { key: Uint8Array; value: Uint8Array | null }[] = [];
        const model = new Map<string, Map<string, number>>([
          ["default", new Map()],
          ["other", new Map()],
        ]);
        for (const b of batches) {
          const store = live.open(0, b.store);
          const staged = new Map(model.get(b.store));
          for (const o of b.ops) {
            if (o.kind === "put") {
              store.put(o.key, [o.value]);
              staged.set(o.key, o.value);
            } else {
              store.remove(o.key);
              staged.delete(o.key);
            }
          }
          assert.equal(store.numKeys, staged.size);
          await store.commit();
          const records = live.changelogRecords();
          if (b.commits) {
            changelog.push(...records);
            live.publish();
            model.set(b.store, staged);
          } else live.discard();
          for (const name of ["default", "other"]) assert.deepEqual(contents(live, name), [...model.get(name)!].sort());
        }
        const restored = new TaskState(3);
        for (const r of changelog) restored.apply(r.key, r.value);
        for (const name of ["default", "other"]) assert.deepEqual(contents(restored, name), contents(live, name));
      }),
    );
  });

  it("a committed or aborted store refuses writes", async () => {
    const t = new TaskState(0);
    const s = t.open(1, "default");
    await s.commit();
    assert.throws(() => s.put("k", [1]), /already committed/);
  });
});
