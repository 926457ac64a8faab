/**
 * Kafka end to end, arus vs PySpark local[2], in one run on the same topics and machine (issue 14:
 * "Benchmark side by side").
 *
 *   node --import tsx bench/kafka.ts [--events 500000] [--max-offsets 100000] [--rate 10000]
 *        [--seconds 10] [--engines arus,pyspark] [--engine dist|src] [--no-results-md]
 *        [--no-latency] [--no-throughput] [--cpu-prof DIR]  (arus's throughput and latency runs, with --engine src)
 *        [--arus-conf key=value ...]  (session settings for arus, e.g. arus.checkpoint.fsync=false)
 *        [--arus-source-option key=value ...]  (options of arus's Kafka source, e.g. arus.latestOffsetsFromFetch=false)
 *        [--node-arg FLAG ...]  (node flags for arus's engine process, e.g. --max-semi-space-size=64)
 *        [--engine-cpus LIST]  (taskset -c LIST for arus's engine process, e.g. 1; pin the broker and
 *                               this process elsewhere with taskset yourself)
 *   npm run bench -- --only kafka     (the same, as a section of npm run bench)
 *
 * The query (bench/kafka/arus-engine.ts and bench/pyspark/kafka.py, name for name):
 *   Kafka (subscribe, earliest) → from_json(CAST(value AS STRING), "seq BIGINT, k STRING, ts TIMESTAMP")
 *   → withWatermark(ts, 4 s) → groupBy(window(ts, 1 s), k).agg(count(*), max(seq))
 *   → key = k, value = to_json(struct(window, k, n, max_seq)) → Kafka sink, update mode, checkpoint.
 *
 * 1. Throughput: `--events` events (10 keys, event time 1 ms apart, 2 partitions) are produced
 *    once into one topic; each engine runs the query over it with trigger availableNow and
 *    `maxOffsetsPerTrigger` (after a warm-up run over a 20 000-event topic), into its own output
 *    topic. Figures: events/s on wall time and on engine time (sum of triggerExecution), CPU
 *    seconds of the engine's processes (for PySpark the JVM and the Python driver).
 * 2. Latency: this process produces `--rate` events/s into a fresh 1-partition topic (scheduled
 *    times, event time = creation time) while the engine runs the query with the default trigger,
 *    and consumes the output topic (read_committed); an output row's max_seq marks every event up
 *    to it delivered, latency = arrival − scheduled creation (no coordinated omission). The first
 *    2 s are a warm-up. arus runs twice: at-least-once and with `arus.exactlyOnce=true`.
 * 3. `--engines relay,...`: bench/kafka/relay-engine.ts, kafkajs alone relaying input to output
 *    (no engine), gives the latency floor of the broker, clients and machine (no throughput run).
 * The engines run one after the other (arus first), each in its own child process. Writes
 * bench/results/kafka.json and the `kafka` table of bench/RESULTS.md (unless --no-results-md).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Kafka, logLevel } from "kafkajs";
import { loadAverage } from "./lib/proc.js";
import { updateResultsMd } from "./lib/results-md.js";

const root = path.resolve(import.meta.dirname, "..");

export interface KafkaThroughput {
  engine: string;
  events: number;
  wallS: number;
  engineS: number;
  cpuS: number;
  batches: number;
  load: string;
}

export interface KafkaLatency {
  engine: string;
  mode: string;
  rate: number;
  seconds: number;
  events: number;
  undelivered: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  cpuS: number;
  batches: number;
  /** arus: mean durationMs per progress key over the data batches. */
  meanBatchMs?: Record<string, number>;
  /** How late this process's producer sent events, against their scheduled times (p99, ms). */
  producerLagP99Ms: number;
  load: string;
}

export interface KafkaBenchResult {
  date: string;
  events: number;
  maxOffsets: number;
  throughput: KafkaThroughput[];
  latency: KafkaLatency[];
  startup: Record<string, number>;
  pysparkVersion: string | null;
  /** --arus-conf settings of the run (none: the defaults). */
  arusConf?: string[];
  /** --arus-source-option options of the run (none: the defaults). */
  arusSourceOptions?: string[];
}

type Json = Record<string, unknown>;

