/**
 * kafkajs 2.2.4's request queue, once a request had to wait (too many in flight, or a broker's
 * throttle), re-arms a timer for ever: `scheduleCheckPendingRequests` sets a timeout even when
 * nothing is pending and it is not throttled, and the callback schedules the next one (a
 * negative delay, so every millisecond), until the connection is disconnected. That costs CPU
 * while a client is open, and a connection that is never disconnected (e.g. one a failed query
 * left during a broker outage) keeps the process alive for good — seen as a test process that
 * never exited under load. This puts a version in place that schedules a check only when a
 * request waits: the next request that has to wait schedules again (kafkajs's `push`), and a
 * response frees a slot by checking the queue itself. Neither that timer nor the request-timeout
 * check keeps the process alive: an open socket does, while it is open.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: kafkajs's RequestQueue is untyped
type Any = any;

/** kafkajs's delay between checks of a non-empty queue that is not throttled. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

let installed = false;

export function installRequestQueueFix(): void {
  if (installed) return;
  const RequestQueue = require("kafkajs/src/network/requestQueue/index.js") as Any;
  const proto = RequestQueue?.prototype;
  if (
    typeof proto?.scheduleCheckPendingRequests !== "function" ||
    typeof proto.checkPendingRequests !== "function" ||
    typeof proto.scheduleRequestTimeoutCheck !== "function"
  )
    throw new Error("kafkajs internals changed: its RequestQueue is not 2.2.4's (pin kafkajs 2.2.4)");
  proto.scheduleCheckPendingRequests = function (this: Any): void {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const throttled = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttled > 0 ? throttled : CHECK_PENDING_REQUESTS_INTERVAL_MS,
    );
    // A request waiting in the queue is no reason for the process to live: its connection's
    // socket keeps it alive while the request can still go out, and a connection left behind
    // by a broker outage must not hold the process (a test file that never exited under load).
    this.throttleCheckTimeoutId.unref?.();
  };
  // The request-timeout check (every 100 ms from connect until the connection is disconnected)
  // is the same kind of timer: a connection whose disconnect never finished (it waits for
  // requests a broker outage left behind, and stays "disconnecting", which kafkajs counts as
  // connected) kept a broker-restart test's process alive after every test had ended.
  const scheduleRequestTimeoutCheck = proto.scheduleRequestTimeoutCheck;
  proto.scheduleRequestTimeoutCheck = function (this: Any): void {
    scheduleRequestTimeoutCheck.call(this);
    this.requestTimeoutIntervalId?.unref?.();
  };
  installed = true;
}
