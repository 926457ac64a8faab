/**
 * Seed 002 (3 orders/s, per-product counts in 8 s windows with a 4 s watermark, joined to a
 * static category table, append mode with a checkpoint, 5 s trigger, 32 s; then a
 * foreachBatch query with a 4 s trigger for 12 s), accelerated with a ManualClock.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { FAST_START_MS, type Seed002Result } from "../../examples/seed002-stateful-checkpoint-foreachbatch.js";
import { parseConsoleBatches, runExample } from "./harness.js";

// 14:10:13.4 UTC: 2.6 s before the end of the window [14:10:08, 14:10:16), so that window
// gets 8 orders (2 per product) as in the seed's Batch 4; triggers fall on the 5 s grid.
const START = FAST_START_MS;
const KATEGORI: Record<string, string> = {
  "Rok Tenun": "pakaian",
  "Kain Songket": "pakaian",
  "Tas Rotan": "aksesoris",
  "Blouse Katun": "pakaian",
};

test("seed 002: windowed counts + static join in append mode, checkpoint layout, foreachBatch 0/6/12/12", async () => {
  const { stdout, result } = await runExample<Seed002Result>(
    "seed002-stateful-checkpoint-foreachbatch.ts",
    "seed002StatefulCheckpointForeachBatch",
    {
      clockStartMs: START,
      timeZone: "UTC",
    },
  );
  assert.match(stdout, /^lokasi checkpoint: .*ckpt_demo_\S+\n/);

  const batches = parseConsoleBatches(stdout);
  // 32 s with a 5 s trigger: batches 0-7 (the seed's 8 batches: 16 entries with .crc files).
  assert.deepEqual(
    batches.map((b) => b.batchId),
    [0, 1, 2, 3, 4, 5, 6, 7],
  );
  for (const b of batches) assert.deepEqual(b.columns, ["mulai", "selesai", "produk", "kategori", "count"]);
  // Batches 0-3 print empty tables: append mode waits for the watermark to pass a window's end.
  for (const b of batches.slice(0, 4)) assert.equal(b.rows.length, 0, `batch ${b.batchId}`);

  // Batch 4: the first window, partial: 2 orders per product, each with its category.
  const first = batches[4]!.rows;
  assert.deepEqual(first.map((r) => r[2]).sort(), Object.keys(KATEGORI).sort());
  for (const [mulai, selesai, produk, kategori, count] of first) {
    assert.equal(mulai, "2026-10-16 14:10:08");
    assert.equal(selesai, "2026-10-16 14:10:16");
    assert.equal(kategori, KATEGORI[produk!]);
    assert.equal(count, "2");
  }
  // Later windows are full: 3 orders/s × 8 s = 24 orders, 6 per product. A window closes
  // every 8 s of watermark but a batch runs every 5 s, so one of batches 5-7 is empty.
  const later = batches.slice(5).filter((b) => b.rows.length > 0);
  assert.equal(later.length, 2);
  for (const b of later) {
    assert.equal(b.rows.length, 4);
    for (const [, , produk, kategori, count] of b.rows) {
      assert.equal(kategori, KATEGORI[produk!]);
      assert.equal(count, "6");
    }
  }

  // The checkpoint: offsets/, commits/ (one file per batch), metadata, sources/0, state/0.
  const entries = Object.fromEntries(result.checkpointEntries.map((e) => [e.name, e]));
  assert.deepEqual(Object.keys(entries), ["commits", "metadata", "offsets", "sources", "state"]);
  assert.deepEqual(entries.offsets!.children, ["0", "1", "2", "3", "4", "5", "6", "7"]);
  assert.deepEqual(entries.commits!.children, ["0", "1", "2", "3", "4", "5", "6", "7"]);
  assert.equal(entries.metadata!.isDir, false);
  assert.deepEqual(entries.sources!.children, ["0"]);
  assert.deepEqual(entries.state!.children, ["0"]);
  assert.match(
    stdout,
    /\n== isi direktori checkpoint ==\n {2}commits\/ \(8 entri: 0, 1, 2, 3, 4, 5\)\n {2}metadata\n {2}offsets\/ \(8 entri: 0, 1, 2, 3, 4, 5\)\n {2}sources\/ \(1 entri: 0\)\n {2}state\/ \(1 entri: 0\)\n/,
  );

  // foreachBatch: 0, 6, 12, 12 rows (3 rows/s, 4 s trigger, the first interval cut short).
  assert.deepEqual(result.foreachBatchRows, [
    { batchId: 0, rows: 0 },
    { batchId: 1, rows: 6 },
    { batchId: 2, rows: 12 },
    { batchId: 3, rows: 12 },
  ]);
  assert.match(
    stdout,
    /\nforeachBatch batch 0: 0 baris\nforeachBatch batch 1: 6 baris\nforeachBatch batch 2: 12 baris\nforeachBatch batch 3: 12 baris\n/,
  );
  assert.match(stdout, /\ndurasi script: 44\.0 detik\n$/);
  // Like shutil.rmtree at the end of the seed script.
  assert.equal(existsSync(result.checkpoint), false);
});