/** A child engine speaking the line protocol of bench/kafka/arus-engine.ts and bench/pyspark/kafka.py. */
class Engine {
  private readonly lines: AsyncIterator<string>;
  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    this.lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    child.stderr!.on("data", (d: Buffer) => {
      for (const l of d.toString().split("\n")) if (/bench\]|Error|Exception/.test(l)) process.stderr.write(`[${name}] ${l.trim()}\n`);
    });
  }
  async next(): Promise<Json> {
    for (;;) {
      const r = await this.lines.next();
      if (r.done) throw new Error(`${this.name} exited (exit code ${this.child.exitCode})`);
      if (r.value.startsWith("{")) return JSON.parse(r.value) as Json;
    }
  }
  async send(cmd: Json): Promise<Json> {
    this.child.stdin!.write(`${JSON.stringify(cmd)}\n`);
    return this.next();
  }
  async exit(): Promise<void> {
    this.child.stdin!.write(`${JSON.stringify({ cmd: "exit" })}\n`);
    await new Promise((r) => this.child.once("exit", r));
  }
}

function quantile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const nowMs = () => performance.timeOrigin + performance.now();
const event = (seq: number, tsMs: number) => JSON.stringify({ seq, k: `k${seq % 10}`, ts: new Date(tsMs).toISOString() });

export async function kafkaBench(opts: {
  bootstrap: string;
  events: number;
  maxOffsets: number;
  rate: number;
  seconds: number;
  engines: string[];
  engine: "dist" | "src";
  cpuProf?: string;
  latency?: boolean;
  /** false: latency runs only (`--no-throughput`). */
  throughput?: boolean;
  /** key=value session settings for arus. */
  arusConf?: string[];
  /** key=value options of arus's Kafka source. */
  arusSourceOptions?: string[];
  /** Node flags for arus's engine process (V8 tuning: not the defaults, say so with the figures). */
  nodeArgs?: string[];
  /** `taskset -c` list for arus's engine process (the rest of the machine for the broker and this process). */
  engineCpus?: string;
  log?: (s: string) => void;
}): Promise<KafkaBenchResult> {
  const log = opts.log ?? ((s: string) => process.stderr.write(`[kafka-bench] ${s}\n`));
  const kafka = new Kafka({ clientId: "arus-kafka-bench", brokers: [opts.bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const producer = kafka.producer();
  await producer.connect();
  const run = Date.now().toString(36);
  const topic = async (name: string, partitions: number) => {
    const t = `bench-${name}-${run}`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: t, numPartitions: partitions, replicationFactor: 1 }] });
    return t;
  };
  const fill = async (t: string, n: number) => {
    const base = Date.UTC(2024, 0, 1);
    for (let i = 0; i < n; i += 20_000) {
      const messages = [];
      for (let s = i; s < Math.min(n, i + 20_000); s++) messages.push({ partition: s % 2, value: event(s, base + s) });
      await producer.send({ topic: t, messages });
    }
  };
  const warm = await topic("warm", 2);
  await fill(warm, 20_000);
  const input = await topic("in", 2);
  const p0 = performance.now();
  await fill(input, opts.events);
  log(`produced ${opts.events} events into ${input} in ${((performance.now() - p0) / 1000).toFixed(1)} s`);

  const result: KafkaBenchResult = {
    date: new Date().toISOString(),
    events: opts.events,
    maxOffsets: opts.maxOffsets,
    throughput: [],
    latency: [],
    startup: {},
    pysparkVersion: null,
    ...(opts.arusConf?.length ? { arusConf: opts.arusConf } : {}),
    ...(opts.arusSourceOptions?.length ? { arusSourceOptions: opts.arusSourceOptions } : {}),
  };
  try {
    const prof = (name: string, what: string) =>
      opts.cpuProf && name === "arus" ? path.join(opts.cpuProf, `kafka-${what}.cpuprofile`) : undefined;
    const throughputRuns = async (name: string, eng: Engine) => {
      await eng.send({ cmd: "throughput", topic: warm, out: await topic(`warm-out-${name}`, 2), maxOffsets: opts.maxOffsets });
      const t = await eng.send({
        cmd: "throughput",
        topic: input,
        out: await topic(`out-${name}`, 2),
        maxOffsets: opts.maxOffsets,
        profile: prof(name, "throughput"),
      });
      const tp: KafkaThroughput = {
        engine: name,
        events: Number(t.inputRows),
        wallS: Number(t.wallS),
        engineS: Number(t.engineS),
        cpuS: Number(t.cpuS),
        batches: Number(t.batches),
        load: String(t.load),
      };
      result.throughput.push(tp);
      log(`${name} throughput: ${tp.events} events in ${tp.wallS.toFixed(2)} s wall, ${tp.cpuS.toFixed(2)} CPU s, ${tp.batches} batches`);
    };
    for (const name of opts.engines) {
      const eng = startEngine(name, opts);
      const hello = await eng.next();
      result.startup[name] = Number(hello.startupS);
      if (name === "pyspark") result.pysparkVersion = String(hello.version);
      log(`${name} up in ${Number(hello.startupS).toFixed(1)} s`);
      // The relay (bench/kafka/relay-engine.ts) only measures the latency floor: no throughput run.
      if (name !== "relay" && opts.throughput !== false) await throughputRuns(name, eng);
      for (const exactlyOnce of opts.latency === false ? [] : name === "arus" ? [false, true] : [false]) {
        const l = await latencyRun(eng, kafka, producer, topic, {
          ...opts,
          exactlyOnce,
          profile: prof(name, exactlyOnce ? "latency-eo" : "latency"),
        });
        result.latency.push(l);
        log(
          `${name} latency (${l.mode}): p50 ${l.p50Ms.toFixed(1)} p99 ${l.p99Ms.toFixed(1)} max ${l.maxMs.toFixed(1)} ms, ${l.batches} batches, producer lag p99 ${l.producerLagP99Ms.toFixed(1)} ms, batch ms ${JSON.stringify(l.meanBatchMs ?? {})}`,
        );
      }
      await eng.exit();
    }
  } finally {
    await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
  }
  return result;
}

