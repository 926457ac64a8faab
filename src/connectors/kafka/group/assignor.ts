/**
 * The group's partition assignor, run by the leader member: a sticky range assignor over
 * partition *indexes*. Index p of every subscribed topic goes to one member (co-partitioning:
 * source partition p, repartition partition p and changelog partition p stay on one worker, as
 * Kafka Streams' tasks do), the indexes are spread so that member counts differ by at most one,
 * and a member keeps the indexes it owned as far as its even share allows (its state stays
 * local). A pure function of the members' subscriptions. Two protocols: the eager one
 * (`arus-sticky-range`) hands out the whole target at once; the cooperative one
 * (`arus-cooperative-sticky-range`, KIP-429) first revokes what must move, and assigns it in the
 * next round.
 */
import type { TopicPartition } from "../client.js";

/** What one member told the coordinator in JoinGroup (Kafka's ConsumerProtocolSubscription). */
export interface MemberSubscription {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly topics: readonly string[];
  /** The partitions it owned in the generation it last joined (empty for a new member). */
  readonly ownedPartitions: readonly TopicPartition[];
  /** That generation (-1 when unknown): of two claims on one partition the newer wins. */
  readonly generationId: number;
}

export interface GroupAssignor {
  /** The protocol name sent in JoinGroup: every member of a group must share one. */
  readonly name: string;
  /** memberId -> its partitions. Every partition of `partitionsPerTopic` goes to exactly one member. */
  assign(members: readonly MemberSubscription[], partitionsPerTopic: ReadonlyMap<string, number>): Map<string, TopicPartition[]>;
}

/** The members do not subscribe to the same topics (e.g. two different pipelines under one group name). */
export class GroupSubscriptionMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GroupSubscriptionMismatch";
  }
}

/** A stable order of members: static ones by their instance id (survives restarts), then by member id. */
const memberKey = (m: MemberSubscription) => (m.groupInstanceId === null ? `1:${m.memberId}` : `0:${m.groupInstanceId}`);

function checkSameTopics(members: readonly MemberSubscription[]): void {
  const first = members[0]!;
  const want = [...new Set(first.topics)].sort().join(",");
  for (const m of members) {
    const got = [...new Set(m.topics)].sort().join(",");
    if (got !== want) {
      throw new GroupSubscriptionMismatch(
        `the members of the group subscribe to different topics: member ${m.groupInstanceId ?? m.memberId} to [${got}], member ${first.groupInstanceId ?? first.memberId} to [${want}] (co-partitioned assignment needs one subscription per group: is another pipeline using this group name?)`,
      );
    }
  }
}

/**
 * The sticky range assignment. Throws GroupSubscriptionMismatch when the members subscribe to
 * different topic sets.
 */
export function assignStickyRange(
  members: readonly MemberSubscription[],
  partitionsPerTopic: ReadonlyMap<string, number>,
): Map<string, TopicPartition[]> {
  const out = new Map<string, TopicPartition[]>();
  if (!members.length) return out;
  checkSameTopics(members);
  const topics = [...new Set(members[0]!.topics)].filter((t) => (partitionsPerTopic.get(t) ?? 0) > 0).sort();
  const indexes = Math.max(0, ...topics.map((t) => partitionsPerTopic.get(t)!));
  const ordered = [...members].sort((a, b) => (memberKey(a) < memberKey(b) ? -1 : memberKey(a) > memberKey(b) ? 1 : 0));

  // Who claims index p: the member that owned any of its partitions, the newest generation first.
  const claim = new Map<number, { member: number; generation: number }>();
  ordered.forEach((m, i) => {
    for (const tp of m.ownedPartitions) {
      if (tp.partition < 0 || tp.partition >= indexes || !topics.includes(tp.topic)) continue;
      const c = claim.get(tp.partition);
      if (!c || m.generationId > c.generation) claim.set(tp.partition, { member: i, generation: m.generationId });
    }
  });
  const claimed: number[][] = ordered.map(() => []);
  for (const [p, c] of [...claim].sort((a, b) => a[0] - b[0])) claimed[c.member]!.push(p);

  // Quotas: floor(P/N) each, one more for P mod N of them — those that claim the most, so that
  // as little as possible moves.
  const n = ordered.length;
  const base = Math.floor(indexes / n);
  const byClaims = ordered.map((_, i) => i).sort((a, b) => claimed[b]!.length - claimed[a]!.length || a - b);
  const quota = ordered.map(() => base);
  for (let k = 0; k < indexes % n; k++) quota[byClaims[k]!]!++;

  const owner = new Array<number>(indexes).fill(-1);
  const count = ordered.map(() => 0);
  ordered.forEach((_, i) => {
    for (const p of claimed[i]!) {
      if (count[i]! >= quota[i]!) break;
      owner[p] = i;
      count[i]!++;
    }
  });
  let next = 0;
  for (let p = 0; p < indexes; p++) {
    if (owner[p] !== -1) continue;
    while (count[next]! >= quota[next]!) next++;
    owner[p] = next;
    count[next]!++;
  }

  for (const m of ordered) out.set(m.memberId, []);
  for (const t of topics) {
    const parts = partitionsPerTopic.get(t)!;
    for (let p = 0; p < parts; p++) out.get(ordered[owner[p]!]!.memberId)!.push({ topic: t, partition: p });
  }
  return out;
}

export const stickyRangeAssignor: GroupAssignor = {
  name: "arus-sticky-range",
  assign: assignStickyRange,
};

/**
 * The members holding partition index p before this round: those whose claim on p is of the
 * newest generation claiming p (normally one member; two only if their subscriptions disagree).
 */
function holders(members: readonly MemberSubscription[], topics: ReadonlySet<string>): Map<number, Set<string>> {
  const newest = new Map<number, number>();
  for (const m of members)
    for (const tp of m.ownedPartitions)
      if (topics.has(tp.topic)) newest.set(tp.partition, Math.max(newest.get(tp.partition) ?? -Infinity, m.generationId));
  const out = new Map<number, Set<string>>();
  for (const m of members)
    for (const tp of m.ownedPartitions)
      if (topics.has(tp.topic) && m.generationId === newest.get(tp.partition))
        (out.get(tp.partition) ?? out.set(tp.partition, new Set()).get(tp.partition)!).add(m.memberId);
  return out;
}

/**
 * Incremental cooperative rebalancing (KIP-429) over the sticky range assignment: the same
 * target as `assignStickyRange`, except that an index whose holder (see `holders`) is another
 * member than its target is assigned to nobody in this round. Its holder sees it gone, stops
 * processing it and rejoins; the next round finds it unheld and hands it to its target. So a
 * partition never goes straight from one member to another while the first may still process
 * it, members keep what they hold throughout, and a group settles within two rounds after a
 * join or leave.
 */
export function assignCooperativeStickyRange(
  members: readonly MemberSubscription[],
  partitionsPerTopic: ReadonlyMap<string, number>,
): Map<string, TopicPartition[]> {
  const target = assignStickyRange(members, partitionsPerTopic);
  if (!members.length) return target;
  const held = holders(members, new Set(members[0]!.topics));
  for (const [memberId, tps] of target) {
    target.set(
      memberId,
      tps.filter((tp) => {
        const h = held.get(tp.partition);
        return !h || (h.size === 1 && h.has(memberId));
      }),
    );
  }
  return target;
}

export const cooperativeStickyRangeAssignor: GroupAssignor = {
  name: "arus-cooperative-sticky-range",
  assign: assignCooperativeStickyRange,
};
