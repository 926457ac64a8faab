/**
 * kafkajs 2.2.4's cluster.metadata() resolved null when no broker answered (its withBroker drops
 * each broker's error), and its admin failed on that null with a TypeError: a group-mode worker
 * whose broker stopped failed for good (group-broker-outage.test.ts: once in seven runs under load)
 * instead of retrying. With kafkajs-metadata.ts it is a connection error, which group mode
 * retries (errors.ts: transient).
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { classify, KafkaTransientError } from "../../src/connectors/kafka/group/errors.js";
import { installMetadataFix } from "../../src/connectors/kafka/kafkajs-metadata.js";

const require = createRequire(import.meta.url);
const { Kafka, logLevel, KafkaJSConnectionClosedError } = require("kafkajs");

/** A kafkajs cluster of one broker whose Metadata request fails, as on a connection the broker closed. */
function clusterWithDeadBroker() {
  const kafka = new Kafka({ brokers: ["127.0.0.1:1"], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  const sym = Object.getOwnPropertySymbols(kafka).find((s) => s.description === "private:Kafka:createCluster")!;
  const cluster = kafka[sym]({});
  cluster.brokerPool.refreshMetadataIfNecessary = async () => {};
  cluster.brokerPool.brokers = { 1: {} };
  cluster.brokerPool.findBroker = async () => ({
    metadata: async () => {
      throw new KafkaJSConnectionClosedError("Closed connection");
    },
  });
  return cluster;
}

describe("kafkajs cluster metadata", () => {
  it("no broker answering is a transient connection error, not a null result", async () => {
    installMetadataFix();
    const cluster = clusterWithDeadBroker();
    const err = await cluster.metadata({ topics: ["t"] }).then(
      (md: unknown) => assert.fail(`resolved ${JSON.stringify(md)}`),
      (e: unknown) => e,
    );
    assert.equal((err as Error).name, "KafkaJSBrokerNotFound");
    assert.ok(classify(err, "listTopics") instanceof KafkaTransientError, "group mode retries it");
  });

  it("no broker answering FindCoordinator is transient too", () => {
    const { KafkaJSGroupCoordinatorNotFound } = require("kafkajs");
    const e = new KafkaJSGroupCoordinatorNotFound("Failed to find group coordinator");
    assert.ok(classify(e, "join") instanceof KafkaTransientError);
  });
});
