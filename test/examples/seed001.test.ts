/**
 * Seed 001 (rate source + 8 s window + 4 s watermark, append mode, 4 s trigger, 48 s):
 * the claims of the seed text, checked on an accelerated run with a ManualClock.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { FAST_START_MS, type Seed001Result } from "../../examples/seed001-rate-window-watermark.js";
import { type ConsoleBatch, parseConsoleBatches, runExample } from "./harness.js";

// 13:29:22.8 UTC: like the seed's run, the query starts in the middle of the window
// [13:29:20, 13:29:28), and triggers fall on the seed's 4-second grid.
const START = FAST_START_MS;

function windowStart(row: string[]): number {
  const m = /^\{(.+), (.+)\}$/.exec(row[0]!);
  assert.ok(m, `window cell ${row[0]}`);
  return Date.parse(`${m[1]!.replace(" ", "T")}Z`);
}

test("seed 001: empty batches in between, first window partial, full windows 40, status Stopped", async () => {
  const { stdout, result } = await runExample<Seed001Result>("seed001-rate-window-watermark.ts", "seed001RateWindowWatermark", {
    clockStartMs: START,
    timeZone: "UTC",
  });
  const batches = parseConsoleBatches(stdout);
  // 48 s with a 4 s trigger: batch 0 at the start, then one batch per trigger (seed: Batch 0 … Batch 12).
  assert.deepEqual(
    batches.map((b) => b.batchId),
    Array.from({ length: 13 }, (_, i) => i),
  );
  assert.deepEqual(
    result.batchIds,
    batches.map((b) => b.batchId),
  );
  for (const b of batches) assert.deepEqual(b.columns, ["window", "count"]);

  // Seed: "Batch 1-4, 6, 8, dan 10 mencetak tabel kosong seperti Batch 0 dan 12".
  const nonEmpty = batches.filter((b) => b.rows.length > 0);
  assert.deepEqual(
    nonEmpty.map((b) => b.batchId),
    [5, 7, 9, 11],
  );
  assert.ok(
    nonEmpty.every((b: ConsoleBatch) => b.rows.length === 1),
    "one window per non-empty batch",
  );

  // The windows come out in order, 8 s apart, each once.
  const rows = nonEmpty.map((b) => b.rows[0]!);
  const starts = rows.map(windowStart);
  assert.equal(starts[0], Date.UTC(2026, 9, 16, 13, 29, 20));
  for (let i = 1; i < starts.length; i++) assert.equal(starts[i]! - starts[i - 1]!, 8000);
  assert.equal(rows[0]![0], "{2026-10-16 13:29:20, 2026-10-16 13:29:28}");

  // First window partial (the query started inside it), every later window 5 rows/s × 8 s = 40.
  const counts = rows.map((r) => Number(r[1]));
  assert.ok(counts[0]! > 0 && counts[0]! < 40, `first window partial, got ${counts[0]}`);
  assert.deepEqual(counts.slice(1), [40, 40, 40]);

  // Seed: "status kueri setelah stop: Stopped", printed after the last batch.
  assert.equal(result.statusAfterStop, "Stopped");
  assert.match(stdout, /\nstatus kueri setelah stop: Stopped\n$/);
});

test("seed 001: full windows hold 40 rows whatever the start instant", async () => {
  const start = Date.UTC(2026, 0, 1, 8, 0, 1, 370);
  const { stdout } = await runExample<Seed001Result>("seed001-rate-window-watermark.ts", "seed001RateWindowWatermark", {
    clockStartMs: start,
    timeZone: "UTC",
  });
  const rows = parseConsoleBatches(stdout).flatMap((b) => b.rows);
  // The shift of up to 2 s can put the first rows into the window before the one the query
  // started in; both are partial. Every window that starts after the start instant is full.
  const partial = rows.filter((r) => windowStart(r) <= start);
  const full = rows.filter((r) => windowStart(r) > start);
  assert.ok(partial.length >= 1 && partial.every((r) => Number(r[1]) < 40), `partial: ${partial}`);
  assert.ok(full.length >= 3, `full: ${full}`);
  assert.deepEqual(
    full.map((r) => Number(r[1])),
    full.map(() => 40),
  );
});
