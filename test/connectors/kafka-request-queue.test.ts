/**
 * kafkajs 2.2.4's request queue re-armed a timer every millisecond for as long as a connection
 * stayed open once any request had waited (kafkajs-request-queue.ts): CPU for nothing, and a
 * process kept alive by a connection nobody disconnected. With the fix a check is scheduled only
 * while a request waits. Neither its timer nor the request-timeout check holds the process
 * open (a broker-restart test's process once outlived its tests by a connection left
 * disconnecting).
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { installRequestQueueFix } from "../../src/connectors/kafka/kafkajs-request-queue.js";

const require = createRequire(import.meta.url);
const RequestQueue = require("kafkajs/src/network/requestQueue/index.js");
const logger = { debug() {}, info() {}, warn() {}, error() {} };
const queue = () =>
  new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 1000, enforceRequestTimeout: false, clientId: "t", broker: "b", logger });

describe("kafkajs request queue", () => {
  it("schedules no check while nothing waits, and one while a request does", () => {
    installRequestQueueFix();
    const q = queue();
    q.checkPendingRequests(); // what a response does: the queue is empty
    assert.equal(q.throttleCheckTimeoutId, null, "a timer armed for an empty queue");
    q.throttledUntil = Date.now() + 60_000; // throttled: a new request has to wait
    q.pending.push({ send() {} });
    q.scheduleCheckPendingRequests();
    assert.notEqual(q.throttleCheckTimeoutId, null, "a waiting request gets its check");
    q.destroy();
  });

  it("the request-timeout check does not keep the process alive", () => {
    installRequestQueueFix();
    const q = new RequestQueue({
      maxInFlightRequests: 1,
      requestTimeout: 1000,
      enforceRequestTimeout: true,
      clientId: "t",
      broker: "b",
      logger,
    });
    q.scheduleRequestTimeoutCheck(); // what a connection does once its socket connects
    assert.notEqual(q.requestTimeoutIntervalId, undefined, "no request-timeout check armed");
    assert.equal(q.requestTimeoutIntervalId.hasRef(), false, "the request-timeout check holds the process");
    q.destroy();
  });
});
