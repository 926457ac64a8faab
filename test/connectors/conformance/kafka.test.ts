/**
 * The Kafka source and the Kafka sink (at-least-once and exactly-once) pass the connector
 * conformance suites against a real broker (ARUS_KAFKA_BOOTSTRAP; see ../kafka-helpers.ts).
 * Without a broker the suites skip with the message that says how to start one; with
 * ARUS_REQUIRE_KAFKA=1 (CI) a missing broker fails.
 */
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { type Batch, batchFromRows } from "../../../src/columnar/batch.js";
import { getValue } from "../../../src/columnar/vector.js";
import "../../../src/connectors/builtin.js";
import { lookupSink, lookupSource } from "../../../src/connectors/registry.js";
import type { Offset, SinkBatch, StreamSink, StreamSource } from "../../../src/connectors/source.js";
import { ArrayOf, BinaryType, field, StringType, StructOf } from "../../../src/types/datatypes.js";
import { tempDirs } from "../../temp-dirs.js";
import { kafkaBootstrap, SKIP_MESSAGE, testClient, waitForStable } from "../kafka-helpers.js";
import { type OutputMode, type SinkFixture, sinkConformance } from "./sink-suite.js";
import { type SourceFixture, sourceConformance } from "./source-suite.js";

const tempDir = tempDirs("arus-kafka-conformance-");
const bootstrap = kafkaBootstrap();
const skip = bootstrap === null ? SKIP_MESSAGE : false;
const servers = bootstrap ?? "";

async function createTopic(partitions: number): Promise<string> {
  const topic = `conf-${randomUUID().slice(0, 8)}`;
  const admin = await testClient(servers).admin();
  try {
    await admin.createTopic(topic, partitions);
  } finally {
    await admin.close();
  }
  return topic;
}

async function deleteTopic(topic: string): Promise<void> {
  const admin = await testClient(servers).admin();
  try {
    await admin.deleteTopic(topic);
  } finally {
    await admin.close();
  }
}

// --- source ------------------------------------------------------------------------------

const PARTITIONS = 2;

/**
 * A two-partition topic; each produce() sends one record to each partition with an explicit
 * CreateTime timestamp, so the rows the source must return are known in full: key, value,
 * topic, partition, offset, timestamp (µs), timestampType.
 */
async function sourceFixture(): Promise<SourceFixture> {
  const topic = await createTopic(PARTITIONS);
  const meta = join(await tempDir(), "sources", "0");
  const options = { "kafka.bootstrap.servers": servers, subscribe: topic, startingOffsets: "earliest" };
  const provider = lookupSource("kafka");
  const schema = provider.schema(options, null, "UTC");
  const kafka = new Kafka({ brokers: [servers], clientId: "arus-conformance", logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const next = Array.from({ length: PARTITIONS }, () => 0);
  let n = 0;
  const opened: StreamSource[] = [];
  return {
    open() {
      const src = provider.create(options, schema, { metadataDir: meta, timeZone: "UTC", now: Date.now });
      opened.push(src);
      return src;
    },
    async produce() {
      const rows: unknown[][] = [];
      const messages = [];
      for (let partition = 0; partition < PARTITIONS; partition++) {
        const ts = 1_700_000_000_000 + n * 1000 + partition;
        const key = Buffer.from(`k${n}`);
        const value = Buffer.from(`v${n}-p${partition}`);
        messages.push({ key, value, partition, timestamp: String(ts) });
        rows.push([key, value, topic, partition, next[partition]!++, ts * 1000, 0]);
      }
      n++;
      await producer.send({ topic, messages });
      return rows;
    },
    async close() {
      // Also the sources a failed test did not stop: an open client keeps the process alive.
      for (const src of opened) await src.stop().catch(() => {});
      await producer.disconnect();
      await deleteTopic(topic);
    },
  };
}

function flatten(offset: Offset): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [topic, parts] of Object.entries(offset as Record<string, Record<string, number>>)) {
    for (const [p, off] of Object.entries(parts)) out[`${topic}-${p}`] = off;
  }
  return out;
}

sourceConformance("kafka", {
  skip,
  setup: sourceFixture,
  // 6 records over 2 partitions under a limit of 3: Spark's split gives each partition
  // floor(3 * 3/6) = 1 per batch, so no batch holds more than the limit.
  readLimit: { limit: { kind: "maxRows", max: 3 }, maxRows: 3 },
  availableNow: true,
  releasing: { skip: "Kafka keeps records for the topic's retention; a source never deletes what it consumed (as Spark's)" },
  rangesCompose: true,
  partitions: flatten,
});

