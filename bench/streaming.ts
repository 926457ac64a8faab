/**
 * Per-batch overhead of the micro-batch loop (issue 3): batches of 0 and 1 rows through a
 * memory stream → select → noop sink, without and with a checkpoint, and with a stateful
 * windowed count.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { functions as F, Session } from "../src/index.js";

export interface OverheadResult {
  name: string;
  batches: number;
  msPerBatch: number;
}

async function measure(name: string, rowsPerBatch: number, checkpoint: boolean, stateful: boolean, batches = 300): Promise<OverheadResult> {
  const session = Session.builder().config("spark.sql.shuffle.partitions", "1").getOrCreate();
  const ms = session.memoryStream("id INT, ts TIMESTAMP");
  let df = ms.toDF();
  if (stateful) df = df.withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds")).count();
  else df = df.select("id", "ts");
  const dir = checkpoint ? mkdtempSync(path.join(tmpdir(), "arus-bench-")) : null;
  let w = df.writeStream.format("noop").outputMode(stateful ? "update" : "append");
  if (dir) w = w.option("checkpointLocation", dir);
  const q = await w.start();
  const rows = Array.from({ length: rowsPerBatch }, (_, i) => ({ id: i, ts: new Date(i * 1000) }));
  // Warm-up, then measure: one addData + processAllAvailable = one batch.
  for (let i = 0; i < 20; i++) {
    ms.addData(rows);
    await q.processAllAvailable();
  }
  const t = performance.now();
  for (let i = 0; i < batches; i++) {
    ms.addData(rows);
    await q.processAllAvailable();
  }
  const elapsed = performance.now() - t;
  await q.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  // processAllAvailable waits for one idle poll (10 ms polling delay) after each batch; the
  // batch's own cost is read from the progress durations instead.
  const recent = q.recentProgress.filter((p) => p.numInputRows === rowsPerBatch);
  const trig = recent.map((p) => p.durationMs?.triggerExecution ?? 0);
  const avg = trig.reduce((a, b) => a + b, 0) / Math.max(1, trig.length);
  void elapsed;
  return { name, batches: recent.length, msPerBatch: avg };
}

export async function streamingBenchmarks(): Promise<OverheadResult[]> {
  return [
    await measure("empty batch (0 rows), no checkpoint", 0, false, false),
    await measure("1-row batch, no checkpoint", 1, false, false),
    await measure("1-row batch, checkpoint", 1, true, false),
    await measure("1-row batch, windowed count, checkpoint", 1, true, true),
  ];
}
