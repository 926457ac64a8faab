// read_committed against the real broker: two transactions that overlap on one partition and
// end in the other order than they began. The broker lists a fetch's aborted transactions by
// their abort markers (its transaction index), not by their first offsets; a reader that
// expects the latter lets the earlier-begun transaction's records through as committed.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, describe, it } from "node:test";
import { WorkerTransactions } from "../../src/connectors/kafka/group/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, readValues } from "./kafka-helpers.js";

describe("read_committed over overlapping aborted transactions (real broker)", kafkaSkip(), () => {
  const bootstrap = kafkaBootstrap()!;
  const opened: WorkerTransactions[] = [];
  const transactions = (name: string) => {
    const t = new WorkerTransactions({ bootstrapServers: bootstrap, transactionalId: `rc-${name}-${randomUUID().slice(0, 8)}` });
    opened.push(t);
    return t;
  };
  after(async () => {
    await Promise.all(opened.map((t) => t.close().catch(() => {})));
  });

  it("drops both when the one begun first is aborted last", async () => {
    const topic = await newTopic(bootstrap, 1, "rc-overlap");
    const rec = (value: string) => ({ topic, partition: 0, key: null, value: Buffer.from(value), headers: [] });
    const first = transactions("first");
    const second = transactions("second");
    await Promise.all([first.init(), second.init()]);
    first.begin();
    await first.send([rec("first-0"), rec("first-1")]);
    second.begin();
    await second.send([rec("second-0"), rec("second-1")]);
    await second.abort(); // its marker is written first...
    await first.abort(); // ...so the broker lists this one, begun earlier, second
    await produce(bootstrap, topic, ["plain"]);
    assert.deepEqual(await readValues(bootstrap, topic, true), ["plain"]);
    assert.equal((await readValues(bootstrap, topic, false)).length, 5);
  });
});
