/**
 * The Kafka broker of the tests: `ARUS_KAFKA_BOOTSTRAP` (start one with
 * `export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"`). Without it the Kafka tests skip,
 * unless ARUS_REQUIRE_KAFKA=1 (CI), which makes a missing broker an error.
 */
import { randomUUID } from "node:crypto";
import type { OutRecord, TopicPartition } from "../../src/connectors/kafka/client.js";
import { kafkajsClient } from "../../src/connectors/kafka/client-kafkajs.js";

export const SKIP_MESSAGE =
  'no Kafka broker: set ARUS_KAFKA_BOOTSTRAP (export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)") to run the Kafka tests';

export function kafkaBootstrap(): string | null {
  const b = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
  if (b) return b;
  if (process.env.ARUS_REQUIRE_KAFKA === "1") throw new Error(`ARUS_REQUIRE_KAFKA=1 but ${SKIP_MESSAGE}`);
  return null;
}

/** `{ skip }` for node:test: the message when there is no broker, false otherwise. */
export function kafkaSkip(): { skip: string | false } {
  return { skip: kafkaBootstrap() === null ? SKIP_MESSAGE : false };
}

export function testClient(bootstrap: string, readCommitted = false) {
  return kafkajsClient({
    bootstrapServers: bootstrap,
    clientId: "arus-test",
    connectTimeoutMs: 5000,
    requestTimeoutMs: 30000,
    readCommitted,
  });
}

/** A new topic with a unique name. */
export async function newTopic(bootstrap: string, partitions = 1, prefix = "t"): Promise<string> {
  const topic = `${prefix}-${randomUUID().slice(0, 8)}`;
  const admin = await testClient(bootstrap).admin();
  try {
    await admin.createTopic(topic, partitions);
  } finally {
    await admin.close();
  }
  return topic;
}

export async function produce(
  bootstrap: string,
  topic: string,
  values: readonly (
    | string
    | { value: string | null; key?: string | null; partition?: number; headers?: { key: string; value: string | null }[] }
  )[],
): Promise<void> {
  const p = await testClient(bootstrap).producer();
  try {
    const recs: OutRecord[] = values.map((v) => {
      const o = typeof v === "string" ? { value: v } : v;
      return {
        topic,
        partition: o.partition ?? 0,
        key: o.key == null ? null : Buffer.from(o.key),
        value: o.value === null ? null : Buffer.from(o.value),
        headers: (o.headers ?? []).map((h) => ({ key: h.key, value: h.value === null ? null : Buffer.from(h.value) })),
      };
    });
    await p.send(recs);
  } finally {
    await p.close();
  }
}

/**
 * Waits (up to 30 s) until no transaction is pending on the partitions: the last stable offset
 * (what read_committed sees as the end) reaches the log end. A transaction's commit returns
 * before its markers are written, so a read_committed read right after it can miss its records.
 */
export async function waitForStable(bootstrap: string, tps: readonly TopicPartition[]): Promise<void> {
  const committed = await testClient(bootstrap, true).admin();
  const uncommitted = await testClient(bootstrap, false).admin();
  try {
    for (const since = Date.now(); Date.now() - since < 30_000; ) {
      const [a, b] = await Promise.all([committed.offsetRange(tps), uncommitted.offsetRange(tps)]);
      if (tps.every((tp) => a.get(`${tp.topic}-${tp.partition}`)?.latest === b.get(`${tp.topic}-${tp.partition}`)?.latest)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await Promise.all([committed.close(), uncommitted.close()]);
  }
}

/** Every record's value of a topic (all partitions, in partition then offset order) as text. */
export async function readValues(bootstrap: string, topic: string, readCommitted = false): Promise<string[]> {
  const client = testClient(bootstrap, readCommitted);
  const admin = await client.admin();
  const fetcher = await client.fetcher();
  try {
    const tps = await admin.partitions([topic]);
    if (readCommitted) await waitForStable(bootstrap, tps);
    const ranges = await admin.offsetRange(tps);
    const out: string[] = [];
    for (const tp of tps) {
      const r = ranges.get(`${tp.topic}-${tp.partition}`)!;
      for (const rec of await fetcher.fetch(tp, r.earliest, r.latest))
        out.push(rec.value === null ? "null" : Buffer.from(rec.value).toString());
    }
    return out;
  } finally {
    await Promise.all([admin.close(), fetcher.close()]);
  }
}
