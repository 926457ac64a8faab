// Kafka's ConsumerProtocol layout as group mode writes and reads it
// (src/connectors/kafka/group/consumer-protocol.ts): round trips, and subscriptions written by
// other clients in older (v0) or newer (v3, rack id appended) versions.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { tpKey } from "../../src/connectors/kafka/client.js";
import {
  decodeAssignment,
  decodeSubscription,
  encodeAssignment,
  encodeSubscription,
} from "../../src/connectors/kafka/group/consumer-protocol.js";

const topicName = fc.stringMatching(/^[a-zA-Z0-9._-]{1,20}$/);
const tps = fc.uniqueArray(fc.record({ topic: topicName, partition: fc.integer({ min: 0, max: 1000 }) }), {
  selector: tpKey,
  maxLength: 30,
});

/** Big-endian helpers for hand-written layouts. */
const i16 = (v: number) => Buffer.from([(v >> 8) & 0xff, v & 0xff]);
const i32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
};
const str = (s: string) => Buffer.concat([i16(Buffer.byteLength(s)), Buffer.from(s)]);

describe("ConsumerProtocol encoding", () => {
  it("subscriptions and assignments round-trip", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(topicName, { maxLength: 5 }),
        tps,
        fc.integer({ min: -1, max: 1e6 }),
        fc.option(fc.uint8Array({ maxLength: 20 })),
        (topics, owned, gen, ud) => {
          const userData = ud === null ? null : Buffer.from(ud);
          const s = decodeSubscription(encodeSubscription({ topics, userData, ownedPartitions: owned, generationId: gen }), "m");
          assert.deepEqual(s.topics, topics);
          assert.deepEqual(s.userData, userData);
          assert.deepEqual(s.ownedPartitions.map(tpKey).sort(), owned.map(tpKey).sort());
          assert.equal(s.generationId, gen);
          const a = decodeAssignment(encodeAssignment({ partitions: owned, userData }));
          assert.deepEqual(a.partitions.map(tpKey).sort(), owned.map(tpKey).sort());
          assert.deepEqual(a.userData, userData);
        },
      ),
    );
  });

  it("reads a v0 subscription (no owned partitions) and a newer one with fields appended", () => {
    const v0 = Buffer.concat([i16(0), i32(2), str("a"), str("b"), i32(-1)]);
    assert.deepEqual(decodeSubscription(v0, "m"), { topics: ["a", "b"], userData: null, ownedPartitions: [], generationId: -1 });
    // v3 appends rack_id (nullable string) after generation_id.
    const v3 = Buffer.concat([i16(3), i32(1), str("a"), i32(-1), i32(1), str("a"), i32(2), i32(0), i32(5), i32(7), str("rack-1")]);
    assert.deepEqual(decodeSubscription(v3, "m"), {
      topics: ["a"],
      userData: null,
      ownedPartitions: [
        { topic: "a", partition: 0 },
        { topic: "a", partition: 5 },
      ],
      generationId: 7,
    });
  });

  it("an empty assignment may come as no bytes; garbage is refused naming the member", () => {
    assert.deepEqual(decodeAssignment(Buffer.alloc(0)), { partitions: [], userData: null });
    assert.throws(() => decodeSubscription(Buffer.from([0xff, 0xff]), "member w-3"), /consumer subscription of member w-3/);
  });
});
