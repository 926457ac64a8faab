/**
 * What one trigger's latestOffset costs the Kafka source, before and after the cached partition
 * list (issue 14's latency item): the old path (list the subscription's partitions — a metadata
 * request for all topics and one for the subscribed ones — then the earliest and the latest
 * offsets, two ListOffsets requests) against the new one (one ListOffsets request for the latest
 * offsets of the cached partitions), alternating, on a fresh 2-partition topic.
 *
 *   ARUS_KAFKA_BOOTSTRAP=host:port node --import tsx bench/kafka/latest-offset.ts [--calls 200]
 */
import { randomUUID } from "node:crypto";
import { kafkajsClient } from "../../src/connectors/kafka/client-kafkajs.js";
import { sourceOptions } from "../../src/connectors/kafka/options.js";
import { KafkaReader } from "../../src/connectors/kafka/reader.js";
import { loadAverage } from "../lib/proc.js";

const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
if (!bootstrap) throw new Error('needs a broker: export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"');
const i = process.argv.indexOf("--calls");
const calls = i > 0 ? Number(process.argv[i + 1]) : 200;
const topic = `bench-latest-${randomUUID().slice(0, 8)}`;
const client = kafkajsClient({
  bootstrapServers: bootstrap,
  clientId: "arus-bench",
  connectTimeoutMs: 5000,
  requestTimeoutMs: 30000,
  readCommitted: false,
});
const admin = await client.admin();
await admin.createTopic(topic, 2);
await admin.close();

const reader = new KafkaReader(sourceOptions({ "kafka.bootstrap.servers": bootstrap, subscribe: topic }, true));
await reader.latestOffsets();
await reader.latest();
const before: number[] = [];
const after: number[] = [];
const load = loadAverage();
for (let c = 0; c < calls; c++) {
  let t = performance.now();
  await reader.latest(); // partitions() + offsetRange(): the path of every trigger before
  before.push(performance.now() - t);
  t = performance.now();
  await reader.latestOffsets();
  after.push(performance.now() - t);
}
await reader.close();
const q = (a: number[], p: number) => a.sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]!.toFixed(2);
for (const [name, a] of [
  ["before: partitions + earliest and latest offsets", before],
  ["after: latest offsets of the cached partitions", after],
] as const) {
  console.log(`| ${name} | ${calls} | ${q(a, 0.5)} | ${q(a, 0.9)} | ${q(a, 0.99)} |`);
}
console.log(`load average before: ${load}; node ${process.version}; ${new Date().toISOString()}`);
process.exit(0);
