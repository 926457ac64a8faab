/**
 * One transactional producer per worker (Kafka Streams' EOS v2): every micro-batch's output,
 * changelog, repartition and progress records plus the source offsets commit in one
 * transaction. The offsets go with the group metadata of the member that processed them
 * (TxnOffsetCommit v3, KIP-447), so a zombie worker — one whose generation is over — cannot
 * commit: its transaction is refused and aborted, and read_committed readers never see its
 * records.
 *
 * Records are partitioned, encoded and sent by kafkajs's message producer, as arus's sink sends
 * them; this class plays kafkajs's transaction manager (producer id and epoch, sequence numbers,
 * partitions added to the transaction) and sends the transaction requests itself, so it knows
 * the producer id and epoch that TxnOffsetCommit v3 needs and can type every error.
 */
import { createRequire } from "node:module";
import { type OutRecord, type TopicPartition, tpKey } from "../client.js";
import { chunks, delivered, kafkajsCluster, PRODUCER_RETRY, topicMessages } from "../client-kafkajs.js";
import { classify, KafkaErrorCode, KafkaFencedError, kafkaCode } from "./errors.js";
import { type Any, kafkajsRequest, sendToBroker } from "./kafkajs-protocol.js";
import { clientConfig, type KafkaConnection } from "./member.js";
import { type GroupMetadata, txnOffsetCommit } from "./txn-offset-commit.js";

const require = createRequire(import.meta.url);
const createMessageProducer = require("kafkajs/src/producer/messageProducer.js") as Any;
const DefaultPartitioner = require("kafkajs/src/producer/partitioners/default/index.js") as Any;
const createRetry = require("kafkajs/src/retry/index.js") as Any;

export type WorkerTransactionsOptions = KafkaConnection & {
  /** One per worker slot (e.g. `arus-<app>-<slot>`): a restarted slot fences its predecessor. */
  readonly transactionalId: string;
  /** Kafka's transaction.timeout.ms: the coordinator aborts a transaction open longer (default 60000). */
  readonly transactionTimeoutMs?: number;
};

/** Offsets to commit: tpKey -> next offset to read, or a list. */
export type OffsetsToCommit = ReadonlyMap<string, number> | readonly (TopicPartition & { readonly offset: number })[];

type State = "new" | "ready" | "open" | "failed" | "fenced" | "closed";

/** How long a transaction request retries a coordinator that is moving, loading or still ending the previous transaction. */
const RETRY_MS = 30_000;
const INT32_MAX = 2_147_483_647;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function offsetList(o: OffsetsToCommit): (TopicPartition & { offset: number })[] {
  if (Array.isArray(o)) return o.map((x) => ({ topic: x.topic, partition: x.partition, offset: x.offset }));
  const out: (TopicPartition & { offset: number })[] = [];
  for (const [k, offset] of o as ReadonlyMap<string, number>) {
    const at = k.lastIndexOf("-");
    const partition = Number(k.slice(at + 1));
    if (at <= 0 || !Number.isInteger(partition) || partition < 0)
      throw new Error(`not a topic-partition key: "${k}" (expected <topic>-<partition>)`);
    out.push({ topic: k.slice(0, at), partition, offset });
  }
  return out;
}

export class WorkerTransactions {
  readonly transactionalId: string;
  readonly transactionTimeoutMs: number;
  private readonly cfg;
  private conn: { cluster: Any; close: () => Promise<void> } | null = null;
  private producer: { sendBatch: (a: Any) => Promise<{ topicName: string; partition: number; baseOffset?: string }[]> } | null = null;
  private producerId = "-1";
  private producerEpoch = 0;
  private readonly sequences = new Map<string, number>();
  /** Partitions and groups added to the open transaction. */
  private readonly added = new Set<string>();
  private readonly groups = new Set<string>();
  private state: State = "new";
  /** Transaction and group coordinators by "type:key", looked up again after any error. */
  private readonly coordinators = new Map<string, Any>();
  private fence: KafkaFencedError | null = null;
  /**
   * The last transaction that held offsets of groups (AddOffsetsToTxn): its groups and how it
   * ended ("open": never ended, so the next InitProducerId aborts it; "unknown": its EndTxn got
   * no answer). init() writes that ending to the groups again (endMarkerAgain).
   */
  private lastOffsetsTxn: { groups: string[]; outcome: "open" | "commit" | "abort" | "unknown" } | null = null;

