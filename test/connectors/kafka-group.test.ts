// Kafka group mode's protocol layer against the real broker: consumer-group members
// (src/connectors/kafka/group/member.ts) splitting co-partitioned topics, rebalancing when a
// member joins, static membership across a restart, and worker transactions
// (transaction.ts) whose offsets carry the group metadata, so a zombie member is fenced.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { AssignerProtocol, Kafka, logLevel } from "kafkajs";
import { type TopicPartition, tpKey } from "../../src/connectors/kafka/client.js";
import {
  type GroupAssignment,
  GroupSubscriptionMismatch,
  KafkaFencedError,
  KafkaGroupMember,
  type KafkaGroupMemberOptions,
  WorkerTransactions,
} from "../../src/connectors/kafka/group/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, readValues } from "./kafka-helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Joins every member and rejoins those a later join sent into a rebalance, until all are in one
 * generation with nothing pending (members joining one by one cause several rebalances).
 */
async function settle(members: KafkaGroupMember[]): Promise<Map<KafkaGroupMember, GroupAssignment>> {
  const results = new Map<KafkaGroupMember, GroupAssignment>();
  const running = new Map<KafkaGroupMember, Promise<void>>();
  const start = (m: KafkaGroupMember) => {
    running.set(
      m,
      m.join().then((r) => {
        results.set(m, r);
        running.delete(m);
      }),
    );
  };
  for (const m of members) start(m);
  const deadline = Date.now() + 40_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error("the group did not settle within 40 s");
    await Promise.race([...running.values(), sleep(100)]);
    for (const m of members) if (!running.has(m) && m.needsRejoin) start(m);
    const gens = new Set(members.map((m) => results.get(m)?.generationId));
    if (!running.size && results.size === members.length && gens.size === 1 && members.every((m) => !m.needsRejoin)) {
      // One heartbeat more: a rebalance started by the last join shows up there.
      await sleep(members[0]!.heartbeatIntervalMs * 1.5);
      if (members.every((m) => !m.needsRejoin)) return results;
    }
  }
}

const indexes = (tps: readonly TopicPartition[]) => [...new Set(tps.map((tp) => tp.partition))].sort((a, b) => a - b);

/** Each member's partitions: index p of every topic together; together they cover every partition once. */
function checkSplit(assigned: readonly GroupAssignment[], topics: readonly string[], partitions: number): void {
  const all = assigned.flatMap((a) => a.partitions.map(tpKey)).sort();
  const expected = topics.flatMap((t) => Array.from({ length: partitions }, (_, p) => tpKey({ topic: t, partition: p }))).sort();
  assert.deepEqual(all, expected);
  for (const a of assigned) {
    for (const t of topics)
      assert.deepEqual(indexes(a.partitions.filter((tp) => tp.topic === t)), indexes(a.partitions), `co-partitioned on ${t}`);
  }
}

