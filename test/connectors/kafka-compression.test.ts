/**
 * Compressed record batches as Kafka's own Java producer writes them (gzip, snappy, lz4, zstd:
 * test/connectors/java/CompressedProducer.java, run on the broker's cached jars), read by the
 * source as Spark reads them: every record, key, value, null, timestamp and header the same as
 * the producer wrote, also for a range that starts and ends inside a compressed batch.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { Session } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic } from "./kafka-helpers.js";

const bootstrap = kafkaBootstrap() ?? "";
const libs = path.join(process.env.ARUS_KAFKA_CACHE ?? path.join(homedir(), ".cache/arus/kafka"), "libs-4.4.0");
const skip = kafkaSkip().skip || (existsSync(libs) ? false : `the broker's jars are not in ${libs} (scripts/kafka.sh start fetches them)`);
const CODECS = ["gzip", "snappy", "lz4", "zstd"] as const;
const N = 400;

/** What CompressedProducer.java writes as record i. */
function expected(i: number) {
  return {
    key: i % 7 === 3 ? null : `k${i}`,
    value: i % 11 === 5 ? null : `v${i}:${"abc".repeat(i)}`,
    timestamp: 1700000000000 + i,
    headers: i % 2 === 0 ? [`h=${i}`, "n=null"] : [`h=${i}`],
  };
}

describe("Kafka source: compressed record batches from Kafka's Java producer", { skip }, () => {
  const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
  const topics = new Map<string, string>();
  before(async () => {
    for (const c of CODECS) topics.set(c, await newTopic(bootstrap, 1, `compressed-${c}`));
    const src = path.join(import.meta.dirname, "java", "CompressedProducer.java");
    await promisify(execFile)(
      "java",
      ["-Dlog4j2.level=error", "-cp", `${libs}/*`, src, bootstrap, String(N), ...CODECS.map((c) => `${topics.get(c)}=${c}`)],
      { timeout: 120_000 },
    );
  });
  after(() => session.stop());

  const read = (topic: string, opts: Record<string, string> = {}) =>
    session.read
      .format("kafka")
      .option("kafka.bootstrap.servers", bootstrap)
      .option("subscribe", topic)
      .option("includeHeaders", "true")
      .options(opts)
      .load()
      .selectExpr("CAST(key AS STRING) key", "CAST(value AS STRING) value", "offset", "timestamp", "headers")
      .collect()
      .then((rows) =>
        rows.map((r) => ({
          offset: r.offset as number,
          key: r.key as string | null,
          value: r.value as string | null,
          timestamp: r.timestamp as Date,
          headers: (r.headers as { key: string; value: Uint8Array | null }[]).map(
            (h) => `${h.key}=${h.value === null ? "null" : Buffer.from(h.value).toString()}`,
          ),
        })),
      );

  for (const codec of CODECS) {
    it(`reads ${codec} batches whole and from the middle of a batch`, async () => {
      const topic = topics.get(codec)!;
      const rows = await read(topic);
      assert.equal(rows.length, N);
      for (let i = 0; i < N; i++) {
        const e = expected(i);
        const r = rows[i]!;
        assert.equal(r.offset, i);
        assert.equal(r.key, e.key, `key of record ${i}`);
        assert.equal(r.value, e.value, `value of record ${i}`);
        assert.equal(r.timestamp.getTime(), e.timestamp, `timestamp of record ${i}`);
        assert.deepEqual(r.headers, e.headers, `headers of record ${i}`);
      }
      const part = await read(topic, {
        startingOffsets: JSON.stringify({ [topic]: { "0": 150 } }),
        endingOffsets: JSON.stringify({ [topic]: { "0": 390 } }),
      });
      assert.deepEqual(
        part.map((r) => r.offset),
        Array.from({ length: 240 }, (_, i) => 150 + i),
      );
      assert.equal(part[0]!.value, expected(150).value);
    });
  }
});
