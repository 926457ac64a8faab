/**
 * Seed 002 on Kafka (examples/seed002-kafka-exactly-once.ts) against the real broker
 * (ARUS_KAFKA_BOOTSTRAP): orders from a topic, windowed counts enriched with the category
 * table, written to a topic exactly once; a batch replayed after a lost commit adds nothing.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Seed002KafkaResult } from "../../examples/seed002-kafka-exactly-once.js";
import { kafkaBootstrap, kafkaSkip, readValues } from "../connectors/kafka-helpers.js";
import { parseConsoleBatches, runExample } from "./harness.js";

const KATEGORI: Record<string, string> = {
  "Rok Tenun": "pakaian",
  "Kain Songket": "pakaian",
  "Tas Rotan": "aksesoris",
  "Blouse Katun": "pakaian",
};

describe("seed 002 on Kafka", kafkaSkip(), () => {
  it("writes each closed window once per product, with its category, also after a replay", { timeout: 120_000 }, async () => {
    const bootstrap = kafkaBootstrap()!;
    const { stdout, result } = await runExample<Seed002KafkaResult>(
      "seed002-kafka-exactly-once.ts",
      "seed002KafkaExactlyOnce",
      { bootstrap },
      110_000,
    );
    // 36 orders, 12 offsets per batch: 3 data batches per run (and a no-data batch when the
    // watermark moved); the second run continues the first; the third replays the last batch.
    const [first, second, third] = result.runs as [number[], number[], number[]];
    assert.ok(first.length >= 3 && second.length >= 3, JSON.stringify(result.runs));
    assert.equal(second[0], first.at(-1)! + 1);
    const last = second.at(-1)!;
    assert.deepEqual(third, [last]);
    assert.ok(stdout.includes(`commits/${last} dihapus (crash sebelum commit log): batch ${last} akan diulang`));
    // Windows close when the watermark (max event time - 4 s) passes their end: after 24 s of
    // orders, [14:10:00, 14:10:08) and [14:10:08, 14:10:16); each has 24 orders, 6 per product.
    const want = ["2026-10-16 14:10:00", "2026-10-16 14:10:08"].flatMap((mulai) =>
      Object.keys(KATEGORI)
        .sort()
        .map((produk) => ({
          mulai,
          selesai: mulai.endsWith("00") ? "2026-10-16 14:10:08" : "2026-10-16 14:10:16",
          produk,
          kategori: KATEGORI[produk],
          count: 6,
        })),
    );
    assert.deepEqual(result.counts, want);
    // The topic itself: 8 committed records, no duplicates (each a to_json struct).
    const values = await readValues(bootstrap, result.countsTopic, true);
    assert.equal(values.length, 8);
    assert.equal(new Set(values).size, 8);
    assert.deepEqual(JSON.parse(values.find((v) => v.includes("Tas Rotan"))!), {
      mulai: "2026-10-16T14:10:00.000Z",
      selesai: "2026-10-16T14:10:08.000Z",
      produk: "Tas Rotan",
      kategori: "aksesoris",
      count: 6,
    });
    const shown = parseConsoleBatches(
      `-------------------------------------------\nBatch: 0\n-------------------------------------------\n${stdout.slice(stdout.indexOf("+---"))}`,
    );
    assert.equal(shown[0]!.rows.length, 8);
  });
});