describe("Kafka consumer group member and worker transactions", kafkaSkip(), () => {
  const bootstrap = kafkaBootstrap() ?? "";
  const opened: { close(): Promise<void> }[] = [];
  let source = "";
  let repartition = "";
  let out = "";
  const member = (groupId: string, extra: Partial<KafkaGroupMemberOptions> = {}) => {
    const m = new KafkaGroupMember({
      bootstrapServers: bootstrap,
      groupId,
      topics: [source, repartition],
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 500,
      rebalanceTimeoutMs: 20_000,
      ...extra,
    } as KafkaGroupMemberOptions);
    opened.push(m);
    return m;
  };
  const transactions = (transactionalId: string) => {
    const t = new WorkerTransactions({ bootstrapServers: bootstrap, transactionalId, transactionTimeoutMs: 20_000 });
    opened.push(t);
    return t;
  };

  before(async () => {
    [source, repartition, out] = await Promise.all([
      newTopic(bootstrap, 6, "grp-src"),
      newTopic(bootstrap, 6, "grp-rep"),
      newTopic(bootstrap, 6, "grp-out"),
    ]);
  });
  after(async () => {
    await Promise.all(opened.map((o) => o.close().catch(() => {})));
  });

  it("two members split 6 partitions 3/3, co-partitioned over two topics; a third joining: revoked first, 2/2/2 in the second round (cooperative)", async () => {
    const group = `g-${randomUUID().slice(0, 8)}`;
    const a = member(group);
    const b = member(group);
    const first = await settle([a, b]);
    const [ra, rb] = [first.get(a)!, first.get(b)!];
    checkSplit([ra, rb], [source, repartition], 6);
    assert.deepEqual([indexes(ra.partitions).length, indexes(rb.partitions).length], [3, 3]);
    assert.notEqual(ra.memberId, rb.memberId);
    assert.deepEqual(a.metadata(), { groupId: group, generationId: ra.generationId, memberId: ra.memberId, groupInstanceId: null });

    // Another client's tools read the group: kafkajs's admin and ConsumerProtocol decoders.
    const admin = new Kafka({ brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const [desc] = (await admin.describeGroups([group])).groups;
      assert.equal(desc!.protocolType, "consumer");
      assert.equal(desc!.protocol, "arus-cooperative-sticky-range");
      assert.equal(desc!.state, "Stable");
      const byMember = new Map(desc!.members.map((m) => [m.memberId, m]));
      for (const r of [ra, rb]) {
        const m = byMember.get(r.memberId)!;
        assert.deepEqual(AssignerProtocol.MemberMetadata.decode(m.memberMetadata)!.topics, [source, repartition].sort());
        const assigned = AssignerProtocol.MemberAssignment.decode(m.memberAssignment)!.assignment;
        const got = Object.entries(assigned).flatMap(([topic, ps]) => ps.map((partition) => tpKey({ topic, partition })));
        assert.deepEqual(got.sort(), r.partitions.map(tpKey).sort());
      }
    } finally {
      await admin.disconnect();
    }

    const reasons: string[] = [];
    a.onRebalanceNeeded((r) => reasons.push(r));
    const c = member(group);
    const joining = c.join();
    for (const since = Date.now(); !(a.needsRejoin && b.needsRejoin); ) {
      assert.ok(Date.now() - since < 10_000, "the members never saw the rebalance");
      await sleep(50);
    }
    assert.deepEqual(reasons, ["REBALANCE_IN_PROGRESS"]);
    // Round one (KIP-429): a and b keep two indexes each and give one up to nobody; c gets nothing yet.
    const [ra1, rb1, rc1] = await Promise.all([a.join(), b.join(), joining]);
    assert.equal(new Set([ra1.generationId, rb1.generationId, rc1.generationId]).size, 1);
    assert.ok(ra1.cooperative && rb1.cooperative && rc1.cooperative);
    assert.deepEqual(rc1.partitions, []);
    // Every member is told a second round follows (so they heartbeat fast to join it at once).
    assert.ok(ra1.followUp && rb1.followUp && rc1.followUp);
    for (const [before, now] of [
      [ra, ra1],
      [rb, rb1],
    ] as const) {
      assert.equal(indexes(now.partitions).length, 2);
      assert.ok(
        indexes(now.partitions).every((p) => indexes(before.partitions).includes(p)),
        "a kept index moved",
      );
      assert.equal(indexes(now.revoked).length, 1);
    }
    // Members that gave partitions up rejoin at once; c does not need to.
    assert.ok(a.needsRejoin && b.needsRejoin && !c.needsRejoin);
    assert.deepEqual(reasons, ["REBALANCE_IN_PROGRESS", "REVOKED"]);
    // Round two: the revoked indexes go to c, nothing else moves.
    const second = await settle([a, b, c]);
    const [ra2, rb2, rc2] = [second.get(a)!, second.get(b)!, second.get(c)!];
    assert.ok(ra2.generationId > ra1.generationId);
    assert.deepEqual(indexes(ra2.partitions), indexes(ra1.partitions));
    assert.deepEqual(indexes(rb2.partitions), indexes(rb1.partitions));
    assert.deepEqual(
      indexes(rc2.partitions),
      [...indexes(ra1.revoked), ...indexes(rb1.revoked)].sort((x, y) => x - y),
    );
    checkSplit([ra2, rb2, rc2], [source, repartition], 6);
    assert.ok(!ra2.followUp && !rb2.followUp && !rc2.followUp, "the second round leaves nothing to a third");
    assert.deepEqual(
      [ra2, rb2, rc2].map((r) => indexes(r.partitions).length),
      [2, 2, 2],
    );
    // Sticky: a and b each keep two of the three partition indexes they had.
    for (const [before, now] of [
      [ra, ra2],
      [rb, rb2],
    ] as const) {
      assert.equal(indexes(now.partitions).filter((p) => indexes(before.partitions).includes(p)).length, 2);
    }
    await Promise.all([a.leave(), b.leave(), c.leave()]);
  });

  it("a static member restarted within the session timeout gets its partitions back", async () => {
    const group = `g-${randomUUID().slice(0, 8)}`;
    const a = member(group, { groupInstanceId: "slot-0" });
    const b = member(group, { groupInstanceId: "slot-1" });
    const first = await settle([a, b]);
    const had = first.get(a)!.partitions.map(tpKey).sort();
    await a.close(); // no LeaveGroup: the coordinator keeps slot-0's partitions for the session timeout
    const a2 = member(group, { groupInstanceId: "slot-0" });
    const r2 = await a2.join();
    assert.deepEqual(r2.partitions.map(tpKey).sort(), had);
    // No rebalance: the same generation, and b never hears of one.
    assert.equal(r2.generationId, first.get(a)!.generationId);
    await sleep(b.heartbeatIntervalMs * 2.5);
    assert.equal(b.needsRejoin, false);
    assert.notEqual(r2.memberId, first.get(a)!.memberId);
    assert.equal(a2.metadata().groupInstanceId, "slot-0");
    await Promise.all([a2.leave(), b.leave()]);
  });

  it("two static members joining at the same instant wait only for a busy member's rejoin, not the rebalance timeout (eager: 2/2/2 in one round)", async () => {
    const group = `g-${randomUUID().slice(0, 8)}`;
    const eager = { rebalanceProtocol: "eager" } as const;
    const a = member(group, { groupInstanceId: "w1", ...eager });
    const first = (await settle([a])).get(a)!;
    assert.equal(first.cooperative, false);
    const b = member(group, { groupInstanceId: "w2", ...eager });
    const c = member(group, { groupInstanceId: "w3", ...eager });
    const joins = Promise.all([b.join(), c.join()]);
    // a learns of the rebalance by its heartbeat and rejoins only after its 3 s batch.
    for (const since = Date.now(); !a.needsRejoin; ) {
      assert.ok(Date.now() - since < 10_000, "the first member never saw the rebalance");
      await sleep(50);
    }
    await sleep(3000);
    const rejoinedAt = Date.now();
    const ra = await a.join();
    const [rb, rc] = await joins;
    assert.ok(Date.now() - rejoinedAt < 5000, `the joins ended ${Date.now() - rejoinedAt} ms after the busy member rejoined`);
    assert.equal(new Set([ra.generationId, rb.generationId, rc.generationId]).size, 1);
    assert.ok(ra.generationId > first.generationId);
    checkSplit([ra, rb, rc], [source, repartition], 6);
    assert.deepEqual(
      [ra, rb, rc].map((r) => indexes(r.partitions).length),
      [2, 2, 2],
    );
    await Promise.all([a.leave(), b.leave(), c.leave()]);
  });

  it("a member that leaves while its rejoin waits for the others does not join again", async () => {
    const group = `g-${randomUUID().slice(0, 8)}`;
    const a = member(group);
    const c = member(group);
    await settle([a, c]);
    const b = member(group);
    const joiningB = b.join();
    for (const since = Date.now(); !(a.needsRejoin && c.needsRejoin); ) {
      assert.ok(Date.now() - since < 10_000, "the members never saw the rebalance");
      await sleep(50);
    }
    // a rejoins beside its work; the group waits for c. a leaves meanwhile.
    const joiningA = assert.rejects(a.join(), /left the group while joining/);
    await sleep(300);
    await a.leave();
    await joiningA;
    const [rb, rc] = await Promise.all([joiningB, c.join()]);
    const settled = await settle([b, c]);
    checkSplit([settled.get(b)!, settled.get(c)!], [source, repartition], 6);
    assert.ok(rc.generationId === rb.generationId);
    const admin = new Kafka({ brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const [desc] = (await admin.describeGroups([group])).groups;
      assert.equal(desc!.members.length, 2, "a left and stayed out");
    } finally {
      await admin.disconnect();
    }
    await Promise.all([b.leave(), c.leave()]);
  });

  it("a group with an eager-only member runs eager: the cooperative member falls back", async () => {
    const group = `g-${randomUUID().slice(0, 8)}`;
    const a = member(group);
    const b = member(group, { rebalanceProtocol: "eager" });
    const got = await settle([a, b]);
    for (const r of got.values()) {
      assert.equal(r.protocol, "arus-sticky-range");
      assert.equal(r.cooperative, false);
    }
    checkSplit([...got.values()], [source, repartition], 6);
    await Promise.all([a.leave(), b.leave()]);
  });

  it("a second live process with the same group instance id fences the first, which cannot rejoin", async () => {
    const group = `g-${randomUUID().slice(0, 8)}`;
    const a = member(group, { groupInstanceId: "slot-x" });
    const had = (await a.join()).partitions.map(tpKey).sort();
    const reasons: string[] = [];
    a.onRebalanceNeeded((r) => reasons.push(r));
    const twin = member(group, { groupInstanceId: "slot-x" });
    assert.deepEqual((await twin.join()).partitions.map(tpKey).sort(), had);
    for (const since = Date.now(); !a.needsRejoin; ) {
      assert.ok(Date.now() - since < 10_000, "the fenced member never noticed");
      await sleep(50);
    }
    assert.deepEqual(reasons, ["FENCED_INSTANCE_ID"]);
    await assert.rejects(a.join(), /another process joined with group instance id slot-x \(FENCED_INSTANCE_ID\)/);
    await twin.leave();
  });

  it("refuses members of one group that subscribe to different topics, on every member", async () => {
    const group = `g-${randomUUID().slice(0, 8)}`;
    const a = member(group, { groupInstanceId: "p1" });
    const b = member(group, { groupInstanceId: "p2", topics: [source] });
    await a.join(); // alone: a generation of its own
    const bJoin = b.join();
    for (const since = Date.now(); !a.needsRejoin; ) {
      assert.ok(Date.now() - since < 10_000, "a never saw b's join");
      await sleep(50);
    }
    const results = await Promise.allSettled([a.join(), bJoin]);
    for (const r of results) {
      assert.equal(r.status, "rejected");
      const e = (r as PromiseRejectedResult).reason;
      assert.ok(e instanceof GroupSubscriptionMismatch, String(e));
      assert.match(e.message, /subscribe to different topics: member p\d to \[.*\], member p\d to \[.*\]/);
    }
    await Promise.all([a.leave().catch(() => {}), b.leave().catch(() => {})]);
  });

  it("names the group, the servers and the cause when a topic is missing or the broker unreachable", async () => {
    const missing = member(`g-${randomUUID().slice(0, 8)}`, { topics: [source, "no-such-topic-for-arus"] });
    const at = bootstrap.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await assert.rejects(missing.join(), new RegExp(`Kafka group g-\\w+ at ${at}: subscribed topic no-such-topic-for-arus does not exist`));
    const down = member("g-down", { bootstrapServers: "127.0.0.1:1" });
    await assert.rejects(down.join(), /Kafka group g-down at 127\.0\.0\.1:1: cannot connect to the brokers/);
    const tx = new WorkerTransactions({ bootstrapServers: "127.0.0.1:1", transactionalId: "tx-down" });
    opened.push(tx);
    await assert.rejects(tx.init(), /transactional id tx-down at 127\.0\.0\.1:1: cannot connect/);
  });

  it("offsets commit with the transaction and read back stable; a zombie past its session timeout is fenced and its records stay invisible", async () => {
    const group = `g-${randomUUID().slice(0, 8)}`;
    const a = member(group, { groupInstanceId: "worker-a" });
    const b = member(group, { groupInstanceId: "worker-b" });
    const first = await settle([a, b]);
    const aParts = first.get(a)!.partitions.filter((tp) => tp.topic === source);
    const bParts = first.get(b)!.partitions.filter((tp) => tp.topic === source);
    const txA = transactions(`tx-a-${group}`);
    const txB = transactions(`tx-b-${group}`);
    await Promise.all([txA.init(), txB.init()]);
    const rec = (value: string, partition: number) => ({ topic: out, partition, key: null, value: Buffer.from(value), headers: [] });

    // B commits records and offsets together; a read waits while the transaction is open (require_stable).
    txB.begin();
    await txB.send([rec("b-1", 0), rec("b-2", 1)]);
    await txB.sendOffsets(new Map(bParts.map((tp) => [tpKey(tp), 10])), b.metadata());
    let readDone = false;
    const read = b.committedOffsets(bParts).then((r) => {
      readDone = true;
      return r;
    });
    await sleep(800);
    assert.equal(readDone, false, "committedOffsets answered while the transaction that commits them was open");
    await txB.commit();
    assert.deepEqual(
      [...(await read).values()],
      bParts.map(() => 10),
    );
    assert.deepEqual(
      [...(await b.committedOffsets(aParts)).values()],
      aParts.map(() => null),
    );

    // A stops heartbeating (a paused process): after the session timeout B takes everything over.
    const stale = a.metadata();
    await a.close();
    for (const since = Date.now(); !b.needsRejoin; ) {
      assert.ok(Date.now() - since < 15_000, "B never saw A's session expire");
      await sleep(100);
    }
    const taken = await b.join();
    assert.equal(taken.partitions.length, 12);
    assert.ok(taken.generationId > stale.generationId);

    // The zombie wakes up and tries to commit its batch with its stale group metadata.
    txA.begin();
    await txA.send([rec("zombie-1", 2), rec("zombie-2", 3)]);
    await assert.rejects(
      txA.sendOffsets(
        aParts.map((tp) => ({ ...tp, offset: 99 })),
        stale,
      ),
      (e: unknown) =>
        e instanceof KafkaFencedError && e.scope === "group" && /UNKNOWN_MEMBER_ID|ILLEGAL_GENERATION|FENCED_INSTANCE_ID/.test(e.reason),
    );
    await assert.rejects(txA.commit(), /abort it/);
    await txA.abort();
    assert.deepEqual(
      [...(await b.committedOffsets(aParts)).values()],
      aParts.map(() => null),
    );

    // A restarted worker-b producer fences the old one (same transactional id).
    const txB2 = transactions(`tx-b-${group}`);
    await txB2.init();
    txB.begin();
    await assert.rejects(txB.send([rec("fenced", 4)]), (e: unknown) => e instanceof KafkaFencedError && e.scope === "producer");
    txB2.begin();
    await txB2.send([rec("b-3", 5)]);
    await txB2.sendOffsets(
      aParts.map((tp) => ({ ...tp, offset: 7 })),
      b.metadata(),
    );
    await txB2.commit();
    assert.deepEqual(
      [...(await b.committedOffsets(aParts)).values()],
      aParts.map(() => 7),
    );

    assert.deepEqual((await readValues(bootstrap, out, true)).sort(), ["b-1", "b-2", "b-3"]);
    const uncommitted = await readValues(bootstrap, out, false);
    assert.ok(uncommitted.includes("zombie-1") && uncommitted.includes("zombie-2"), "the zombie's records were written (then aborted)");
    await b.leave();
  });

  it("a producer initialized again ends an empty transaction over its last offsets' group as that one ended, and the group sees no change: committed offsets stay, an open one's are dropped", async () => {
    // transaction.ts endMarkerAgain: the marker that settles offsets a broker restart left
    // pending. A live broker never loses one, so this checks the extra transaction runs and
    // changes nothing the group sees (the lost-marker case itself needs a broker stopped at the
    // wrong moment: group-broker-outage.test.ts).
    const group = `g-${randomUUID().slice(0, 8)}`;
    const m = member(group);
    const parts = (await m.join()).partitions.filter((tp) => tp.topic === source);
    const tx = transactions(`tx-again-${group}`);
    await tx.init();
    const commitOffsets = async (offset: number, end: "commit" | "leave open") => {
      tx.begin();
      await tx.sendOffsets(
        parts.map((tp) => ({ ...tp, offset })),
        m.metadata(),
      );
      if (end === "commit") await tx.commit();
    };
    await commitOffsets(5, "commit");
    await tx.init(); // re-sends the commit marker
    assert.deepEqual(
      [...(await m.committedOffsets(parts)).values()],
      parts.map(() => 5),
      "the committed offsets stayed",
    );
    await commitOffsets(9, "leave open");
    await tx.init(); // InitProducerId aborts the open transaction; the abort marker goes again
    assert.deepEqual(
      [...(await m.committedOffsets(parts)).values()],
      parts.map(() => 5),
      "the open transaction's offsets were dropped",
    );
    await commitOffsets(12, "commit");
    assert.deepEqual(
      [...(await m.committedOffsets(parts)).values()],
      parts.map(() => 12),
    );
  });
});