function startEngine(
  name: string,
  opts: {
    bootstrap: string;
    engine: "dist" | "src";
    arusConf?: string[];
    arusSourceOptions?: string[];
    nodeArgs?: string[];
    engineCpus?: string;
  },
): Engine {
  if (name === "relay") {
    const args = ["--import", "tsx", path.join(root, "bench/kafka/relay-engine.ts"), "--bootstrap", opts.bootstrap];
    const node = [process.execPath, ...(opts.nodeArgs ?? []), ...args];
    const cmd = opts.engineCpus ? ["taskset", "-c", opts.engineCpus, ...node] : node;
    return new Engine(name, spawn(cmd[0]!, cmd.slice(1), { cwd: root, stdio: ["pipe", "pipe", "pipe"] }));
  }
  if (name === "arus") {
    const args = ["--import", "tsx", path.join(root, "bench/kafka/arus-engine.ts"), "--bootstrap", opts.bootstrap, "--engine", opts.engine];
    for (const kv of opts.arusConf ?? []) args.push("--conf", kv);
    for (const kv of opts.arusSourceOptions ?? []) args.push("--source-option", kv);
    const node = [process.execPath, "--enable-source-maps", ...(opts.nodeArgs ?? []), ...args];
    // --engine-cpus: the engine on cores of its own, away from the load generator and the broker.
    const cmd = opts.engineCpus ? ["taskset", "-c", opts.engineCpus, ...node] : node;
    return new Engine(name, spawn(cmd[0]!, cmd.slice(1), { cwd: root, stdio: ["pipe", "pipe", "pipe"] }));
  }
  const jars = spawnSync("bash", [path.join(root, "scripts/spark-kafka-jars.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (jars.status !== 0) throw new Error("scripts/spark-kafka-jars.sh failed");
  const py = path.join(process.env.ARUS_PYSPARK_VENV ?? path.join(homedir(), ".cache/arus/pyspark-venv"), "bin/python");
  const args = [path.join(root, "bench/pyspark/kafka.py"), "--bootstrap", opts.bootstrap, "--jars", jars.stdout.trim()];
  return new Engine(name, spawn(py, args, { cwd: root, stdio: ["pipe", "pipe", "pipe"] }));
}

async function latencyRun(
  eng: Engine,
  kafka: Kafka,
  producer: ReturnType<Kafka["producer"]>,
  topic: (name: string, partitions: number) => Promise<string>,
  opts: { rate: number; seconds: number; exactlyOnce: boolean; profile?: string },
): Promise<KafkaLatency> {
  const mode = opts.exactlyOnce ? "exactly-once" : "at-least-once";
  const input = await topic(`lat-${eng.name}-${opts.exactlyOnce ? "eo" : "alo"}`, 1);
  const out = await topic(`lat-out-${eng.name}-${opts.exactlyOnce ? "eo" : "alo"}`, 1);
  const warmup = 2;
  const total = Math.round(opts.rate * (opts.seconds + warmup));
  const created = new Float64Array(total + 1000);
  const latency = new Float64Array(total + 1000).fill(Number.NaN);
  let delivered = -1;
  let sawOutput = false;
  /** ARUS_LATENCY_TRACE: every output arrival (epoch ms, max_seq), for bench/kafka/latency-breakdown.ts. */
  const arrivals: [number, number][] = [];
  const consumer = kafka.consumer({ groupId: `bench-${out}`, maxWaitTimeInMs: 50, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic: out, fromBeginning: true });
  await consumer.run({
    // No offset commits: kafkajs would send one after every batch, before its next Fetch (a
    // round trip added to the next output's arrival); nothing here reads them.
    autoCommit: false,
    eachBatchAutoResolve: true,
    eachBatch: async ({ batch }) => {
      const now = nowMs();
      let max = -1;
      for (const m of batch.messages) if (m.value) max = Math.max(max, Number(JSON.parse(m.value.toString()).max_seq));
      sawOutput = true;
      arrivals.push([now, max]);
      for (let s = delivered + 1; s <= max; s++) if (s >= 0 && s < total) latency[s] = now - created[s]!;
      if (max > delivered) delivered = max;
    },
  });
  await eng.send({ cmd: "latency-start", topic: input, out, exactlyOnce: opts.exactlyOnce, profile: opts.profile });
  // Priming: one event every 50 ms (sequence numbers below 0 are not measured) until the
  // query's first output arrives, so the JVM's or the engine's start is not in the figures.
  const primeUntil = Date.now() + 300_000;
  let primed = 0;
  for (let s = -1; !sawOutput && Date.now() < primeUntil; s--) {
    await producer.send({ topic: input, messages: [{ value: event(s, nowMs()) }] }).catch((e: Error) => {
      throw new Error(`priming failed: ${e.message}`);
    });
    primed++;
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const load = loadAverage();
  const t0 = nowMs();
  let produced = 0;
  const sends: Promise<unknown>[] = [];
  const lag = new Float64Array(total);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((nowMs() - t0) * opts.rate) / 1000) + 1);
      if (due > produced) {
        // At most 2 000 events a request (a stalled tick must not exceed the broker's 1 MB).
        for (let from = produced; from < due; from += 2000) {
          const messages = [];
          const sentAt = nowMs();
          for (let s = from; s < Math.min(due, from + 2000); s++) {
            created[s] = t0 + (s * 1000) / opts.rate;
            lag[s] = sentAt - created[s]!;
            messages.push({ value: event(s, created[s]!) });
          }
          sends.push(producer.send({ topic: input, messages, acks: 1 }));
        }
        produced = due;
      }
      if (produced >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(sends);
  const deadline = Date.now() + 60_000;
  while (delivered < total - 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const stop = await eng.send({ cmd: "latency-stop" });
  await consumer.disconnect();
  const first = Math.round(opts.rate * warmup);
  const traceFile = process.env.ARUS_LATENCY_TRACE;
  if (traceFile) {
    const sent = Array.from(lag.subarray(0, produced), (l, s) => created[s]! + l);
    writeFileSync(
      `${traceFile}.${mode}.json`,
      JSON.stringify({ first, total, primed, created: Array.from(created.subarray(0, total)), sent, arrivals }),
    );
  }
  const measured = latency.subarray(first, total);
  const got = Float64Array.from(measured.filter((x) => !Number.isNaN(x))).sort();
  return {
    engine: eng.name,
    mode,
    rate: opts.rate,
    seconds: opts.seconds,
    events: got.length,
    undelivered: measured.length - got.length,
    p50Ms: quantile(got, 0.5),
    p90Ms: quantile(got, 0.9),
    p99Ms: quantile(got, 0.99),
    maxMs: got.length ? got[got.length - 1]! : Number.NaN,
    cpuS: Number(stop.cpuS),
    batches: Number(stop.batches),
    meanBatchMs: stop.meanBatchMs as Record<string, number> | undefined,
    producerLagP99Ms: quantile(lag.subarray(0, produced).sort(), 0.99),
    load,
  };
}

export function kafkaTable(r: KafkaBenchResult): string {
  const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
  const k = (x: number) => `${(x / 1000).toFixed(x >= 100_000 ? 0 : 1)} k`;
  const by = (e: string) => r.throughput.find((t) => t.engine === e);
  const a = by("arus");
  const p = by("pyspark");
  const lines = [
    "| throughput (Kafka → from_json → windowed count → Kafka) | events | ev/s (wall) | ev/s (engine time) | CPU s | ev/CPU-s | batches | load before |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
    ...r.throughput.map(
      (t) =>
        `| ${t.engine} | ${t.events} | ${k(t.events / t.wallS)} | ${k(t.events / t.engineS)} | ${f(t.cpuS)} | ${k(t.events / t.cpuS)} | ${t.batches} | ${t.load} |`,
    ),
  ];
  if (a && p)
    lines.push(
      `| **arus ÷ PySpark** | | **${f(p.wallS / a.wallS, 1)}×** | ${f(p.engineS / a.engineS, 1)}× | ${f(p.cpuS / a.cpuS, 1)}× less CPU | | | |`,
    );
  lines.push(
    "",
    "| end-to-end latency (produce → output record consumed) | events | p50 ms | p90 ms | p99 ms | max ms | undelivered | batches | mean batch ms | producer lag p99 ms | CPU s | load before |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...r.latency.map(
      (l) =>
        `| ${l.engine}, ${l.mode} (${l.rate / 1000} k events/s, ${l.seconds} s) | ${l.events} | ${f(l.p50Ms, 1)} | ${f(l.p90Ms, 1)} | ${f(l.p99Ms, 1)} | ${f(l.maxMs, 1)} | ${l.undelivered} | ${l.batches} | ${l.meanBatchMs?.triggerExecution === undefined ? "n/a" : f(l.meanBatchMs.triggerExecution, 1)} | ${f(l.producerLagP99Ms, 1)} | ${f(l.cpuS)} | ${l.load} |`,
    ),
    "",
    `${r.events} events in 2 partitions, maxOffsetsPerTrigger ${r.maxOffsets}, local[2], 2 shuffle partitions${r.arusConf?.length ? `; arus with ${r.arusConf.join(", ")}` : ""}; Kafka 4.4 broker on the same machine (scripts/kafka.sh). Startup (not in the figures): ${Object.entries(
      r.startup,
    )
      .map(([e, s]) => `${e} ${s.toFixed(1)} s`)
      .join(
        ", ",
      )}. ${r.pysparkVersion ? `PySpark ${r.pysparkVersion} with spark-sql-kafka-0-10 4.2.0` : "PySpark not run"}; node ${process.version}. ${r.date}.`,
  );
  return lines.join("\n");
}

function buildDist(): void {
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], {
    cwd: root,
  });
}

export async function kafkaBenchFromArgs(argv: string[]): Promise<KafkaBenchResult> {
  const get = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
  if (!bootstrap) throw new Error('bench/kafka.ts needs a broker: export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"');
  const engine = get("--engine") === "src" ? "src" : "dist";
  if (engine === "dist") buildDist();
  return kafkaBench({
    bootstrap,
    events: Number(get("--events") ?? 500_000),
    maxOffsets: Number(get("--max-offsets") ?? 100_000),
    rate: Number(get("--rate") ?? 10_000),
    seconds: Number(get("--seconds") ?? 10),
    engines: (get("--engines") ?? "arus,pyspark").split(","),
    engine,
    cpuProf: get("--cpu-prof"),
    latency: !argv.includes("--no-latency"),
    throughput: !argv.includes("--no-throughput"),
    arusConf: argv.flatMap((a, i) => (a === "--arus-conf" && argv[i + 1] ? [argv[i + 1]!] : [])),
    arusSourceOptions: argv.flatMap((a, i) => (a === "--arus-source-option" && argv[i + 1] ? [argv[i + 1]!] : [])),
    nodeArgs: argv.flatMap((a, i) => (a === "--node-arg" && argv[i + 1] ? [argv[i + 1]!] : [])),
    engineCpus: get("--engine-cpus"),
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const argv = process.argv.slice(2);
  const r = await kafkaBenchFromArgs(argv);
  mkdirSync(path.join(root, "bench/results"), { recursive: true });
  writeFileSync(path.join(root, "bench/results/kafka.json"), `${JSON.stringify(r, null, 2)}\n`);
  const table = kafkaTable(r);
  process.stdout.write(`${table}\n`);
  if (!argv.includes("--no-results-md"))
    process.stderr.write(`bench/RESULTS.md: updated ${updateResultsMd({ kafka: table }).join(", ") || "nothing (no markers)"}\n`);
  process.exit(0);
}