  constructor(opts: WorkerTransactionsOptions) {
    if (typeof opts.transactionalId !== "string" || !opts.transactionalId)
      throw new Error("worker transactions: transactionalId is required");
    this.transactionalId = opts.transactionalId;
    this.transactionTimeoutMs = opts.transactionTimeoutMs ?? 60_000;
    if (!Number.isInteger(this.transactionTimeoutMs) || this.transactionTimeoutMs <= 0) {
      throw new Error(
        `worker transactions ${opts.transactionalId}: transactionTimeoutMs must be a positive integer (got ${opts.transactionTimeoutMs})`,
      );
    }
    this.cfg = clientConfig(opts, `arus-txn-${opts.transactionalId}`);
  }

  private where(what: string): string {
    return `Kafka ${what} of transactional id ${this.transactionalId} at ${this.cfg.bootstrapServers}`;
  }

  /** True between begin() and commit()/abort(). */
  get inTransaction(): boolean {
    return this.state === "open" || this.state === "failed";
  }

  private expect(states: State[], op: string): void {
    if (this.state === "fenced") throw this.fence!;
    if (!states.includes(this.state)) {
      const hint =
        this.state === "failed"
          ? " (an earlier step of this transaction failed: abort it)"
          : this.state === "new"
            ? " (call init() first)"
            : "";
      throw new Error(`${this.where(op)}: not allowed while the producer is ${this.state}${hint}`);
    }
  }

  /** Runs a transaction request, retrying what passes (coordinator moving, CONCURRENT_TRANSACTIONS); a fenced error ends the producer. */
  private async request<T>(what: string, coordinatorType: 0 | 1, coordinatorKey: string, fn: (broker: Any) => Promise<T>): Promise<T> {
    const cluster = this.conn!.cluster;
    const since = Date.now();
    for (let attempt = 0; ; attempt++) {
      const cacheKey = `${coordinatorType}:${coordinatorKey}`;
      try {
        let broker = this.coordinators.get(cacheKey);
        if (!broker) {
          broker = await cluster.findGroupCoordinator({ groupId: coordinatorKey, coordinatorType });
          this.coordinators.set(cacheKey, broker);
        }
        return await fn(broker);
      } catch (e) {
        this.coordinators.delete(cacheKey);
        const c = classify(e, this.where(what));
        if (c instanceof KafkaFencedError) {
          if (c.scope === "producer") {
            this.state = "fenced";
            this.fence = c;
          }
          throw c;
        }
        if (c === e || Date.now() - since > RETRY_MS) throw c;
        const concurrent = kafkaCode(e) === KafkaErrorCode.CONCURRENT_TRANSACTIONS;
        if (!concurrent) await cluster.refreshMetadata().catch(() => {});
        // CONCURRENT_TRANSACTIONS: the broker is still writing the last commit's markers, a matter
        // of milliseconds (as the exactly-once sink's producer, client-kafkajs.ts): retry soon.
        await sleep(Math.min(1000, (concurrent ? 5 : 50) * 2 ** Math.min(attempt, 8)));
      }
    }
  }

  /**
   * Connects and runs InitProducerId: a producer that used this transactional id before is
   * fenced (its epoch is over) and its open transaction aborted. Call once per worker start.
   */
  async init(): Promise<void> {
    if (this.state === "closed") throw new Error(`${this.where("init")}: closed`);
    if (!this.conn) {
      try {
        this.conn = await kafkajsCluster(this.cfg);
      } catch (e) {
        throw new Error(`${this.where("init")}: cannot connect to the brokers: ${(e as Error)?.message ?? e}`, { cause: e });
      }
    }
    const res = await this.request("InitProducerId", 1, this.transactionalId, (b) =>
      sendToBroker<Any>(
        b,
        kafkajsRequest(b, "InitProducerId", 1, { transactionalId: this.transactionalId, transactionTimeout: this.transactionTimeoutMs }),
      ),
    );
    // The coordinator aborted a transaction this producer left open.
    if (this.lastOffsetsTxn?.outcome === "open") this.lastOffsetsTxn = { ...this.lastOffsetsTxn, outcome: "abort" };
    this.producerId = String(res.producerId);
    this.producerEpoch = res.producerEpoch as number;
    this.sequences.clear();
    this.added.clear();
    this.groups.clear();
    this.fence = null;
    this.producer ??= this.messageProducer();
    this.state = "ready";
    await this.endMarkerAgain();
  }

