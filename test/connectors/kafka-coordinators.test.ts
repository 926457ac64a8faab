/**
 * The transactional producer keeps its coordinators (kafkajs-coordinators.ts): kafkajs 2.2.4
 * alone looks them up four times per transaction. Counted on the wire against the real broker;
 * the cache's error rule is checked on a stand-in cluster (it is arus's logic, not Kafka's).
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { cacheCoordinators } from "../../src/connectors/kafka/kafkajs-coordinators.js";
import { kafkaBootstrap, kafkaSkip, newTopic, readValues, testClient } from "./kafka-helpers.js";

const require = createRequire(import.meta.url);
const Connection = require("kafkajs/src/network/connection.js");

/** Counts the requests kafkajs sends, by API name, while `fn` runs. */
async function countRequests(fn: () => Promise<void>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const send = Connection.prototype.send;
  Connection.prototype.send = function (this: unknown, p: { request: { apiName: string } }) {
    counts.set(p.request.apiName, (counts.get(p.request.apiName) ?? 0) + 1);
    return send.call(this, p);
  };
  try {
    await fn();
  } finally {
    Connection.prototype.send = send;
  }
  return counts;
}

describe("kafka transactional producer coordinators", () => {
  const bootstrap = kafkaBootstrap()!;

  it("looks the coordinators up once, not before every transaction step", kafkaSkip(), async () => {
    const out = await newTopic(bootstrap, 1);
    const p = await testClient(bootstrap).transactionalProducer(`arus-coord-${out}`, 60000);
    const rec = (v: string) => ({ topic: out, partition: 0, key: null, value: Buffer.from(v), headers: [] });
    const counts = await countRequests(async () => {
      for (let i = 1; i <= 5; i++)
        await p.sendInTransaction([rec(`v${i}`)], { groupId: `g-${out}`, tp: { topic: out, partition: 0 }, offset: i });
    });
    await p.close();
    assert.equal(counts.get("EndTxn"), 5, "five transactions committed");
    // kafkajs alone: 4 per transaction (20). Cached: the transaction's and the group's, and
    // again after a retriable error (a new transactional id's coordinator may be loading).
    assert.ok((counts.get("GroupCoordinator") ?? 0) <= 6, `FindCoordinator requests: ${JSON.stringify([...counts])}`);
    assert.deepEqual(await readValues(bootstrap, out, true), ["v1", "v2", "v3", "v4", "v5"]);
  });

  it("drops a coordinator whose call failed, so the next step looks it up again", async () => {
    let lookups = 0;
    let fail = true;
    const broker = {
      async endTxn() {
        if (fail) throw Object.assign(new Error("not coordinator"), { type: "NOT_COORDINATOR_FOR_GROUP" });
        return "ok";
      },
    };
    const cluster = {
      async findGroupCoordinator() {
        lookups++;
        return broker;
      },
    } as { findGroupCoordinator(a: { groupId: string; coordinatorType?: number }): Promise<typeof broker> };
    cacheCoordinators(cluster);
    const find = () => cluster.findGroupCoordinator({ groupId: "t", coordinatorType: 1 });
    await (await find()).endTxn().catch(() => {});
    assert.equal(lookups, 1);
    fail = false;
    assert.equal(await (await find()).endTxn(), "ok");
    assert.equal(lookups, 2, "the failed call dropped the entry");
    await (await find()).endTxn();
    await find();
    assert.equal(lookups, 2, "a coordinator that answers stays cached");
    // Another group or coordinator type is its own entry.
    await cluster.findGroupCoordinator({ groupId: "t", coordinatorType: 0 });
    assert.equal(lookups, 3);
  });
});
