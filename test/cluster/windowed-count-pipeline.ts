/**
 * The in-process group-mode tests' query: a Kafka topic of JSON events `{id, k, v, ts}` → a
 * 10-second windowed count and sum per key → JSON rows `{start, k, n, s}` on a Kafka topic,
 * append mode, one worker of `group`. Each test varies the watermark delay and adds options.
 */
import assert from "node:assert/strict";
import { F, type Session } from "../../src/index.js";
import { readValues } from "../connectors/kafka-helpers.js";
import { clusterStateDir } from "./cluster-state-dir.js";

export interface WindowedCountOptions {
  readonly bootstrap: string;
  readonly input: string;
  readonly output: string;
  readonly group: string;
  /** The watermark delay; default "2 seconds". */
  readonly delay?: string;
  /** Extra reader options (e.g. fetchOffset retries). */
  readonly source?: Record<string, string | number>;
  /** Extra writer options (arus.cluster.*). */
  readonly sink?: Record<string, string | number>;
}

/** The tests' events read from `topic` (earliest on), parsed: id, k, v, ts. */
export function eventsFrom(s: Session, bootstrap: string, topic: string, source: Record<string, string | number> = {}) {
  return s.readStream
    .format("kafka")
    .option("kafka.bootstrap.servers", bootstrap)
    .option("subscribe", topic)
    .option("startingOffsets", "earliest")
    .options(source)
    .load()
    .select(F.from_json(F.col("value").cast("string"), "id BIGINT, k STRING, v BIGINT, ts TIMESTAMP").alias("e"))
    .select("e.*");
}

export function startWindowedCount(s: Session, o: WindowedCountOptions) {
  return eventsFrom(s, o.bootstrap, o.input, o.source)
    .withWatermark("ts", o.delay ?? "2 seconds")
    .groupBy(F.window(F.col("ts"), "10 seconds"), F.col("k"))
    .agg(F.count("*").alias("n"), F.sum("v").alias("s"))
    .select(F.to_json(F.struct(F.col("window.start").alias("start"), "k", "n", "s")).alias("value"))
    .writeStream.format("kafka")
    .option("kafka.bootstrap.servers", o.bootstrap)
    .option("topic", o.output)
    .option("arus.cluster.group", o.group)
    .option("arus.cluster.sessionTimeoutMs", 6000)
    .option("arus.cluster.stateDir", clusterStateDir())
    .options(o.sink ?? {})
    .outputMode("append")
    .start();
}

/** The output's windows (read_committed) as (window start ISO | key) → count and sum, failing on one written twice. */
export async function readWindows(bootstrap: string, output: string): Promise<Map<string, { n: number; s: number }>> {
  const seen = new Map<string, { n: number; s: number }>();
  for (const v of await readValues(bootstrap, output, true)) {
    const r = JSON.parse(v) as { start: string; k: string; n: number; s: number };
    const key = `${new Date(r.start).toISOString()}|${r.k}`;
    assert.ok(!seen.has(key), `window ${key} written twice`);
    seen.set(key, { n: r.n, s: r.s });
  }
  return seen;
}

/** Polls `cond` every 200 ms until it holds; fails naming `what` after `ms`. */
export async function until(what: string, cond: () => Promise<boolean> | boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The tests' events: id → key `k<id % keys>`, value `id % values`, event time t0 + id × 100 ms. */
export interface EventShape {
  readonly t0: number;
  readonly keys: number;
  readonly values: number;
}

/** The oracle (a single process, no row late): (10 s window start ISO | key) → count and sum of events `ids`. */
export function expectedWindows(ids: Iterable<number>, e: EventShape): Map<string, { n: number; s: number }> {
  const m = new Map<string, { n: number; s: number }>();
  for (const id of ids) {
    const key = `${new Date(Math.floor((e.t0 + id * 100) / 10_000) * 10_000).toISOString()}|k${id % e.keys}`;
    const w = m.get(key) ?? { n: 0, s: 0 };
    w.n++;
    w.s += id % e.values;
    m.set(key, w);
  }
  return m;
}
