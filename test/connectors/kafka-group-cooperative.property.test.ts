// Cooperative rebalancing's assignor (assignCooperativeStickyRange, src/connectors/kafka/group/assignor.ts)
// over random sequences of members joining, leaving, being dropped (and coming back as
// zombies with stale claims) and rebalance rounds, as the group coordinator would run them:
// each round every live member sends what it owns and the generation it owned it in, and a
// member that lost partitions rejoins, which makes another round. In every round: no partition
// on two members, index p of every topic on one member, and no partition handed to a member
// while another member still held it (it is revoked first, assigned the round after). After
// each event the group settles within two rounds to the eager assignor's balanced, sticky result.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { TopicPartition } from "../../src/connectors/kafka/client.js";
import { assignCooperativeStickyRange, assignStickyRange, type MemberSubscription } from "../../src/connectors/kafka/group/assignor.js";

const key = (tp: TopicPartition) => `${tp.topic}-${tp.partition}`;

interface Member {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  owned: TopicPartition[];
  generationId: number;
}

type Event =
  | { kind: "join"; static: boolean }
  | { kind: "leave"; who: number }
  | { kind: "drop"; who: number } // session timed out: gone from the group, but it still believes it owns its partitions
  | { kind: "zombie" } // a dropped member rejoins with its stale claims
  | { kind: "round" };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ kind: fc.constant("join" as const), static: fc.boolean() }),
  fc.record({ kind: fc.constant("leave" as const), who: fc.nat(7) }),
  fc.record({ kind: fc.constant("drop" as const), who: fc.nat(7) }),
  fc.constant({ kind: "zombie" as const }),
  fc.constant({ kind: "round" as const }),
);

class Group {
  live: Member[] = [];
  dropped: Member[] = [];
  generation = 0;
  private next = 0;
  constructor(
    readonly topics: readonly string[],
    readonly counts: ReadonlyMap<string, number>,
  ) {}

  get indexes(): number {
    return Math.max(0, ...this.topics.map((t) => this.counts.get(t)!));
  }

  join(isStatic: boolean): void {
    const i = this.next++;
    this.live.push({ memberId: `m${i}-${(i * 7919) % 101}`, groupInstanceId: isStatic ? `slot-${i}` : null, owned: [], generationId: -1 });
  }

  /** One rebalance round; returns the members that lost partitions (they rejoin at once). */
  round(): Member[] {
    if (!this.live.length) return [];
    this.generation++;
    const subs: MemberSubscription[] = this.live.map((m) => ({ ...m, topics: this.topics, ownedPartitions: m.owned }));
    const assigned = assignCooperativeStickyRange(subs, this.counts);
    checkRound(subs, assigned);
    const losers: Member[] = [];
    for (const m of this.live) {
      const now = assigned.get(m.memberId)!;
      const kept = new Set(now.map(key));
      if (m.owned.some((tp) => !kept.has(key(tp)))) losers.push(m);
      m.owned = now;
      m.generationId = this.generation;
    }
    return losers;
  }

  /** Rounds until nobody lost a partition; how many it took. */
  settle(): number {
    for (let rounds = 1; ; rounds++) {
      if (!this.round().length) return rounds;
      assert.ok(rounds < 6, "the group did not settle within 5 rounds");
    }
  }
}

/** One round's assignment, given what each member held before it. */
function checkRound(subs: readonly MemberSubscription[], assigned: Map<string, TopicPartition[]>): void {
  const ownerOf = new Map<string, string>();
  const indexOwner = new Map<number, string>();
  for (const [m, tps] of assigned) {
    for (const tp of tps) {
      assert.equal(ownerOf.get(key(tp)), undefined, `${key(tp)} assigned to ${ownerOf.get(key(tp))} and ${m}`);
      ownerOf.set(key(tp), m);
      const o = indexOwner.get(tp.partition);
      assert.ok(o === undefined || o === m, `partition index ${tp.partition} split between ${o} and ${m}`);
      indexOwner.set(tp.partition, m);
    }
  }
  // Two-phase: index p goes to m only if no other member held p at the newest claim's generation.
  const newest = new Map<number, number>();
  for (const s of subs)
    for (const tp of s.ownedPartitions) newest.set(tp.partition, Math.max(newest.get(tp.partition) ?? -1, s.generationId));
  for (const s of subs) {
    for (const tp of s.ownedPartitions) {
      if (s.generationId !== newest.get(tp.partition)) continue;
      const to = indexOwner.get(tp.partition);
      assert.ok(to === undefined || to === s.memberId, `index ${tp.partition} moved straight from ${s.memberId} to ${to}`);
    }
  }
}

