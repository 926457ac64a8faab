/** Shared helpers for the streaming semantics tests (not a test file itself). */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { functions as F, Session, type StreamingQuery, type StreamingQueryProgress } from "../../src/index.js";

/** The session every streaming test uses: UTC, 2 shuffle partitions (state spread over 2 stores). */
export function utcSession(): Session {
  return Session.builder()
    .appName("streaming-tests")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2")
    .getOrCreate();
}

/**
 * A fresh `ts TIMESTAMP` memory stream `ms` and `df`, its count per 10-second window with a
 * watermark of `delay` (10 seconds unless given): the windowed aggregation most of these tests run.
 */
export function windowedCount(session: Session, delay = "10 seconds") {
  const ms = session.memoryStream("ts TIMESTAMP");
  return { ms, df: ms.toDF().withWatermark("ts", delay).groupBy(F.window("ts", "10 seconds")).count() };
}

/** A timestamp `s` seconds after the epoch (times in these tests are "within one minute"). */
export function sec(s: number): Date {
  return new Date(s * 1000);
}

/** ISO text of `s` seconds after the epoch, as progress `eventTime` prints it. */
export function iso(s: number): string {
  return new Date(s * 1000).toISOString();
}

/** `batchWatermarkMs` / `batchTimestampMs` recorded in `<checkpoint>/offsets/<n>`. */
export function offsetsMeta(checkpoint: string, n: number): { batchWatermarkMs: number; batchTimestampMs: number } {
  const text = readFileSync(path.join(checkpoint, "offsets", String(n)), "utf8");
  return JSON.parse(text.split("\n")[1]!) as { batchWatermarkMs: number; batchTimestampMs: number };
}

/** `nextBatchWatermarkMs` recorded in `<checkpoint>/commits/<n>`. */
export function commitWatermark(checkpoint: string, n: number): number {
  const text = readFileSync(path.join(checkpoint, "commits", String(n)), "utf8");
  return (JSON.parse(text.split("\n")[1]!) as { nextBatchWatermarkMs: number }).nextBatchWatermarkMs;
}

/** The state operator entry `i` of a query's last progress (fails loudly when absent). */
export function stateOp(q: StreamingQuery, i = 0): StreamingQueryProgress["stateOperators"][number] {
  const op = q.lastProgress?.stateOperators[i];
  if (!op) throw new Error(`no stateOperators[${i}] in the last progress: ${JSON.stringify(q.lastProgress)}`);
  return op;
}

/** State operator `i` of the most recent progress that read input rows (skips no-data batches). */
export function dataBatchOp(q: StreamingQuery, i = 0): StreamingQueryProgress["stateOperators"][number] {
  const p = [...q.recentProgress].reverse().find((x) => x.numInputRows > 0);
  const op = p?.stateOperators[i];
  if (!op) throw new Error(`no data batch with stateOperators[${i}] in recentProgress`);
  return op;
}

/** `2024-01-01 00:00:SS` (seconds below 60), as the file-per-batch tests write event times. */
export const atSecond = (sec: number): string => `2024-01-01 00:00:${String(sec).padStart(2, "0")}`;

/**
 * The left side of the stream-stream join tests (a NULL key, a value failing `length(lv) > 1`),
 * three micro-batches: also the aliased-key aggregation tests' input.
 */
export const LEFT_BATCHES = [
  [
    { lk: 1, lt: atSecond(1), lv: "a" },
    { lk: null, lt: atSecond(2), lv: "n1" },
    { lk: 2, lt: atSecond(3), lv: "long_a" },
  ],
  [
    { lk: 1, lt: atSecond(20), lv: "b" },
    { lk: 4, lt: atSecond(21), lv: "long_b" },
  ],
  [{ lk: 3, lt: atSecond(40), lv: "c" }],
];

/** One JSON-lines file per micro-batch in `dir` (created), modification times in file order. */
export function writeBatchFiles(dir: string, batches: readonly (readonly Record<string, unknown>[])[]): void {
  mkdirSync(dir, { recursive: true });
  batches.forEach((rows, i) => {
    const f = path.join(dir, `part-${i}.json`);
    writeFileSync(f, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    utimesSync(f, 1_700_000_000 + i * 10, 1_700_000_000 + i * 10);
  });
}
