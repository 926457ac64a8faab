/**
 * The floor of bench/kafka.ts's latency run on this machine: no engine, only kafkajs relaying
 * the input topic to the output topic — a consumer's batch in, one record per key (its count
 * and highest `seq`, the fields the benchmark reads) out with acks=all, as arus's Kafka sink
 * writes. Whatever p99 this relay gets is the part of an engine's p99 that belongs to the broker,
 * the clients and the machine (two cores shared by the broker, the load generator and the
 * engine), not to the engine. Speaks bench/kafka.ts's line protocol (latency-start /
 * latency-stop / exit); `throughput` is answered with `skipped`.
 *
 *   node --import tsx bench/kafka.ts --engines relay,arus --no-results-md --engine src --events 20000
 */
import { createInterface } from "node:readline";
import { type Consumer, Kafka, logLevel, type Producer } from "kafkajs";
import { cpuSeconds } from "../lib/proc.js";

interface Cmd {
  cmd: "throughput" | "latency-start" | "latency-stop" | "exit";
  topic?: string;
  out?: string;
}

const argv = process.argv.slice(2);
const bootstrap = argv[argv.indexOf("--bootstrap") + 1]!;
const kafka = new Kafka({ clientId: "arus-bench-relay", brokers: [bootstrap], logLevel: logLevel.NOTHING });
const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const t0 = performance.now();
const producer: Producer = kafka.producer();
await producer.connect();
say({ engine: "relay", startupS: (performance.now() - t0) / 1000 });

let running: { consumer: Consumer; cpu0: number; batches: number } | null = null;
for await (const line of createInterface({ input: process.stdin })) {
  const cmd = JSON.parse(line) as Cmd;
  if (cmd.cmd === "exit") break;
  if (cmd.cmd === "throughput") say({ done: "throughput", skipped: true });
  else if (cmd.cmd === "latency-start") {
    const consumer = kafka.consumer({ groupId: `relay-${cmd.topic}`, maxWaitTimeInMs: 500 });
    await consumer.connect();
    await consumer.subscribe({ topic: cmd.topic!, fromBeginning: true });
    const r = { consumer, cpu0: cpuSeconds(), batches: 0 };
    running = r;
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const byKey = new Map<string, { n: number; max: number }>();
        for (const m of batch.messages) {
          if (!m.value) continue;
          const e = JSON.parse(m.value.toString()) as { seq: number; k: string };
          const g = byKey.get(e.k) ?? { n: 0, max: Number.NEGATIVE_INFINITY };
          g.n++;
          g.max = Math.max(g.max, e.seq);
          byKey.set(e.k, g);
        }
        if (byKey.size === 0) return;
        const messages = [...byKey].map(([k, g]) => ({ key: k, value: JSON.stringify({ k, n: g.n, max_seq: g.max }) }));
        await producer.send({ topic: cmd.out!, messages, acks: -1 });
        r.batches++;
      },
    });
    say({ done: "latency-start" });
  } else if (cmd.cmd === "latency-stop" && running) {
    const cpuS = cpuSeconds() - running.cpu0;
    await running.consumer.disconnect();
    say({ done: "latency-stop", cpuS, batches: running.batches });
    running = null;
  }
}
await producer.disconnect();
process.exit(0);
