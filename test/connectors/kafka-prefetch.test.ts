/**
 * The source's fetches on a batch's path (client-kafkajs.ts Fetcher): a range prefetched at
 * latestOffset time is read without another Fetch, and a range the log already holds records
 * past (a backlog) is fetched ahead while the batch runs. Fetch requests counted on the wire
 * against the real broker.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, testClient } from "./kafka-helpers.js";

const require = createRequire(import.meta.url);
const Connection = require("kafkajs/src/network/connection.js");

/** Fetch requests kafkajs sends while `fn` runs. */
async function fetches<T>(fn: () => Promise<T>): Promise<{ n: number; value: T }> {
  let n = 0;
  const send = Connection.prototype.send;
  Connection.prototype.send = function (this: unknown, p: { request: { apiName: string } }) {
    if (p.request.apiName === "Fetch") n++;
    return send.call(this, p);
  };
  try {
    return { value: await fn(), n };
  } finally {
    Connection.prototype.send = send;
  }
}

const settle = () => new Promise((r) => setTimeout(r, 300));
const text = (c: { count: number; values: { at(i: number): Uint8Array | null } }) =>
  Array.from({ length: c.count }, (_, i) => Buffer.from(c.values.at(i)!).toString());

describe("kafka source fetches", () => {
  const bootstrap = kafkaBootstrap()!;

  it("reads a prefetched range without another Fetch; fetches ahead only past a backlog", kafkaSkip(), async () => {
    const topic = await newTopic(bootstrap, 1);
    const tp = { topic, partition: 0 };
    await produce(bootstrap, topic, ["a", "b", "c"]);
    const f = await testClient(bootstrap).fetcher();
    try {
      f.prefetch!(tp, 0);
      await settle();
      const first = await fetches(() => f.fetchColumns(tp, 0, 3, true));
      assert.deepEqual(text(first.value), ["a", "b", "c"]);
      assert.equal(first.n, 0, "the prefetched answer holds the range");
      // The log ended at the range's end: nothing was fetched ahead, so the next range costs a Fetch.
      await produce(bootstrap, topic, ["d", "e", "f", "g", "h"]);
      await settle();
      const second = await fetches(() => f.fetchColumns(tp, 3, 5, true));
      assert.deepEqual(text(second.value), ["d", "e"]);
      assert.equal(second.n, 1, "one Fetch for a range nobody prefetched");
      // The log held records past 5 (a backlog): they were fetched ahead while "the batch ran".
      await settle();
      const third = await fetches(() => f.fetchColumns(tp, 5, 8, true));
      assert.deepEqual(text(third.value), ["f", "g", "h"]);
      assert.equal(third.n, 0, "read from the Fetch sent ahead");
      // A prefetch that found nothing is asked again by the next prefetch (not kept as the answer).
      f.prefetch!(tp, 8);
      await settle();
      await produce(bootstrap, topic, ["i"]);
      const again = await fetches(async () => {
        f.prefetch!(tp, 8);
        await settle();
      });
      assert.equal(again.n, 1, "the empty prefetch is replaced");
      const fourth = await fetches(() => f.fetchColumns(tp, 8, 9, true));
      assert.deepEqual(text(fourth.value), ["i"]);
      assert.equal(fourth.n, 0);
    } finally {
      await f.close();
    }
  });
});
