/**
 * transformWithState benchmark (not a test): rows per second through a ValueState counter
 * (PySpark's RunningCount processor) over `--keys` distinct keys, and state bytes per key.
 *
 *   node --expose-gc --import tsx bench/tws.ts [--keys 1000000] [--rows-per-batch 1000000] [--batches 3]
 *   ~/.cache/arus/pyspark-venv/bin/python bench/pyspark/tws.py --keys 1000000 ...   (the same on PySpark)
 *
 * Each batch holds `--rows-per-batch` rows whose keys cycle over the key space (batch b, row i
 * has key (b * rows + i) % keys), fed through a MemoryStream to a noop sink in update mode with
 * the in-memory state store and 1 shuffle partition. Batch 0 creates the keys; the later
 * batches update existing keys, the steady state. Memory per key: heap growth after GC with the
 * query holding the state, divided by the keys.
 */
import { Session, StatefulProcessor, type StatefulProcessorHandle, type ValueState } from "../src/index.js";

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const keys = arg("keys", 1_000_000);
const rowsPerBatch = arg("rows-per-batch", 1_000_000);
const batches = arg("batches", 3);

class RunningCount extends StatefulProcessor {
  private count!: ValueState;
  init(h: StatefulProcessorHandle) {
    this.count = h.getValueState("count", "value BIGINT");
  }
  *handleInputRows(key: readonly unknown[], rows: readonly Record<string, unknown>[]) {
    const n = ((this.count.get()?.value as number | undefined) ?? 0) + rows.length;
    this.count.update({ value: n });
    yield { k: key[0], count: n };
  }
}

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};

const session = Session.builder()
  .appName("bench-tws")
  .config("spark.sql.shuffle.partitions", "1")
  .config("spark.ui.enabled", "false")
  .config("spark.sql.session.timeZone", "UTC")
  .getOrCreate();
const ms = session.memoryStream("k BIGINT");
const q = await ms
  .toDF()
  .groupBy("k")
  .transformWithState(new RunningCount(), "k BIGINT, count BIGINT", "update", "none")
  .writeStream.format("noop")
  .outputMode("update")
  .start();
const h0 = heap();
const figures: { batch: number; rows: number; ms: number }[] = [];
for (let b = 0; b < batches; b++) {
  const rows = new Array(rowsPerBatch);
  for (let i = 0; i < rowsPerBatch; i++) rows[i] = { k: (b * rowsPerBatch + i) % keys };
  ms.addData(rows);
  const t = performance.now();
  await q.processAllAvailable();
  figures.push({ batch: b, rows: rowsPerBatch, ms: performance.now() - t });
}
const bytesPerKey = (heap() - h0) / Math.min(keys, rowsPerBatch * batches);
const total = q.lastProgress?.stateOperators[0]?.numRowsTotal;
await q.stop();
const steady = figures.slice(1);
const steadyRate = steady.length ? steady.reduce((a, f) => a + f.rows, 0) / (steady.reduce((a, f) => a + f.ms, 0) / 1000) : Number.NaN;
console.log(
  JSON.stringify({
    engine: "arus",
    keys,
    rowsPerBatch,
    batches: figures.map((f) => ({ ...f, rowsPerSec: Math.round(f.rows / (f.ms / 1000)) })),
    steadyRowsPerSec: Math.round(steadyRate),
    stateRows: total,
    heapBytesPerKey: Math.round(bytesPerKey),
    loadavg: (await import("node:os")).loadavg().map((x) => x.toFixed(2)),
  }),
);
await session.stop();
