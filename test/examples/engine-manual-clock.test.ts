/**
 * Engine bug found while porting the seeds: ManualClock.waitUntil left its "abort" listener
 * on the query's AbortSignal when the wait ended because the clock moved, so every trigger of
 * a query on a ManualClock added one listener (MaxListenersExceededWarning after 11 triggers).
 */
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { test } from "node:test";
import { ManualClock } from "../../src/runtime/clock.js";

test("ManualClock.waitUntil removes its abort listener once the clock reaches the instant", async () => {
  const clock = new ManualClock(0);
  const abort = new AbortController();
  for (let i = 1; i <= 20; i++) {
    const p = clock.waitUntil(i * 1000, abort.signal);
    clock.setTime(i * 1000);
    await p;
  }
  assert.equal(getEventListeners(abort.signal, "abort").length, 0);
  assert.equal(clock.isWaiting(), false);
});

test("ManualClock.waitUntil still resolves and forgets the waiter on abort", async () => {
  const clock = new ManualClock(0);
  const abort = new AbortController();
  const p = clock.waitUntil(5000, abort.signal);
  assert.equal(clock.isWaiting(), true);
  abort.abort();
  await p;
  assert.equal(clock.isWaiting(), false);
  assert.equal(clock.now(), 0);
});
