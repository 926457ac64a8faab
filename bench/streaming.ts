/**
 * Per-batch overhead of the micro-batch loop (issue 3): batches of 0 and 1 rows through a
 * memory stream → select → noop sink, without and with a checkpoint, and with a stateful
 * windowed count; and the windowed count over a JSON file source, one 1-row file per batch
 * (where `arus.state.threads` = auto puts the state on the state threads under local[N ≥ 2]).
 *
 *   node --import tsx bench/streaming.ts [--conf key=value]...   (e.g. --conf arus.state.threads=2)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { functions as F, Session } from "../src/index.js";
import { loadAverage } from "./lib/proc.js";

export interface OverheadResult {
  name: string;
  batches: number;
  /** Mean durationMs.triggerExecution of the measured batches. */
  msPerBatch: number;
  /** Wall time of addData + processAllAvailable (the batch and one idle trigger), per batch. */
  wallMsPerBatch: number;
}

async function measure(
  name: string,
  rowsPerBatch: number,
  checkpoint: boolean,
  stateful: boolean,
  conf: readonly [string, string][],
  batches = 300,
  files = false,
): Promise<OverheadResult> {
  let builder = Session.builder().config("spark.sql.shuffle.partitions", "1");
  for (const [k, v] of conf) builder = builder.config(k, v);
  const session = builder.getOrCreate();
  const ms = session.memoryStream("id INT, ts TIMESTAMP");
  // files: each batch is one new JSON-lines file of the same rows in `input`
  const input = files ? mkdtempSync(path.join(tmpdir(), "arus-bench-in-")) : null;
  let df = input ? session.readStream.format("json").schema("id INT, ts TIMESTAMP").option("maxFilesPerTrigger", 1).load(input) : ms.toDF();
  if (stateful) df = df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds")).count();
  else df = df.select("id", "ts");
  const dir = checkpoint ? mkdtempSync(path.join(tmpdir(), "arus-bench-")) : null;
  let w = df.writeStream.format("noop").outputMode(stateful ? "update" : "append");
  if (dir) w = w.option("checkpointLocation", dir);
  const q = await w.start();
  // Every progress event, not recentProgress (which keeps the last 100).
  const trig: number[] = [];
  let measuring = false;
  const listener = {
    onQueryProgress: (e: { id: string; progress: { numInputRows: number; durationMs?: Record<string, number> } }) => {
      if (measuring && e.id === q.id && e.progress.numInputRows === rowsPerBatch) trig.push(e.progress.durationMs?.triggerExecution ?? 0);
    },
  };
  session.streams.addListener(listener);
  const rows = Array.from({ length: rowsPerBatch }, (_, i) => ({ id: i, ts: new Date(i * 1000) }));
  const lines = rows.map((r) => `${JSON.stringify({ id: r.id, ts: r.ts.toISOString() })}\n`).join("");
  let fileNo = 0;
  const add = () => {
    if (input) writeFileSync(path.join(input, `part-${String(fileNo++).padStart(6, "0")}.json`), lines);
    else ms.addData(rows);
  };
  // Warm-up, then measure: one addData (or file) + processAllAvailable = one batch.
  for (let i = 0; i < 20; i++) {
    add();
    await q.processAllAvailable();
  }
  measuring = true;
  const t = performance.now();
  for (let i = 0; i < batches; i++) {
    add();
    await q.processAllAvailable();
  }
  const elapsed = performance.now() - t;
  measuring = false;
  session.streams.removeListener(listener);
  await q.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (input) rmSync(input, { recursive: true, force: true });
  // The batch's own cost comes from the progress durations (whole milliseconds, as Spark's);
  // the wall time adds the idle trigger processAllAvailable waits for.
  const avg = trig.reduce((a, b) => a + b, 0) / Math.max(1, trig.length);
  return { name, batches: trig.length, msPerBatch: avg, wallMsPerBatch: elapsed / batches };
}

/** `conf`: settings for the sessions (`--conf key=value` on the command line). */
export async function streamingBenchmarks(conf: readonly [string, string][] = []): Promise<OverheadResult[]> {
  return [
    await measure("empty batch (0 rows), no checkpoint", 0, false, false, conf),
    await measure("1-row batch, no checkpoint", 1, false, false, conf),
    await measure("1-row batch, checkpoint", 1, true, false, conf),
    await measure("1-row batch, windowed count, checkpoint", 1, true, true, conf),
    await measure("1-row JSON file per batch, windowed count, checkpoint", 1, true, true, conf, 300, true),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const argv = process.argv.slice(2);
  const conf = argv.flatMap((a, i) => {
    const kv = a === "--conf" ? argv[i + 1] : undefined;
    const at = kv?.indexOf("=") ?? -1;
    return kv !== undefined && at > 0 ? [[kv.slice(0, at), kv.slice(at + 1)] as [string, string]] : [];
  });
  for (const r of await streamingBenchmarks(conf)) {
    process.stdout.write(
      `| per-batch overhead: ${r.name} | ${r.msPerBatch.toFixed(2)} ms/batch (mean of ${r.batches}) | wall ${r.wallMsPerBatch.toFixed(2)} ms |\n`,
    );
  }
  process.stdout.write(`\nload average: ${loadAverage()}\n`);
}
