/**
 * `writeStream.format("kafka")`: Spark's Kafka sink, at-least-once (a replayed batch is written
 * again), and arus's opt-in exactly-once mode (`arus.exactlyOnce=true`): each micro-batch is one
 * Kafka transaction that also commits batch id + 1 as the offset of a marker consumer group, so
 * the rows and "batch N is written" become visible together. After a restart the producer's
 * InitProducerId aborts a pending transaction and fences the old producer; a batch whose marker
 * is already committed is skipped. docs/reliability.md lists the failure cases.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { nodeFs, writeAtomic } from "../../checkpoint/atomic-file.js";
import { ArusError, IllegalArgumentException } from "../../common/errors.js";
import type { SinkContext } from "../registry.js";
import type { SinkBatch, StreamSink } from "../source.js";
import type { KafkaProducer, KafkaTransactionalProducer, OutRecord } from "./client.js";
import { kafkajsClient } from "./client-kafkajs.js";
import { bool, clientConfig, lowered } from "./options.js";
import { connecting } from "./reader.js";
import { checkRecordSizes, checkSinkSchema, toRecords } from "./records-out.js";

export interface SinkOptions {
  readonly topic: string | null;
  readonly exactlyOnce: boolean;
  readonly transactionalId: string | null;
  readonly transactionTimeoutMs: number;
  /** Kafka's max.request.size (default 1048576): the largest record the sink sends. */
  readonly maxRequestSize: number;
  readonly client: ReturnType<typeof clientConfig>;
}

export function sinkOptions(options: Readonly<Record<string, string>>): SinkOptions {
  const o = lowered(options);
  // Spark's KafkaSourceProvider.kafkaParamsForProducer, word for word.
  if (o.has("kafka.key.serializer")) {
    throw new IllegalArgumentException("Kafka option 'key.serializer' is not supported as keys are serialized with ByteArraySerializer.");
  }
  if (o.has("kafka.value.serializer")) {
    throw new IllegalArgumentException(
      "Kafka option 'value.serializer' is not supported as value are serialized with ByteArraySerializer.",
    );
  }
  const timeout = Number(o.get("kafka.transaction.timeout.ms") ?? 60000);
  return {
    topic: o.get("topic") ?? null,
    exactlyOnce: bool(o, "arus.exactlyOnce", false),
    transactionalId: o.get("arus.transactionalid") ?? null,
    transactionTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 60000,
    maxRequestSize: maxRequestSize(o.get("kafka.max.request.size")),
    client: clientConfig(o, "arus-kafka-sink", "producer"),
  };
}

function maxRequestSize(raw: string | undefined): number {
  if (raw === undefined) return 1048576;
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v <= 0) {
    throw new IllegalArgumentException(`Invalid value '${raw}' for Kafka option 'max.request.size': must be a positive integer.`);
  }
  return v;
}

async function send(servers: string, what: () => Promise<void>): Promise<void> {
  try {
    await what();
  } catch (e) {
    if (e instanceof ArusError) throw e;
    throw new ArusError("KAFKA_WRITE_FAILED", `Writing to Kafka at '${servers}' failed: ${(e as Error).message}`, { cause: e });
  }
}

interface EosState {
  transactionalId: string;
  groupId: string;
  markerTopic: string;
}

export class KafkaStreamSink implements StreamSink {
  readonly description = "KafkaTable";
  readonly reportsOutputRows = true;
  private producer: Promise<KafkaProducer> | null = null;
  private txProducer: Promise<KafkaTransactionalProducer> | null = null;
  private eos: EosState | null = null;
  private lastCommitted: number | null = null;

  constructor(
    private readonly opts: SinkOptions,
    private readonly checkpointDir: string | null,
  ) {
    if (opts.exactlyOnce && !checkpointDir) {
      throw new IllegalArgumentException("The exactly-once Kafka sink (arus.exactlyOnce=true) needs option checkpointLocation.");
    }
  }

  async addBatch(batchId: number, data: SinkBatch): Promise<void> {
    const layout = checkSinkSchema(data.names, data.schema, this.opts.topic);
    const records = toRecords(layout, data.batches, this.opts.topic);
    checkRecordSizes(records, this.opts.maxRequestSize);
    const servers = this.opts.client.bootstrapServers;
    if (!this.opts.exactlyOnce) {
      if (!records.length) return;
      this.producer ??= connecting(servers, "connect to", () => kafkajsClient(this.opts.client).producer());
      const p = await this.producer;
      await send(servers, () => p.send(records));
      return;
    }
    await this.addTransactional(batchId, records);
  }

  private async eosState(records: readonly OutRecord[]): Promise<EosState | null> {
    if (this.eos) return this.eos;
    const file = path.join(this.checkpointDir!, "kafka-sink.json");
    try {
      this.eos = JSON.parse(await readFile(file, "utf8")) as EosState;
      return this.eos;
    } catch {
      if (!records.length) return null;
    }
    const meta = JSON.parse(await readFile(path.join(this.checkpointDir!, "metadata"), "utf8")) as { id: string };
    const id = this.opts.transactionalId ?? `arus-${meta.id}`;
    this.eos = { transactionalId: id, groupId: `${id}-commits`, markerTopic: this.opts.topic ?? records[0]!.topic };
    await writeAtomic(nodeFs, file, JSON.stringify(this.eos), true);
    return this.eos;
  }

  private async addTransactional(batchId: number, records: readonly OutRecord[]): Promise<void> {
    const eos = await this.eosState(records);
    if (!eos) return; // nothing written yet and nothing to write
    const servers = this.opts.client.bootstrapServers;
    const client = kafkajsClient(this.opts.client);
    if (!this.txProducer) {
      // Connecting fences any earlier producer with this id and aborts its open transaction.
      this.txProducer = connecting(servers, "connect to", () =>
        client.transactionalProducer(eos.transactionalId, this.opts.transactionTimeoutMs),
      );
      this.txProducer.catch(() => {
        this.txProducer = null;
      });
    }
    const p = await this.txProducer;
    if (this.lastCommitted === null) {
      const admin = await connecting(servers, "connect to", () => client.admin());
      try {
        const committed = (await admin.groupOffsets(eos.groupId, eos.markerTopic)).get(0);
        this.lastCommitted = committed === undefined ? -1 : committed - 1;
      } finally {
        await admin.close();
      }
    }
    if (batchId <= this.lastCommitted) return; // this batch's transaction is already committed
    if (!records.length) return;
    await send(servers, () =>
      p.sendInTransaction(records, { groupId: eos.groupId, tp: { topic: eos.markerTopic, partition: 0 }, offset: batchId + 1 }),
    );
    this.lastCommitted = batchId;
  }

  async stop(): Promise<void> {
    const ps = [this.producer, this.txProducer];
    this.producer = this.txProducer = null;
    await Promise.allSettled(ps.map((p) => p?.then((x) => x.close())));
  }
}

export function createKafkaSink(ctx: SinkContext): StreamSink {
  return new KafkaStreamSink(sinkOptions(ctx.options), ctx.checkpointDir);
}
