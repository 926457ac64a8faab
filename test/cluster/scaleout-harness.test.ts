/**
 * The scale-out harness's own parts (scaleout-harness.ts): the verifier finds every kind of
 * wrong output, the generator keeps its promises (unique ids, disorder below the delay, a flush
 * past the last window), random kill plans are valid scenarios, and the aborted-record count of
 * the final read sees an aborted transaction on the real broker.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Kafka, logLevel } from "kafkajs";
import { kafkaBootstrap, kafkaSkip, newTopic } from "../connectors/kafka-helpers.js";
import { encodeEvent, FLUSH_KEY, generateEvents, oracle, windowKey } from "./harness/events.js";
import { readTopic } from "./harness/output.js";
import {
  checkSteps,
  countRebalances,
  GROUP_SCENARIO,
  KAFKA_CRASH_POINTS,
  restoreKillScenario,
  SINGLE_SCENARIO,
  verifyAgg,
  verifyRaw,
  withRandomKills,
} from "./scaleout-harness.js";

const gen = fc.record({
  events: fc.integer({ min: 1, max: 400 }),
  keys: fc.integer({ min: 1, max: 9 }),
  partitions: fc.integer({ min: 1, max: 7 }),
  eventTimeSpanMs: fc.integer({ min: 0, max: 120_000 }),
  disorderMs: fc.integer({ min: 0, max: 5000 }),
  seed: fc.integer({ min: 0, max: 1_000_000 }),
  partitionBy: fc.constantFrom("id" as const, "key" as const),
});

describe("scale-out generator and oracle", () => {
  it("unique ids, disorder below the delay, one flush per partition past the last window, oracle totals = input", () => {
    fc.assert(
      fc.property(gen, (g) => {
        const c = { ...g, windowMs: 10_000, watermarkDelayMs: 6000 };
        const events = generateEvents(c);
        const regular = events.filter((e) => !e.flush);
        const flush = events.filter((e) => e.flush);
        assert.equal(regular.length, c.events);
        assert.equal(new Set(events.map((e) => e.id)).size, events.length);
        assert.deepEqual(
          flush.map((e) => e.partition),
          Array.from({ length: c.partitions }, (_, i) => i),
        );
        // No regular event is late for a watermark that trails the max event time by the delay.
        let max = Number.NEGATIVE_INFINITY;
        for (const e of regular) {
          assert.ok(e.ts > max - c.watermarkDelayMs, `event ${e.id} would be late`);
          max = Math.max(max, e.ts);
        }
        // The flush moves the watermark past the end of every window of the regular events.
        const lastEnd = Math.max(...regular.map((e) => (Math.floor(e.ts / c.windowMs) + 1) * c.windowMs));
        for (const f of flush) assert.ok(f.ts - c.watermarkDelayMs >= lastEnd && f.k === FLUSH_KEY);
        for (const e of events) assert.ok(e.partition >= 0 && e.partition < c.partitions);
        const o = oracle(events, c.windowMs);
        assert.equal(
          [...o.values()].reduce((s, w) => s + w.cnt, 0),
          c.events,
        );
        assert.equal(
          [...o.values()].reduce((s, w) => s + w.sm, 0),
          regular.reduce((s, e) => s + e.v, 0),
        );
        assert.ok([...o.values()].every((w) => w.we - w.ws === 10 && w.k !== FLUSH_KEY));
        const decoded = JSON.parse(encodeEvent(regular[0]!).value) as { id: number; ts: string };
        assert.equal(decoded.id, regular[0]!.id);
        assert.equal(Date.parse(decoded.ts), regular[0]!.ts);
      }),
      { numRuns: 60 },
    );
  });

  it("refuses a disorder as large as the watermark delay", () => {
    assert.throws(
      () =>
        generateEvents({
          events: 5,
          keys: 1,
          partitions: 1,
          eventTimeSpanMs: 1,
          disorderMs: 30_000,
          windowMs: 10_000,
          watermarkDelayMs: 30_000,
          seed: 1,
          partitionBy: "id",
        }),
      /disorderMs \(30000\) must be below watermarkDelayMs/,
    );
  });
});

describe("scale-out verifier", () => {
  it("out-raw: a duplicate, a loss and a foreign record are each counted; the exact multiset is clean", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 50 }), fc.nat(), (values, pick) => {
        const v = values[pick % values.length]!;
        assert.deepEqual(
          { ...verifyRaw(values, [...values].reverse()), examples: [] },
          { expected: values.length, committed: values.length, duplicates: 0, missing: 0, unexpected: 0, examples: [] },
        );
        assert.equal(verifyRaw(values, [...values, v]).duplicates, 1);
        assert.equal(verifyRaw(values, [...values, v, v]).duplicates, 2);
        assert.equal(
          verifyRaw(
            values,
            values.filter((x) => x !== v),
          ).missing,
          1,
        );
        assert.equal(verifyRaw(values, [...values, `${v}\u0000x`]).unexpected, 1);
      }),
    );
  });

  it("out: a duplicated, missing, foreign or wrong (key, window) is each counted", () => {
    const events = generateEvents({
      events: 200,
      keys: 3,
      partitions: 2,
      eventTimeSpanMs: 40_000,
      disorderMs: 1000,
      windowMs: 10_000,
      watermarkDelayMs: 5000,
      seed: 7,
      partitionBy: "id",
    });
    const o = oracle(events, 10_000);
    const rows = [...o.values()].map((w) => JSON.stringify(w));
    const clean = verifyAgg(o, rows);
    assert.deepEqual([clean.duplicates, clean.missing, clean.unexpected, clean.wrong, clean.committed], [0, 0, 0, 0, o.size]);
    assert.equal(verifyAgg(o, [...rows, rows[0]!]).duplicates, 1);
    assert.equal(verifyAgg(o, rows.slice(1)).missing, 1);
    const first = [...o.values()][0]!;
    assert.equal(verifyAgg(o, [...rows.slice(1), JSON.stringify({ ...first, cnt: first.cnt + 1 })]).wrong, 1);
    assert.equal(verifyAgg(o, [...rows.slice(1), JSON.stringify({ ...first, sm: first.sm - 1 })]).wrong, 1);
    assert.equal(verifyAgg(o, [...rows, JSON.stringify({ k: FLUSH_KEY, ws: 0, we: 10, cnt: 2, sm: 0 })]).unexpected, 1);
    assert.equal(verifyAgg(o, [...rows, "not json"]).unexpected, 1);
    assert.ok(o.has(windowKey(first.k, first.ws)));
  });
});

describe("scale-out scenarios", () => {
  it("the fixed scenarios are valid; random kills added to them stay valid (every kill hits a running worker, every restart a stopped one)", () => {
    assert.equal(checkSteps("group", GROUP_SCENARIO).length, 6);
    assert.equal(checkSteps("single", SINGLE_SCENARIO).length, 4);
    assert.equal(checkSteps("group", restoreKillScenario(6000)).length, 7);
    assert.throws(() => checkSteps("single", SINGLE_SCENARIO.slice(0, 3)), /armed to crash with no restart/);
    assert.throws(
      () => checkSteps("single", [...SINGLE_SCENARIO.slice(0, 3), { at: 0.7, action: "kill", worker: "w1" }]),
      /only a start may follow/,
    );
    assert.throws(() => checkSteps("single", [...SINGLE_SCENARIO, { at: 0.1, action: "start", worker: "w2" }]), /one worker at a time/);
    assert.throws(() => checkSteps("group", [{ at: 0, action: "kill", worker: "w1" }]), /not running/);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 1, max: 30 }), fc.boolean(), (seed, kills, group) => {
        let a = seed;
        const random = () => (a = (a * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
        const base = group ? GROUP_SCENARIO : SINGLE_SCENARIO;
        const steps = withRandomKills(base, random, kills, 0.05, 0.95, KAFKA_CRASH_POINTS);
        checkSteps(group ? "group" : "single", steps);
        const added = steps.filter((s) => s.action === "kill").length - 1;
        const crashes = steps.filter((s) => s.crashPoint).length - base.filter((s) => s.crashPoint).length;
        assert.ok(added >= 0 && added <= kills && crashes <= added && steps.length === base.length + 2 * added + crashes);
      }),
    );
  });
});

describe("scale-out rebalance count", () => {
  const progress = (run: number, query: string, partitions: number[], cluster: unknown = null) => ({
    ev: "progress",
    worker: "w1",
    t: 0,
    run,
    query,
    partitions,
    cluster,
  });
  it("counts partition changes per run and query, or generation changes when more, plus rebalance lines", () => {
    assert.equal(countRebalances([progress(0, "raw", [0, 1, 2]), progress(0, "raw", [2, 1, 0])]), 0);
    // 0-5 -> 0,3 -> 0,3 -> 0,1,3: two changes; the agg query's own line is not a change; a new run starts afresh.
    const events = [
      progress(0, "raw", [0, 1, 2, 3, 4, 5]),
      progress(0, "agg", [0, 3]),
      progress(0, "raw", [0, 3]),
      progress(0, "raw", [3, 0]),
      progress(0, "raw", [0, 1, 3]),
      progress(1, "raw", [1]),
    ];
    assert.equal(countRebalances(events), 2);
    // Same partitions but three generations (a rebalance that gave them back): two.
    const gens = [1, 1, 2, 3].map((g) => progress(0, "raw", [0], { generation: g }));
    assert.equal(countRebalances(gens), 2);
    assert.equal(countRebalances([...gens, { ev: "rebalance", worker: "w1", t: 0, run: 0 }]), 3);
  });
});

describe("scale-out final read", kafkaSkip(), () => {
  it("counts an aborted transaction's records: read_uncommitted sees them, read_committed does not", { timeout: 60_000 }, async () => {
    const bootstrap = kafkaBootstrap()!;
    const topic = await newTopic(bootstrap, 2, "so-abort");
    const kafka = new Kafka({ brokers: [bootstrap], clientId: "arus-test", logLevel: logLevel.NOTHING });
    const id = `so-abort-${topic}`;
    const zombie = kafka.producer({ transactionalId: id, idempotent: true, maxInFlightRequests: 1 });
    const next = kafka.producer({ transactionalId: id, idempotent: true, maxInFlightRequests: 1 });
    try {
      await zombie.connect();
      const open = await zombie.transaction();
      await open.send({
        topic,
        messages: [
          { value: "a", partition: 0 },
          { value: "b", partition: 1 },
        ],
      });
      // A new producer with the same transactional id fences the zombie and aborts its transaction.
      await next.connect();
      const tx = await next.transaction();
      await tx.send({ topic, messages: [{ value: "c", partition: 0 }] });
      await tx.commit();
      const committed = await readTopic(bootstrap, topic, true);
      const all = await readTopic(bootstrap, topic, false);
      assert.deepEqual(
        committed.map((r) => r.value),
        ["c"],
      );
      assert.deepEqual(all.map((r) => r.value).sort(), ["a", "b", "c"]);
      assert.equal(all.length - committed.length, 2);
    } finally {
      await Promise.allSettled([zombie.disconnect(), next.disconnect()]);
    }
  });
});
