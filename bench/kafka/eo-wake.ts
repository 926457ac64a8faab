/**
 * Does the broker answer a waiting read_committed Fetch when a transaction commits? One record
 * every `--every` ms, each in its own transaction (or, with `--plain`, an idempotent send with
 * acks=all), consumed by a kafkajs consumer with `readUncommitted: false` and the given
 * `maxWaitTimeInMs`. Prints the delay from the producer's commit (EndTxn answered; for --plain
 * the send answered) to the consumer's eachBatch, in percentiles: if the broker only answered
 * waiting fetches at their maxWait, the delay would spread over [0, maxWait].
 *
 *   node --import tsx bench/kafka/eo-wake.ts [--max-wait 50] [--count 300] [--every 10] [--plain]
 */
import { Kafka, logLevel } from "kafkajs";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const maxWait = arg("max-wait", 50);
const count = arg("count", 300);
const every = arg("every", 10);
const plain = process.argv.includes("--plain");
const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP;
if (!bootstrap) throw new Error("set ARUS_KAFKA_BOOTSTRAP");

const kafka = new Kafka({ clientId: "eo-wake", brokers: [bootstrap], logLevel: logLevel.NOTHING });
const topic = `eo-wake-${process.pid}-${Date.now()}`;
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });

const committed = new Float64Array(count).fill(Number.NaN);
const received = new Float64Array(count).fill(Number.NaN);
const consumer = kafka.consumer({ groupId: `${topic}-g`, maxWaitTimeInMs: maxWait, readUncommitted: false });
await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: true });
let got = 0;
await consumer.run({
  eachBatch: async ({ batch }) => {
    const now = performance.now();
    for (const m of batch.messages) {
      const s = Number(m.value?.toString());
      if (s >= 0 && s < count && Number.isNaN(received[s]!)) {
        received[s] = now;
        got++;
      }
    }
  },
});
const producer = plain
  ? kafka.producer({ idempotent: true, maxInFlightRequests: 1 })
  : kafka.producer({ transactionalId: `${topic}-tx`, idempotent: true, maxInFlightRequests: 1 });
await producer.connect();
// Let the consumer join and start fetching before the first record.
await new Promise((r) => setTimeout(r, 3000));
for (let s = 0; s < count; s++) {
  const t = performance.now();
  if (plain) {
    await producer.send({ topic, messages: [{ value: String(s) }], acks: -1 });
  } else {
    const txn = await producer.transaction();
    await txn.send({ topic, messages: [{ value: String(s) }] });
    await txn.commit();
  }
  committed[s] = performance.now();
  const rest = every - (committed[s]! - t);
  if (rest > 0) await new Promise((r) => setTimeout(r, rest));
}
const deadline = Date.now() + 10_000;
while (got < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
const delays = Array.from(received, (r, i) => r - committed[i]!)
  .filter((d) => Number.isFinite(d))
  .sort((a, b) => a - b);
const q = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))]!.toFixed(1);
console.log(
  `${plain ? "plain acks=all" : "transaction per record"}, maxWaitTimeInMs ${maxWait}: ${delays.length}/${count} received; ` +
    `commit → eachBatch ms p10 ${q(0.1)} p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${delays.at(-1)!.toFixed(1)}`,
);
await Promise.allSettled([consumer.disconnect(), producer.disconnect()]);
await admin.deleteTopics({ topics: [topic] }).catch(() => {});
await admin.disconnect();
