/**
 * Seed 003 (readStream.table("sensor_data") + 10-minute watermark + 5-minute windows per
 * device): the lesson's claims on a table appended to in rounds.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Seed003Result } from "../../examples/seed003-table-watermark.js";
import { parseConsoleBatches, runExample } from "./harness.js";

test("seed 003: latest event 10:30 → data before 10:20 is too late; windows final once the watermark passes", async () => {
  const { stdout, result } = await runExample<Seed003Result>("seed003-table-watermark.ts", "seed003TableWatermark", { timeZone: "UTC" });
  const iso = (d: Date) => d.toISOString().slice(11, 16);
  // Watermark = max event time seen - 10 minutes, after each round of appends.
  assert.deepEqual(result.watermarks.map(iso), ["09:57", "10:04", "10:20", "10:20", "10:31"]);

  // The readings before 10:20 that arrive after the 10:30 one are dropped, compared with 10:20.
  assert.deepEqual(
    result.dropped.map((d) => [d.device_id, iso(d.event_time), iso(d.watermark)]),
    [
      ["B", "10:16", "10:20"],
      ["A", "10:19", "10:20"],
    ],
  );

  const batches = parseConsoleBatches(stdout);
  const emitted = batches.flatMap((b) => b.rows.map((r) => ({ batchId: b.batchId, window: r[0]!, device: r[1]!, count: Number(r[2]) })));
  // What each round of appends printed (each round ends with its ">> ... watermark now" line).
  const rounds = stdout
    .split(/^>> .*$/m)
    .slice(0, 5)
    .map((t) => parseConsoleBatches(t).flatMap((b) => b.rows.map((r) => `${r[0]} ${r[1]}`)));
  // Nothing is final before the 10:30 reading moves the watermark to 10:20; then the six
  // windows up to 10:15 come out together; the late round emits nothing; 10:41 emits two.
  assert.deepEqual(
    rounds.map((r) => r.length),
    [0, 0, 6, 0, 2],
  );
  // Then the windows ending at or before 10:20 come out, once each, with their final counts.
  const key = (e: { window: string; device: string; count: number }) => `${e.window} ${e.device} ${e.count}`;
  assert.deepEqual(emitted.map(key).sort(), [
    "{2026-10-16 10:00:00, 2026-10-16 10:05:00} A 1",
    "{2026-10-16 10:00:00, 2026-10-16 10:05:00} B 1",
    "{2026-10-16 10:05:00, 2026-10-16 10:10:00} A 1",
    "{2026-10-16 10:05:00, 2026-10-16 10:10:00} B 1",
    "{2026-10-16 10:10:00, 2026-10-16 10:15:00} A 1",
    "{2026-10-16 10:10:00, 2026-10-16 10:15:00} B 1",
    // 10:21 and 10:26 arrived late but above the watermark: counted, final after 10:41.
    "{2026-10-16 10:20:00, 2026-10-16 10:25:00} B 1",
    "{2026-10-16 10:25:00, 2026-10-16 10:30:00} A 1",
  ]);
  // [10:15, 10:20) only ever got the two dropped readings: it never appears.
  assert.ok(!emitted.some((e) => e.window.startsWith("{2026-10-16 10:15:00")));
  // The 10:30 and 10:41 windows are still open when the query stops.
  assert.ok(!emitted.some((e) => e.window.startsWith("{2026-10-16 10:30:00") || e.window.startsWith("{2026-10-16 10:40:00")));
});
