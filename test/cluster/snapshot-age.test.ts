/**
 * The task snapshots' age limit against the changelog's delete.retention.ms
 * (src/runtime/cluster/snapshot-age.ts): the rule, and the configs read from a real topic.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { snapshotMaxAge, snapshotMaxAgeInForce } from "../../src/runtime/cluster/snapshot-age.js";
import { kafkaBootstrap, kafkaSkip, testClient } from "../connectors/kafka-helpers.js";

const HOUR = 3600 * 1000;

describe("group mode: snapshot age limit vs the changelog's delete.retention.ms", () => {
  it("keeps the option when it is below the retention, or the retention is unknown", () => {
    assert.equal(snapshotMaxAge(24 * HOUR, "cl", { snapshotMaxAgeMs: 12 * HOUR, snapshotMaxAgeExplicit: false }), 12 * HOUR);
    assert.equal(snapshotMaxAge(Number.NaN, "cl", { snapshotMaxAgeMs: 48 * HOUR, snapshotMaxAgeExplicit: true }), 48 * HOUR);
  });

  it("halves the retention when the default is not below it", () => {
    assert.equal(snapshotMaxAge(HOUR, "cl", { snapshotMaxAgeMs: 12 * HOUR, snapshotMaxAgeExplicit: false }), HOUR / 2);
    assert.equal(snapshotMaxAge(12 * HOUR, "cl", { snapshotMaxAgeMs: 12 * HOUR, snapshotMaxAgeExplicit: false }), 6 * HOUR);
  });

  it("refuses an explicit option at or above the retention, naming option, value, topic and retention", () => {
    assert.throws(
      () => snapshotMaxAge(HOUR, "arus-g-changelog", { snapshotMaxAgeMs: HOUR, snapshotMaxAgeExplicit: true }),
      (e: Error) =>
        e.message.includes("arus.cluster.snapshotMaxAgeMs") &&
        e.message.includes(`'${HOUR}'`) &&
        e.message.includes("arus-g-changelog") &&
        e.message.includes(`delete.retention.ms (${HOUR})`),
    );
  });

  it("reads delete.retention.ms of a real topic, its own or the broker's default", kafkaSkip(), async () => {
    const admin = await testClient(kafkaBootstrap()!).admin();
    try {
      const own = `cl-${randomUUID().slice(0, 8)}`;
      await admin.createTopic(own, 1, { "cleanup.policy": "compact", "delete.retention.ms": "60000" });
      assert.equal(await snapshotMaxAgeInForce(admin, own, { snapshotMaxAgeMs: 12 * HOUR, snapshotMaxAgeExplicit: false }), 30000);
      await assert.rejects(
        snapshotMaxAgeInForce(admin, own, { snapshotMaxAgeMs: 60000, snapshotMaxAgeExplicit: true }),
        /delete\.retention\.ms \(60000\)/,
      );
      assert.equal(await snapshotMaxAgeInForce(admin, own, { snapshotMaxAgeMs: 59999, snapshotMaxAgeExplicit: true }), 59999);
      const plain = `cl-${randomUUID().slice(0, 8)}`;
      await admin.createTopic(plain, 1, { "cleanup.policy": "compact" });
      // Kafka's default delete.retention.ms is 24 h: the 12 h default stands.
      assert.equal(await snapshotMaxAgeInForce(admin, plain, { snapshotMaxAgeMs: 12 * HOUR, snapshotMaxAgeExplicit: false }), 12 * HOUR);
      await admin.deleteTopic(own);
      await admin.deleteTopic(plain);
    } finally {
      await admin.close();
    }
  });
});