// --- sink --------------------------------------------------------------------------------

const VALUE_SCHEMA = StructOf([
  field("value", StringType),
  field("headers", ArrayOf(StructOf([field("key", StringType), field("value", BinaryType)]))),
]);

/**
 * The suite feeds `id INT, cat STRING`; Kafka takes a `value` column. The wrapper does what a
 * query would do before the sink (`to_json`-like): value = "id|cat", plus a header `call` with
 * the batch id and the call's number, so the deliveries are read back from the topic alone.
 */
function asKafkaRows(batchId: number, call: number, data: SinkBatch): SinkBatch {
  const rows: unknown[][] = [];
  for (const b of data.batches as Batch[]) {
    for (let i = 0; i < b.numRows; i++) {
      const value = `${getValue(b.columns[0]!, i)}|${getValue(b.columns[1]!, i)}`;
      rows.push([value, [{ key: "call", value: Buffer.from(`${batchId}/${call}`) }]]);
    }
  }
  return {
    ...data,
    names: ["value", "headers"],
    schema: VALUE_SCHEMA,
    batches: rows.length ? [batchFromRows([StringType, VALUE_SCHEMA.fields[1]!.type], rows)] : [],
  };
}

/** Every record of a one-partition topic in offset order: its value and `call` header. */
async function readTopic(topic: string, readCommitted: boolean): Promise<{ value: string; call: string }[]> {
  const client = testClient(servers, readCommitted);
  const admin = await client.admin();
  const fetcher = await client.fetcher();
  try {
    const tp = { topic, partition: 0 };
    if (readCommitted) await waitForStable(servers, [tp]);
    const r = (await admin.offsetRange([tp])).get(`${topic}-0`)!;
    return (await fetcher.fetch(tp, r.earliest, r.latest)).map((rec) => ({
      value: Buffer.from(rec.value!).toString(),
      call: Buffer.from(rec.headers.find((h) => h.key === "call")!.value!).toString(),
    }));
  } finally {
    await Promise.all([admin.close(), fetcher.close()]);
  }
}

function sinkFixture(exactlyOnce: boolean): () => Promise<SinkFixture> {
  return async () => {
    const topic = await createTopic(1);
    const checkpointDir = join(await tempDir(), "checkpoint");
    await mkdir(checkpointDir, { recursive: true });
    await writeFile(join(checkpointDir, "metadata"), JSON.stringify({ id: randomUUID() }));
    const options = { "kafka.bootstrap.servers": servers, topic, "arus.exactlyOnce": String(exactlyOnce) };
    let calls = 0;
    const opened: StreamSink[] = [];
    return {
      open(mode: OutputMode): StreamSink {
        const sink = lookupSink("kafka").create({
          options,
          path: null,
          queryName: null,
          checkpointDir,
          partitionBy: [],
          timeZone: "UTC",
          outputMode: mode,
          schema: VALUE_SCHEMA,
        });
        opened.push(sink);
        return {
          ...sink,
          description: sink.description,
          addBatch: (id, data) => sink.addBatch(id, asKafkaRows(id, calls++, data)),
          stop: () => sink.stop?.() ?? Promise.resolve(),
        };
      },
      async result() {
        return (await readTopic(topic, true)).map((r) => r.value.split("|"));
      },
      async deliveries() {
        const out: { batchId: number; rows: unknown[][]; call: string }[] = [];
        for (const r of await readTopic(topic, false)) {
          if (out.at(-1)?.call !== r.call) out.push({ batchId: Number(r.call.split("/")[0]), rows: [], call: r.call });
          out.at(-1)!.rows.push(r.value.split("|"));
        }
        return out.map(({ batchId, rows }) => ({ batchId, rows }));
      },
      async close() {
        // Also the sinks a failed test did not stop: an open producer keeps the process alive.
        for (const sink of opened) await sink.stop?.().catch(() => {});
        await deleteTopic(topic);
      },
    };
  };
}

sinkConformance("kafka (at-least-once, Spark's)", {
  skip,
  modes: ["append", "update", "complete"],
  delivery: "at-least-once",
  durable: { skip: "at-least-once: a replay is written again" },
  setup: sinkFixture(false),
});

sinkConformance("kafka (exactly-once, arus.exactlyOnce=true)", {
  skip,
  modes: ["append", "update", "complete"],
  delivery: "exactly-once",
  durable: true,
  modeSkips: {
    complete:
      "a topic is a log: in complete mode it holds every batch's full result one after another, not only the last batch's (each batch still once; append and update check that)",
  },
  setup: sinkFixture(true),
});
