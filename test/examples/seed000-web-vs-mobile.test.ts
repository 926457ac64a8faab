/**
 * Seed 000, part 2 (rate 10 rows/s, odd rows = mobile with event_time 40 s behind, 5 s
 * watermark, 6 s windows per source, update mode, 3 s trigger, 45 s), accelerated.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { FAST_START_MS, type WebVsMobileResult } from "../../examples/seed000-web-vs-mobile.js";
import { parseConsoleBatches, runExample } from "./harness.js";

// 50 ms after a 6-second window boundary: the first mobile window gets 4 whole seconds of
// mobile rows from the two batches that still let them through (the seed's "20").
const START = FAST_START_MS;

test("seed 000 web vs mobile: mobile rows only in the first two batches, mobile count frozen at 20", async () => {
  const { stdout, result } = await runExample<WebVsMobileResult>("seed000-web-vs-mobile.ts", "seed000WebVsMobile", {
    clockStartMs: START,
    timeZone: "UTC",
  });
  const batches = parseConsoleBatches(stdout);
  // 45 s, 3 s trigger: Batch 0 … Batch 15 (the seed: "Batch 4 sampai 15 hanya berisi baris web").
  assert.deepEqual(
    batches.map((b) => b.batchId),
    Array.from({ length: 16 }, (_, i) => i),
  );
  assert.equal(result.numBatches, 16);
  for (const b of batches) assert.deepEqual(b.columns, ["window", "sumber", "count"]);
  assert.equal(batches[0]!.rows.length, 0, "Batch 0 is empty");

  const mobile = batches.map((b) => b.rows.filter((r) => r[1] === "mobile"));
  // Mobile rows appear in batches 1 and 2 only, while the late-row filter still uses the
  // initial watermark (batch 2 filters with batch 1's watermark, which is still epoch).
  assert.deepEqual(
    mobile.map((rows, i) => (rows.length ? i : -1)).filter((i) => i >= 0),
    [1, 2],
  );
  // Batch 1: 10 mobile rows in one window; batch 2 updates that window to 20 — and it never
  // changes again although mobile events keep arriving.
  assert.equal(mobile[1]!.length, 1);
  assert.equal(mobile[1]![0]![2], "10");
  const firstMobileWindow = mobile[1]![0]![0];
  assert.equal(firstMobileWindow, "{2026-10-16 14:01:18, 2026-10-16 14:01:24}");
  assert.deepEqual(
    mobile[2]!.find((r) => r[0] === firstMobileWindow),
    [firstMobileWindow, "mobile", "20"],
  );
  assert.ok(mobile.flat().every((r) => Number(r[2]) <= 20));

  // Every batch after the second prints web windows only; a full web window is 5 rows/s × 6 s.
  for (const b of batches.slice(3)) {
    assert.ok(b.rows.length > 0 && b.rows.every((r) => r[1] === "web"), `batch ${b.batchId}`);
  }
  const webCounts = batches.flatMap((b) => b.rows.filter((r) => r[1] === "web").map((r) => Number(r[2])));
  assert.equal(Math.max(...webCounts), 30);

  // Dropped without an error: arus's onLateRows sees the mobile rows that Spark drops silently.
  // 44 s of rows reached the query: 220 mobile rows, 25 of them counted (20 + 5), 195 dropped.
  assert.deepEqual(result.droppedBySource, { mobile: 195 });
  assert.match(stdout, /\ndurasi script: 45\.0 detik\n/);
});
