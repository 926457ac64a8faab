/**
 * What a group-mode worker does with a failed attempt (runtime/cluster/attempt-failures.ts): the
 * group's fences retry at once, a producer fence retries with a new epoch up to three times in a
 * row, a duplicate instance fails, broker errors (also wrapped, down the cause chain) retry
 * fetchOffset.numRetries times in a row then fail naming the bootstrap servers, anything else
 * fails as it is. Property: over any sequence of failures and successes, the worker fails on a
 * transient error exactly when more than `retries` of them came in a row.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { KafkaFencedError, KafkaTransientError } from "../../src/connectors/kafka/group/index.js";
import { AttemptFailures, MAX_PRODUCER_FENCES } from "../../src/runtime/cluster/attempt-failures.js";

const policy = (retries = 3) => new AttemptFailures({ retries, retryIntervalMs: 250, bootstrapServers: "broker-a:9092" });
/** A connection error as kafkajs raises it, wrapped by a caller. */
const refused = () => {
  const inner = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9092"), { name: "KafkaJSConnectionError" });
  return new Error("Kafka latestOffsets: failed", { cause: inner });
};

describe("group mode: a failed attempt", () => {
  it("group fence: retry at once, same producer", () => {
    const a = policy().decide(new KafkaFencedError("group", "ILLEGAL_GENERATION", "fenced"));
    assert.deepEqual(a, { kind: "retry", waitMs: 0, newProducerEpoch: false });
  });

  it("FENCED_INSTANCE_ID: fail with that error", () => {
    const e = new KafkaFencedError("group", "FENCED_INSTANCE_ID", "another process");
    assert.deepEqual(policy().decide(e), { kind: "fail", error: e });
  });

  it("producer fence: a new epoch, until MAX_PRODUCER_FENCES in a row with no commit in between", () => {
    const p = policy();
    const fence = new KafkaFencedError("producer", "INVALID_PRODUCER_EPOCH", "fenced");
    for (let i = 0; i < MAX_PRODUCER_FENCES; i++) assert.deepEqual(p.decide(fence), { kind: "retry", waitMs: 0, newProducerEpoch: true });
    assert.equal(p.decide(fence).kind, "fail");
    p.committed();
    assert.equal(p.decide(fence).kind, "retry");
  });

  it("broker errors: retried with a new epoch after the interval, then a failure naming the bootstrap servers", () => {
    const p = policy(2);
    assert.deepEqual(p.decide(refused()), { kind: "retry", waitMs: 250, newProducerEpoch: true });
    assert.deepEqual(p.decide(new KafkaTransientError("NOT_COORDINATOR", "moved")), { kind: "retry", waitMs: 250, newProducerEpoch: true });
    const last = p.decide(refused());
    assert.equal(last.kind, "fail");
    assert.match(String((last as { error: Error }).error.message), /broker-a:9092 kept failing \(3 attempts, fetchOffset\.numRetries 2\)/);
  });

  it("anything else fails as it is", () => {
    const e = new Error("CLUSTER_PIPELINE_MISMATCH");
    assert.deepEqual(policy().decide(e), { kind: "fail", error: e });
  });

  it("property: fails on a transient error exactly when more than `retries` came in a row", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.array(fc.boolean(), { maxLength: 40 }), (retries, steps) => {
        const p = policy(retries);
        let run = 0;
        for (const failed of steps) {
          if (!failed) {
            p.succeeded();
            run = 0;
            continue;
          }
          run++;
          const a = p.decide(refused());
          assert.equal(a.kind, run > retries ? "fail" : "retry");
          if (a.kind === "fail") return;
        }
      }),
    );
  });
});
