import { KafkaReader } from "./src/connectors/kafka/reader.js";
import { sourceOptions } from "./src/connectors/kafka/options.js";
const r = new KafkaReader(sourceOptions({ "kafka.bootstrap.servers": "127.0.0.1:40779", subscribe: process.argv[2]! }, true));
await r.latestOffsets(); await r.latest();
const old: number[] = [], neu: number[] = [];
for (let i = 0; i < 200; i++) {
  let t = performance.now(); await r.latest(); old.push(performance.now() - t);
  t = performance.now(); await r.latestOffsets(); neu.push(performance.now() - t);
}
const q = (a: number[], p: number) => a.sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]!.toFixed(2);
console.log("old partitions+offsetRange: p50", q(old, 0.5), "p90", q(old, 0.9), "p99", q(old, 0.99));
console.log("new latestOffsets:          p50", q(neu, 0.5), "p90", q(neu, 0.9), "p99", q(neu, 0.99));
await r.close();
