/**
 * The abandoned-checkout example (transformWithState, event-time timers): sari's and dewi's
 * carts are alerted once the watermark passes 10 minutes after their last cart event; budi and
 * eko paid, so they never are; no state is left at the end.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AbandonedCheckoutResult } from "../../examples/tokokita-abandoned-checkout.js";
import { runExample } from "./harness.js";

test("TokoKita abandoned checkouts: two alerts, in the no-data batch after the watermark passes their timers", async () => {
  const { stdout, result } = await runExample<AbandonedCheckoutResult>("tokokita-abandoned-checkout.ts", "tokokitaAbandonedCheckout", {
    timeZone: "UTC",
  });
  const lines = stdout.trim().split("\n");
  // 4 data batches, each followed by a no-data batch for the moved watermark.
  assert.equal(result.numBatches, 8);
  assert.deepEqual(
    lines.filter((l) => l.startsWith("-- batch")),
    [0, 1, 2, 3, 4, 5, 6, 7].map((b) => `-- batch ${b}: ${b === 5 ? 2 : 0} peringatan`),
  );
  assert.deepEqual(
    lines.filter((l) => l.startsWith("keranjang ditinggalkan")),
    [
      "keranjang ditinggalkan: dewi (Batik Tulis, Sambal Roa), dibuka 10:02, peringatan 10:16",
      "keranjang ditinggalkan: sari (Rok Tenun, Tas Rotan), dibuka 10:00, peringatan 10:13",
    ],
  );
  assert.equal(lines.at(-1), "total peringatan: 2");
  assert.deepEqual(
    result.alerts.map((a) => a.user_id),
    ["dewi", "sari"],
  );
  assert.equal(result.stateRowsAtEnd, 0, "every cart was alerted or paid: no state left");
});
