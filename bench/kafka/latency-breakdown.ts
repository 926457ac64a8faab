/**
 * Where a latency-run event's time goes (issue 14): joins the benchmark's per-event times
 * (created, sent, output consumed), the engine's progress events (trigger start, durations, end
 * offset) and, if given, the engine's bench/kafka/trace.mjs timeline (Produce / Fetch requests,
 * garbage collections), all on the epoch clock. For all measured events and for the slowest 10 %
 * and 1 %: the mean ms from creation to send (the benchmark's producer), from send to the start
 * of the trigger that read it, in that trigger up to the sink's Produce, the Produce, and from
 * the Produce's answer to the benchmark's consumer.
 *
 *   ARUS_LATENCY_TRACE=/tmp/lat ARUS_TRACE=/tmp/trace.txt NODE_OPTIONS="--import $PWD/bench/kafka/trace.mjs" \
 *     node --import tsx bench/kafka.ts --engines arus --no-results-md --engine src --events 20000
 *   node --import tsx bench/kafka/latency-breakdown.ts /tmp/lat at-least-once [/tmp/trace.txt]
 */
import { readFileSync } from "node:fs";

const [prefix, mode = "at-least-once", traceFile] = process.argv.slice(2);
if (!prefix) throw new Error("usage: latency-breakdown.ts PREFIX [at-least-once|exactly-once] [TRACE.txt]");
const bench = JSON.parse(readFileSync(`${prefix}.${mode}.json`, "utf8")) as {
  first: number;
  total: number;
  primed: number;
  created: number[];
  sent: number[];
  arrivals: [number, number][];
};
type Progress = {
  timestamp: string;
  durationMs: Record<string, number>;
  numInputRows: number;
  sources: { startOffset: unknown; endOffset: unknown }[];
};
const progress = JSON.parse(readFileSync(`${prefix}.${mode}.progress.json`, "utf8")) as Progress[];
const offsetOf = (o: unknown): number => (o && typeof o === "object" ? Number(Object.values(Object.values(o)[0] as object)[0]) : 0);
const batches = progress
  .filter((p) => p.numInputRows > 0)
  .map((p) => ({
    t: Date.parse(p.timestamp),
    d: p.durationMs,
    from: offsetOf(p.sources[0]!.startOffset),
    until: offsetOf(p.sources[0]!.endOffset),
  }));

/** Engine timeline on the epoch clock: requests by name, and garbage collections. */
const requests: { t: number; end: number; name: string }[] = [];
const gcs: { t: number; d: number }[] = [];
if (traceFile) {
  let origin = 0;
  for (const l of readFileSync(traceFile, "utf8").split("\n")) {
    const [t, d, kind, name] = l.split(" ");
    if (kind === "origin") origin = Number(name);
    else if (kind === "kafka") requests.push({ t: origin + Number(t), end: origin + Number(t) + Number(d), name: name! });
    else if (kind === "gc") gcs.push({ t: origin + Number(t), d: Number(d) });
  }
}
const sinkRequest = mode === "exactly-once" ? "EndTxn" : "Produce";

const parts = ["producer", "toTrigger", "toSink", "sink", "consumer", "gcInBatch"] as const;
type Row = Record<(typeof parts)[number], number> & { total: number; prevBatch: number; idle: boolean };
const rows: Row[] = [];
let b = 0;
let a = 0;
let maxSeen = -1;
for (let s = bench.first; s < bench.total; s++) {
  const off = bench.primed + s;
  while (b < batches.length && batches[b]!.until <= off) b++;
  const batch = batches[b];
  while (a < bench.arrivals.length && maxSeen < s) maxSeen = Math.max(maxSeen, bench.arrivals[a++]![1]);
  if (!batch || batch.from > off || maxSeen < s) continue;
  const arrived = bench.arrivals[a - 1]![0];
  const d = batch.d;
  const end = batch.t + (d.triggerExecution ?? 0);
  // The sink's last request inside the trigger (without a trace: the trigger's end before its commit).
  const sinkReq = requests.filter((r) => r.name === sinkRequest && r.t >= batch.t && r.end <= end + 1).at(-1);
  const sinkEnd = sinkReq?.end ?? end - (d.commitOffsets ?? 0);
  const sinkStart = sinkReq?.t ?? sinkEnd;
  const prev = batches[b - 1];
  rows.push({
    total: arrived - bench.created[s]!,
    producer: bench.sent[s]! - bench.created[s]!,
    toTrigger: batch.t - bench.sent[s]!,
    toSink: sinkStart - batch.t,
    sink: sinkEnd - sinkStart,
    consumer: arrived - sinkEnd,
    gcInBatch: gcs.filter((g) => g.t >= batch.t && g.t < sinkEnd).reduce((n, g) => n + g.d, 0),
    prevBatch: prev ? (prev.d.triggerExecution ?? 0) : 0,
    // Sent after the previous data batch had ended: the query was idle (polling) when it came.
    idle: prev !== undefined && bench.sent[s]! > prev.t + (prev.d.triggerExecution ?? 0) + 1,
  });
}
rows.sort((x, y) => x.total - y.total);
const mean = (rs: Row[], k: Exclude<keyof Row, "idle">) => rs.reduce((n, r) => n + r[k], 0) / Math.max(1, rs.length);
const q = (p: number) => rows[Math.min(rows.length - 1, Math.ceil(p * rows.length) - 1)]?.total ?? Number.NaN;
console.log(
  `${mode}: ${rows.length} events, ${batches.length} batches; latency p50 ${q(0.5).toFixed(1)} p90 ${q(0.9).toFixed(1)} p99 ${q(0.99).toFixed(1)} ms`,
);
console.log(`mean ms          ${["total", ...parts, "prevBatch"].map((k) => k.padStart(9)).join(" ")}`);
for (const [label, rs] of [
  ["all", rows],
  ["slowest 10 %", rows.slice(Math.floor(0.9 * rows.length))],
  ["slowest 1 %", rows.slice(Math.floor(0.99 * rows.length))],
  [`came idle (${rows.filter((r) => r.idle).length})`, rows.filter((r) => r.idle)],
] as const) {
  console.log(
    `${label.padEnd(16)} ${(["total", ...parts, "prevBatch"] as const).map((k) => mean(rs, k).toFixed(2).padStart(9)).join(" ")}`,
  );
}
// Between triggers: the time from one data batch's end to the next one's start (idle triggers and polls).
const gaps = batches.slice(1).map((x, i) => x.t - (batches[i]!.t + (batches[i]!.d.triggerExecution ?? 0)));
gaps.sort((x, y) => x - y);
const gq = (p: number) => gaps[Math.min(gaps.length - 1, Math.ceil(p * gaps.length) - 1)] ?? Number.NaN;
console.log(
  `gap between data batches ms: mean ${(gaps.reduce((n, g) => n + g, 0) / Math.max(1, gaps.length)).toFixed(2)} p50 ${gq(0.5)} p90 ${gq(0.9)} p99 ${gq(0.99)}`,
);
const dur = (k: string) => (batches.reduce((n, x) => n + (x.d[k] ?? 0), 0) / Math.max(1, batches.length)).toFixed(2);
console.log(
  `mean batch ms: ${["latestOffset", "walCommit", "getBatch", "addBatch", "commitOffsets", "triggerExecution"].map((k) => `${k} ${dur(k)}`).join(", ")}`,
);