  /**
   * A group coordinator keeps a transaction's offsets pending (OffsetFetch with require_stable:
   * UNSTABLE_OFFSET_COMMIT) until the transaction's end marker reaches the group's
   * __consumer_offsets partition. A broker stopped while it wrote the markers of this producer's
   * last transaction came back with that transaction complete but its offsets still pending, for
   * good (seen in group-broker-outage.test.ts: the worker waited on them minutes after the
   * restart, past the transaction timeout). Any later marker of the same producer id settles
   * them, so this ends an empty transaction over those groups the way the last one ended
   * (InitProducerId aborts one left open). A no-op when the markers did arrive; skipped when
   * the last ending is unknown (its EndTxn got no answer): the worker then waits and retries.
   */
  private async endMarkerAgain(): Promise<void> {
    const last = this.lastOffsetsTxn;
    if (!last || last.outcome === "unknown") return;
    const commit = last.outcome === "commit";
    this.state = "open";
    try {
      for (const groupId of last.groups) await this.addOffsetsToTxn(groupId);
      await this.endTxn(commit);
      this.state = "ready";
    } catch (e) {
      if ((this.state as State) !== "fenced") this.state = "failed";
      throw e;
    }
  }

  /** Adds a group's offsets partition to the open transaction (tracked in lastOffsetsTxn). */
  private async addOffsetsToTxn(groupId: string): Promise<void> {
    // Whether a failed AddOffsetsToTxn added the group is not known.
    this.lastOffsetsTxn = { groups: [...this.groups, groupId], outcome: "unknown" };
    await this.request("AddOffsetsToTxn", 1, this.transactionalId, (b) =>
      sendToBroker(
        b,
        kafkajsRequest(b, "AddOffsetsToTxn", 1, {
          transactionalId: this.transactionalId,
          producerId: this.producerId,
          producerEpoch: this.producerEpoch,
          groupId,
        }),
      ),
    );
    this.groups.add(groupId);
    this.lastOffsetsTxn = { groups: [...this.groups], outcome: "open" };
  }

  /** kafkajs's message producer over this object as its transaction manager. */
  private messageProducer() {
    const cluster = this.conn!.cluster;
    const eosManager = {
      isTransactional: () => true,
      isInitialized: () => true,
      getTransactionalId: () => this.transactionalId,
      getProducerId: () => this.producerId,
      getProducerEpoch: () => this.producerEpoch,
      getSequence: (topic: string, partition: number) => this.sequences.get(tpKey({ topic, partition })) ?? 0,
      updateSequence: (topic: string, partition: number, increment: number) => {
        const k = tpKey({ topic, partition });
        let next = (this.sequences.get(k) ?? 0) + increment;
        if (next >= INT32_MAX) next = 0; // the record batch's sequence is an int32 that wraps
        this.sequences.set(k, next);
      },
      addPartitionsToTransaction: (topicData: { topic: string; partitions: { partition: number }[] }[]) => this.addPartitions(topicData),
      // send() runs one sendBatch at a time, so no two produce requests share a broker at once.
      acquireBrokerLock: async () => {},
      releaseBrokerLock: () => {},
    };
    return createMessageProducer({
      logger: { debug() {}, info() {}, warn() {}, error() {}, namespace: () => ({ debug() {}, info() {}, warn() {}, error() {} }) },
      cluster,
      partitioner: DefaultPartitioner(),
      eosManager,
      idempotent: true,
      retrier: createRetry({ ...PRODUCER_RETRY, retries: 30 }),
      getConnectionStatus: () => "connected",
    });
  }

  private async addPartitions(topicData: { topic: string; partitions: { partition: number }[] }[]): Promise<void> {
    const fresh: { topic: string; partitions: number[] }[] = [];
    for (const t of topicData) {
      const parts = t.partitions.map((p) => p.partition).filter((p) => !this.added.has(tpKey({ topic: t.topic, partition: p })));
      if (parts.length) fresh.push({ topic: t.topic, partitions: parts });
    }
    if (!fresh.length) return;
    await this.request("AddPartitionsToTxn", 1, this.transactionalId, (b) =>
      sendToBroker(
        b,
        kafkajsRequest(b, "AddPartitionsToTxn", 1, {
          transactionalId: this.transactionalId,
          producerId: this.producerId,
          producerEpoch: this.producerEpoch,
          topics: fresh,
        }),
      ),
    );
    for (const t of fresh) for (const p of t.partitions) this.added.add(tpKey({ topic: t.topic, partition: p }));
  }

  begin(): void {
    this.expect(["ready"], "begin");
    this.added.clear();
    this.groups.clear();
    this.state = "open";
  }

