// The group's sticky range assignor (src/connectors/kafka/group/assignor.ts): every partition
// assigned exactly once, member loads within one, partition index p of every topic on one member
// (co-partitioning), and members keep what they owned while their even share allows.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { TopicPartition } from "../../src/connectors/kafka/client.js";
import { assignStickyRange, GroupSubscriptionMismatch, type MemberSubscription } from "../../src/connectors/kafka/group/assignor.js";

const key = (tp: TopicPartition) => `${tp.topic}-${tp.partition}`;

/** Members m0..m(n-1), some static, all subscribed to `topics`, each owning `owned[i]`. */
function members(n: number, topics: string[], staticMask: boolean[], owned: TopicPartition[][] = [], generation = 1): MemberSubscription[] {
  return Array.from({ length: n }, (_, i) => ({
    memberId: `member-${i}-${(i * 7919) % 13}`,
    groupInstanceId: staticMask[i] ? `slot-${i}` : null,
    topics,
    ownedPartitions: owned[i] ?? [],
    generationId: owned[i]?.length ? generation : -1,
  }));
}

const topicSets = fc.uniqueArray(fc.constantFrom("in", "repartition", "changelog", "other"), { minLength: 1, maxLength: 3 });
const staticMasks = fc.array(fc.boolean(), { minLength: 8, maxLength: 8 });

function checkExactlyOnce(assigned: Map<string, TopicPartition[]>, counts: ReadonlyMap<string, number>): void {
  const seen = new Map<string, number>();
  for (const tps of assigned.values()) for (const tp of tps) seen.set(key(tp), (seen.get(key(tp)) ?? 0) + 1);
  const expected: string[] = [];
  for (const [t, n] of counts) for (let p = 0; p < n; p++) expected.push(`${t}-${p}`);
  assert.deepEqual([...seen.keys()].sort(), expected.sort());
  for (const [k, c] of seen) assert.equal(c, 1, `${k} assigned ${c} times`);
}

function checkCoPartitioned(assigned: Map<string, TopicPartition[]>): void {
  const ownerOfIndex = new Map<number, string>();
  for (const [m, tps] of assigned) {
    for (const tp of tps) {
      const o = ownerOfIndex.get(tp.partition);
      if (o === undefined) ownerOfIndex.set(tp.partition, m);
      else assert.equal(o, m, `partition index ${tp.partition} split between ${o} and ${m}`);
    }
  }
}

describe("sticky range assignor", () => {
  it("assigns every partition exactly once, balanced within one per topic, co-partitioned", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 30 }), topicSets, staticMasks, (n, p, topics, mask) => {
        const counts = new Map(topics.map((t) => [t, p]));
        const a = assignStickyRange(members(n, topics, mask), counts);
        assert.equal(a.size, n);
        checkExactlyOnce(a, counts);
        checkCoPartitioned(a);
        for (const t of topics) {
          const loads = [...a.values()].map((tps) => tps.filter((tp) => tp.topic === t).length);
          assert.ok(Math.max(...loads) - Math.min(...loads) <= 1, `topic ${t}: loads ${loads}`);
        }
      }),
    );
  });

  it("with different partition counts per topic, still exactly once and co-partitioned", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        topicSets.chain((ts) =>
          fc.tuple(fc.constant(ts), fc.array(fc.integer({ min: 0, max: 20 }), { minLength: ts.length, maxLength: ts.length })),
        ),
        staticMasks,
        (n, [topics, parts], mask) => {
          const counts = new Map(topics.map((t, i) => [t, parts[i]!]));
          const a = assignStickyRange(members(n, topics, mask), counts);
          checkExactlyOnce(a, counts);
          checkCoPartitioned(a);
          const indexes = [...a.values()].map((tps) => new Set(tps.map((tp) => tp.partition)).size);
          assert.ok(Math.max(...indexes) - Math.min(...indexes) <= 1, `index loads ${indexes}`);
        },
      ),
    );
  });

  it("is sticky: members keep what they owned up to their even share, and a stable group keeps everything", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 24 }),
        topicSets,
        staticMasks,
        (before, after, p, topics, mask) => {
          const counts = new Map(topics.map((t) => [t, p]));
          const first = assignStickyRange(members(before, topics, mask), counts);
          // The same members again, owning what they got: nothing moves.
          const owned = members(before, topics, mask).map((m) => first.get(m.memberId)!);
          assert.deepEqual(assignStickyRange(members(before, topics, mask, owned), counts), first);
          // Members join or leave: the survivors keep min(owned, floor(P/N)) partition indexes.
          const next = members(after, topics, mask, owned.slice(0, after), 2);
          const second = assignStickyRange(next, counts);
          checkExactlyOnce(second, counts);
          checkCoPartitioned(second);
          const share = Math.floor(p / after);
          for (const m of next) {
            const had = new Set(m.ownedPartitions.map(key));
            const kept = new Set(
              second
                .get(m.memberId)!
                .filter((tp) => had.has(key(tp)))
                .map((tp) => tp.partition),
            );
            const ownedIdx = new Set(m.ownedPartitions.map((tp) => tp.partition));
            assert.ok(kept.size >= Math.min(ownedIdx.size, share), `${m.memberId} kept ${kept.size} of ${ownedIdx.size} (share ${share})`);
          }
        },
      ),
    );
  });

  it("a stale claim loses to the newer generation's", () => {
    const topics = ["in"];
    const counts = new Map([["in", 2]]);
    const ms = members(2, topics, [false, false], [[{ topic: "in", partition: 0 }], [{ topic: "in", partition: 0 }]]);
    const stale = { ...ms[0]!, generationId: 3 };
    const fresh = { ...ms[1]!, generationId: 4 };
    const a = assignStickyRange([stale, fresh], counts);
    assert.deepEqual(a.get(fresh.memberId), [{ topic: "in", partition: 0 }]);
    assert.deepEqual(a.get(stale.memberId), [{ topic: "in", partition: 1 }]);
  });

  it("refuses members with different subscriptions, naming them", () => {
    const ms = members(2, ["a"], [true, true]);
    const other = { ...ms[1]!, topics: ["b"] };
    assert.throws(
      () => assignStickyRange([ms[0]!, other], new Map([["a", 2]])),
      (e: Error) => e instanceof GroupSubscriptionMismatch && /slot-1 to \[b\]/.test(e.message) && /slot-0 to \[a\]/.test(e.message),
    );
  });
});