/** Settled: every partition once, index loads within one, the eager assignor's result. */
function checkSettled(g: Group): void {
  const subs: MemberSubscription[] = g.live.map((m) => ({ ...m, topics: g.topics, ownedPartitions: m.owned }));
  const all = g.live.flatMap((m) => m.owned.map(key)).sort();
  const expected = g.topics.flatMap((t) => Array.from({ length: g.counts.get(t)! }, (_, p) => key({ topic: t, partition: p }))).sort();
  assert.deepEqual(all, g.live.length ? expected : []);
  if (!g.live.length) return;
  const loads = g.live.map((m) => new Set(m.owned.map((tp) => tp.partition)).size);
  assert.ok(Math.max(...loads) - Math.min(...loads) <= 1, `index loads ${loads}`);
  // A settled group is a fixed point of both assignors: nothing would move.
  const again = assignCooperativeStickyRange(subs, g.counts);
  for (const m of g.live) assert.deepEqual(again.get(m.memberId)!.map(key).sort(), m.owned.map(key).sort());
  const eager = assignStickyRange(subs, g.counts);
  for (const m of g.live) assert.deepEqual(eager.get(m.memberId)!.map(key).sort(), m.owned.map(key).sort());
}

const topicSets = fc.uniqueArray(fc.constantFrom("in", "repartition", "changelog"), { minLength: 1, maxLength: 3 });

describe("cooperative sticky range assignor (two-phase rounds)", () => {
  it("over joins, leaves, dropped members and zombies: never two owners, co-partitioned, revoke before move, settles in two rounds", () => {
    fc.assert(
      fc.property(topicSets, fc.integer({ min: 0, max: 16 }), fc.array(eventArb, { minLength: 1, maxLength: 25 }), (topics, p, evs) => {
        const g = new Group(topics, new Map(topics.map((t) => [t, p])));
        for (const e of evs) {
          if (e.kind === "join") g.join(e.static);
          else if (e.kind === "leave" && g.live.length) g.live.splice(e.who % g.live.length, 1);
          else if (e.kind === "drop" && g.live.length) g.dropped.push(...g.live.splice(e.who % g.live.length, 1));
          else if (e.kind === "zombie" && g.dropped.length) g.live.push(g.dropped.shift()!);
          else if (e.kind === "round") {
            // A round may end with partitions revoked and not yet reassigned: the next event comes first.
            g.round();
            continue;
          }
          if (e.kind !== "zombie") {
            // After a membership change the group rebalances: revocation, then (if any) the second round.
            const rounds = g.settle();
            assert.ok(rounds <= 2, `took ${rounds} rounds`);
            checkSettled(g);
          }
        }
        g.settle();
        checkSettled(g);
      }),
      { numRuns: 300 },
    );
  });

  it("a join from a settled group: round one revokes without assigning, round two assigns, and nobody else loses anything", () => {
    fc.assert(
      fc.property(topicSets, fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 6 }), (topics, p, n) => {
        const g = new Group(topics, new Map(topics.map((t) => [t, p])));
        for (let i = 0; i < n; i++) g.join(i % 2 === 0);
        g.settle();
        const before = new Map(g.live.map((m) => [m.memberId, new Set(m.owned.map(key))]));
        g.join(false);
        const newcomer = g.live.at(-1)!;
        const losers = g.round();
        // Round one: the newcomer gets only what nobody held (nothing, in a settled group).
        assert.equal(newcomer.owned.length, 0, "the newcomer gets nothing in round one");
        // The others keep a subset of what they had: nothing is added, nothing moves between them.
        for (const m of g.live.slice(0, -1)) for (const tp of m.owned) assert.ok(before.get(m.memberId)!.has(key(tp)));
        const share = Math.floor(p / (n + 1));
        if (share > 0) assert.ok(losers.length > 0, "someone gives up partitions for the newcomer");
        // Round two: the revoked partitions go to the newcomer; nobody loses anything more.
        assert.deepEqual(g.round(), []);
        assert.ok(new Set(newcomer.owned.map((tp) => tp.partition)).size >= share);
        checkSettled(g);
        // And the survivors kept what the eager assignor would have let them keep.
        for (const m of g.live.slice(0, -1)) {
          const kept = m.owned.filter((tp) => before.get(m.memberId)!.has(key(tp))).length;
          assert.equal(kept, m.owned.length, `${m.memberId} got a partition it did not have`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a member that leaves has its partitions handed out in the first round (nobody holds them)", () => {
    const topics = ["in", "repartition"];
    const g = new Group(topics, new Map(topics.map((t) => [t, 6])));
    g.join(true);
    g.join(true);
    g.join(true);
    g.settle();
    g.live.splice(1, 1);
    assert.deepEqual(g.round(), [], "nobody loses anything when a member leaves");
    checkSettled(g);
    assert.deepEqual(
      g.live.map((m) => new Set(m.owned.map((tp) => tp.partition)).size),
      [3, 3],
    );
  });
});