  /** A failure inside an open transaction leaves it to be aborted. */
  private async step<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (this.state === "open") this.state = "failed";
      throw e;
    }
  }

  /**
   * Writes records (any topics, partition null = kafkajs's default partitioner) into the open
   * transaction. Returns, per partition named explicitly (tpKey), the offset of the last record
   * written there: group mode's task snapshots record which changelog offset they cover.
   */
  async send(records: readonly OutRecord[]): Promise<Map<string, number>> {
    this.expect(["open"], "send");
    const last = new Map<string, number>();
    await this.step(async () => {
      for (const chunk of chunks(records)) {
        try {
          const res = await this.producer!.sendBatch({ acks: -1, topicMessages: topicMessages(chunk) });
          delivered(chunk, res);
          lastOffsets(chunk, res, last);
        } catch (e) {
          const c = classify(e, this.where("send"));
          if (c instanceof KafkaFencedError && c.scope === "producer") {
            this.state = "fenced";
            this.fence = c;
          }
          throw c;
        }
      }
    });
    return last;
  }

  /**
   * Commits `offsets` for the group inside the open transaction, with the member's group
   * metadata: the group coordinator refuses it (KafkaFencedError, scope "group") when that
   * generation is over.
   */
  async sendOffsets(offsets: OffsetsToCommit, metadata: GroupMetadata): Promise<void> {
    this.expect(["open"], "sendOffsets");
    const list = offsetList(offsets);
    if (!list.length) return;
    for (const o of list) {
      if (!Number.isInteger(o.offset) || o.offset < 0)
        throw new Error(`${this.where("sendOffsets")}: offset ${o.offset} of ${tpKey(o)} is not a valid offset`);
    }
    await this.step(async () => {
      if (!this.groups.has(metadata.groupId)) await this.addOffsetsToTxn(metadata.groupId);
      await this.request(`TxnOffsetCommit (group ${metadata.groupId}, generation ${metadata.generationId})`, 0, metadata.groupId, (b) =>
        txnOffsetCommit(b, {
          transactionalId: this.transactionalId,
          producerId: this.producerId,
          producerEpoch: this.producerEpoch,
          group: metadata,
          offsets: list,
        }),
      );
    });
  }

  private async endTxn(commit: boolean): Promise<void> {
    if (!this.added.size && !this.groups.size) return; // nothing was added: the coordinator has no transaction
    const withOffsets = this.groups.size > 0;
    if (withOffsets) this.lastOffsetsTxn = { groups: [...this.groups], outcome: "unknown" };
    await this.request(commit ? "commit" : "abort", 1, this.transactionalId, (b) =>
      sendToBroker(
        b,
        kafkajsRequest(b, "EndTxn", 1, {
          transactionalId: this.transactionalId,
          producerId: this.producerId,
          producerEpoch: this.producerEpoch,
          transactionResult: commit,
        }),
      ),
    );
    if (withOffsets) this.lastOffsetsTxn = { groups: [...this.groups], outcome: commit ? "commit" : "abort" };
  }

  /** Commits the open transaction: its records and offsets become visible together. */
  async commit(): Promise<void> {
    this.expect(["open"], "commit");
    await this.step(() => this.endTxn(true));
    this.state = "ready";
  }

  /**
   * Aborts the open (or failed) transaction: its records stay invisible to read_committed
   * readers and its offsets are dropped. On a fenced producer it only forgets the transaction
   * (the coordinator aborts it for the newer producer).
   */
  async abort(): Promise<void> {
    if (this.state === "fenced") return;
    this.expect(["open", "failed"], "abort");
    try {
      await this.endTxn(false);
      this.state = "ready";
    } catch (e) {
      if (!(e instanceof KafkaFencedError)) this.state = "failed";
      throw e;
    }
  }

  async close(): Promise<void> {
    this.state = "closed";
    const conn = this.conn;
    this.conn = null;
    this.producer = null;
    await conn?.close();
  }
}

/**
 * kafkajs sends a chunk's records for one partition as one record batch, so the partition's
 * answer holds that batch's base offset: its last record is at base + count - 1.
 */
function lastOffsets(
  chunk: readonly OutRecord[],
  res: readonly { topicName: string; partition: number; baseOffset?: string }[],
  into: Map<string, number>,
): void {
  const counts = new Map<string, number>();
  for (const r of chunk) {
    if (r.partition === null) continue;
    const k = tpKey({ topic: r.topic, partition: r.partition });
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  for (const p of res) {
    const k = tpKey({ topic: p.topicName, partition: p.partition });
    const n = counts.get(k);
    if (n === undefined || p.baseOffset === undefined) continue;
    into.set(k, Number(p.baseOffset) + n - 1);
  }
}
