/**
 * The client adapter over kafkajs 2.2.4 (pure JavaScript). Admin and producer calls use its
 * public API; ranges of one partition are fetched through its cluster and broker objects
 * (kafkajs's consumer has no manual assignment), with the response decoded by arus into columns
 * (fetch-kafkajs.ts, record-batch.ts).
 */
import net from "node:net";
import { type ConfigResourceTypes, Kafka, logLevel } from "kafkajs";
import { crashPoint } from "../../common/crash-points.js";
import type {
  ClientConfig,
  FetchedRecord,
  KafkaAdmin,
  KafkaClient,
  KafkaFetcher,
  KafkaProducer,
  KafkaTransactionalProducer,
  OutRecord,
  TopicPartition,
} from "./client.js";
import { estimatedRecordSize, KafkaOffsetOutOfRange, tpKey } from "./client.js";
import { decompressRecords } from "./compression.js";
import { fetchPartition, fetchPartitions, type RawPartition } from "./fetch-kafkajs.js";
import { cacheCoordinators } from "./kafkajs-coordinators.js";
import { installMetadataFix } from "./kafkajs-metadata.js";
import { installNullHeaderRecords } from "./kafkajs-record.js";
import { installRequestQueueFix } from "./kafkajs-request-queue.js";
import { ColumnsBuilder, decodeRecordBatches, type FetchedColumns } from "./record-batch.js";

// biome-ignore lint/suspicious/noExplicitAny: kafkajs's cluster and broker objects are untyped
type Any = any;

const FETCH_MAX_BYTES = 8 * 1024 * 1024;
/** How long a fetch may find nothing at an offset the range says exists (Spark: kafkaConsumer.pollTimeoutMs, default 120 s). */
const FETCH_GIVE_UP_MS = 120_000;
/**
 * kafkajs puts every record for a partition of one send into one record batch, and a broker
 * refuses a batch above its message.max.bytes (1 MB by default): a micro-batch is sent in
 * chunks of at most this many (estimated) bytes, one after another.
 */
const SEND_CHUNK_BYTES = 900_000;

export function chunks(records: readonly OutRecord[]): OutRecord[][] {
  const out: OutRecord[][] = [];
  let cur: OutRecord[] = [];
  let bytes = 0;
  for (const r of records) {
    const size = estimatedRecordSize(r);
    if (cur.length && bytes + size > SEND_CHUNK_BYTES) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(r);
    bytes += size;
  }
  if (cur.length) out.push(cur);
  return out;
}
/** Coordinator errors worth a retry, by kafkajs's names (Kafka's NOT_COORDINATOR is its NOT_COORDINATOR_FOR_GROUP). */
const RETRIABLE = new Set([
  "NOT_COORDINATOR_FOR_GROUP",
  "GROUP_LOAD_IN_PROGRESS",
  "GROUP_COORDINATOR_NOT_AVAILABLE",
  "CONCURRENT_TRANSACTIONS",
]);

/**
 * Producer retries: about two minutes of them (Kafka's delivery.timeout.ms is 120 s), then the
 * send fails. kafkajs's idempotent producer would otherwise retry forever, hanging a query
 * whose broker is gone instead of failing it with a clear error.
 */
export const PRODUCER_RETRY = { retries: 120, initialRetryTime: 100, maxRetryTime: 1000 };

/**
 * The exactly-once producer's retries: the same two minutes, but the first retry after ~5 ms.
 * A transaction's EndTxn is answered before the broker has written its commit markers; until
 * they are written, the next transaction's AddPartitionsToTxn fails with CONCURRENT_TRANSACTIONS
 * (a few batches in a hundred at 10 k events/s on one box), and kafkajs retries it after its
 * `initialRetryTime` — at 100 ms that was the exactly-once p90/p99 (bench/RESULTS.md, "Kafka
 * end to end"). Kafka's Java producer retries this case after 20 ms for the same reason.
 * 5 + 10 + ... + 640 ms, then 1 s each: ~2 minutes in 125 retries.
 */
export const TRANSACTIONAL_PRODUCER_RETRY = { retries: 125, initialRetryTime: 5, maxRetryTime: 1000 };

/**
 * How long a coordinator may be moving or loading before its error is raised: a broker that
 * just started (or restarted) loads __consumer_offsets and the transaction log first, which
 * takes seconds on a busy machine.
 */
const COORDINATOR_WAIT_MS = 60_000;

/** The pause before retry `attempt` (0-based) on a retriable coordinator error, or null when out of time. */
function coordinatorPause(e: unknown, attempt: number, since: number): number | null {
  if (!RETRIABLE.has((e as { type?: string }).type ?? "")) return null;
  if (Date.now() - since > COORDINATOR_WAIT_MS) return null;
  return Math.min(1000, 100 * (attempt + 1));
}

/** Answers about a partition's leader that a moment (and fresh metadata) settles. */
const LEADERSHIP_ERRORS = new Set(["NOT_LEADER_FOR_PARTITION", "LEADER_NOT_AVAILABLE", "FENCED_LEADER_EPOCH", "UNKNOWN_LEADER_EPOCH"]);

async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  const since = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const pause = coordinatorPause(e, attempt, since);
      if (pause === null) throw e;
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/**
 * The sockets one client opened, and how many of its admins, fetchers and producers are open.
 * When the last of them is closed, a socket kafkajs still holds open (it can lose track of one:
 * see Fetcher.leader) is destroyed, so closing every client lets the process exit.
 */
class Sockets {
  private readonly open = new Set<net.Socket>();
  private users = 0;
  readonly factory = ({ host, port, onConnect }: { host: string; port: number; onConnect: () => void }): net.Socket => {
    const socket = net.connect({ host, port }, onConnect);
    socket.setKeepAlive(true, 60_000); // as kafkajs's own socket factory
    // Requests are small and each waits for its answer: no Nagle delay (Kafka's Java client
    // sets TCP_NODELAY too).
    socket.setNoDelay(true);
    this.open.add(socket);
    socket.once("close", () => this.open.delete(socket));
    return socket;
  };
  /** One more user; the function returned (idempotent) ends its use. */
  acquire(): () => void {
    this.users++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.users > 0) return;
      for (const s of this.open) s.destroy();
      this.open.clear();
    };
  }
}

/** One kafkajs instance over arus's sockets, with the means to open its client objects. */
function kafkajsBase(cfg: ClientConfig) {
  installNullHeaderRecords();
  installRequestQueueFix();
  installMetadataFix();
  const sockets = new Sockets();
  const kafka = new Kafka({
    brokers: cfg.bootstrapServers.split(",").map((s) => s.trim()),
    clientId: cfg.clientId,
    connectionTimeout: cfg.connectTimeoutMs,
    requestTimeout: cfg.requestTimeoutMs,
    retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 },
    logLevel: logLevel.NOTHING,
    socketFactory: sockets.factory,
  });
  /** Opens a client object with `open`; `close` disconnects it (also when opening failed). */
  const opened = async <T>(open: () => Promise<T>, close: () => Promise<unknown>): Promise<() => Promise<void>> => {
    const release = sockets.acquire();
    const closeAll = async () => {
      await close().catch(() => {});
      release();
    };
    try {
      await open();
    } catch (e) {
      await closeAll();
      throw e;
    }
    return closeAll;
  };
  const clusterFactory = (): symbol => {
    const sym = Object.getOwnPropertySymbols(kafka).find((s) => s.description === "private:Kafka:createCluster");
    if (!sym) throw new Error("kafkajs internals changed: no cluster factory (pin kafkajs 2.2.4)");
    return sym;
  };
  const createCluster = (): Any =>
    (kafka as Any)[clusterFactory()]({ metadataMaxAge: 300000, allowAutoTopicCreation: false, isolationLevel: cfg.readCommitted ? 1 : 0 });
  /** Runs `make` (a kafkajs factory that creates its own cluster) and hands that cluster to `seen`. */
  const withNewCluster = <T>(make: () => T, seen: (cluster: Any) => void): T => {
    const sym = clusterFactory();
    const k = kafka as Any;
    const original = k[sym];
    k[sym] = (...args: unknown[]) => {
      const cluster = original.apply(k, args);
      seen(cluster);
      return cluster;
    };
    try {
      return make();
    } finally {
      k[sym] = original;
    }
  };
  return { kafka, opened, createCluster, withNewCluster };
}

/**
 * A connected kafkajs cluster object (brokers, metadata, coordinators) for code that speaks the
 * protocol itself (the consumer-group member and worker transactions in group/). `close`
 * disconnects it and destroys any socket it left open.
 */
export async function kafkajsCluster(cfg: ClientConfig): Promise<{ cluster: Any; close: () => Promise<void> }> {
  const { opened, createCluster } = kafkajsBase(cfg);
  const cluster = createCluster();
  const close = await opened(
    () => cluster.connect(),
    () => cluster.disconnect(),
  );
  return { cluster, close };
}

export function kafkajsClient(cfg: ClientConfig): KafkaClient {
  const { kafka, opened, createCluster, withNewCluster } = kafkajsBase(cfg);
  return {
    async admin() {
      const admin = kafka.admin();
      const cluster = createCluster();
      const close = await opened(
        () => Promise.all([admin.connect(), cluster.connect()]),
        () => Promise.allSettled([admin.disconnect(), cluster.disconnect()]),
      );
      return new Admin(admin, cluster, close);
    },
    async fetcher() {
      const cluster = createCluster();
      const close = await opened(
        () => cluster.connect(),
        () => cluster.disconnect(),
      );
      return new Fetcher(cluster, cfg.readCommitted, close);
    },
    async producer() {
      // Idempotent, as Kafka's Java producer is by default since 3.0 (so Spark's): a send retried
      // after a lost acknowledgement does not write its records twice.
      const p = kafka.producer({ allowAutoTopicCreation: true, idempotent: true, maxInFlightRequests: 1, retry: PRODUCER_RETRY });
      const close = await opened(
        () => p.connect(),
        () => p.disconnect(),
      );
      return {
        send: async (records) => {
          for (const chunk of chunks(records)) delivered(chunk, await p.sendBatch({ topicMessages: topicMessages(chunk) }));
        },
        close,
      } satisfies KafkaProducer;
    },
    async transactionalProducer(transactionalId, timeoutMs) {
      // connect() runs InitProducerId: a pending transaction of an earlier producer with this
      // id is aborted and that producer is fenced.
      let forgetCoordinators = () => {};
      const p = withNewCluster(
        () =>
          kafka.producer({
            transactionalId,
            idempotent: true,
            maxInFlightRequests: 1,
            transactionTimeout: timeoutMs,
            retry: TRANSACTIONAL_PRODUCER_RETRY,
          }),
        (cluster) => {
          forgetCoordinators = cacheCoordinators(cluster);
        },
      );
      // kafkajs runs InitProducerId at the first transaction(), not at connect(): do it now, so
      // the fencing happens before the caller reads what earlier producers committed.
      const close = await opened(
        async () => {
          await p.connect();
          await (await p.transaction()).abort();
        },
        () => p.disconnect(),
      );
      return {
        async sendInTransaction(records, marker) {
          const since = Date.now();
          for (let attempt = 0; ; attempt++) {
            const txn = await p.transaction();
            try {
              for (const chunk of chunks(records)) delivered(chunk, await txn.sendBatch({ topicMessages: topicMessages(chunk) }));
              // Crash tests: the records are in the open transaction, the marker and commit are not.
              crashPoint("insideSink", marker.offset - 1);
              await txn.sendOffsets({
                consumerGroupId: marker.groupId,
                topics: [{ topic: marker.tp.topic, partitions: [{ partition: marker.tp.partition, offset: String(marker.offset) }] }],
              });
              await txn.commit();
              return;
            } catch (e) {
              forgetCoordinators();
              await txn.abort().catch(() => {});
              // An aborted transaction is invisible to read_committed readers: retry the whole
              // transaction on a coordinator that moved or is loading, never after fencing.
              const pause = coordinatorPause(e, attempt, since);
              if (pause === null) throw e;
              await new Promise((r) => setTimeout(r, pause));
            }
          }
        },
        close,
      } satisfies KafkaTransactionalProducer;
    },
  };
}

/**
 * kafkajs silently leaves out records for a partition the topic does not have (no leader in
 * its metadata): every explicit partition must be in the send's response, as Kafka's Java
 * producer refuses such a record. In a transaction the error aborts it, so nothing is visible.
 */
export function delivered(chunk: readonly OutRecord[], res: readonly { topicName: string; partition: number }[]): void {
  const got = new Set(res.map((r) => `${r.topicName}-${r.partition}`));
  for (const r of chunk) {
    if (r.partition !== null && !got.has(`${r.topic}-${r.partition}`)) {
      throw new Error(`Partition ${r.partition} of topic ${r.topic} is not present in metadata: the topic has no such partition`);
    }
  }
}

export function topicMessages(records: readonly OutRecord[]) {
  const byTopic = new Map<string, Any[]>();
  for (const r of records) {
    let list = byTopic.get(r.topic);
    if (!list) byTopic.set(r.topic, (list = []));
    list.push({
      key: r.key === null ? null : asBuffer(r.key),
      value: r.value === null ? null : asBuffer(r.value),
      partition: r.partition ?? undefined,
      // A list, in order, null values kept: kafkajs-record.ts's encoder writes it (kafkajs's own
      // takes an object, which regroups repeated keys and cannot hold a null value).
      headers: r.headers.length ? r.headers.map((h) => ({ key: h.key, value: h.value === null ? null : asBuffer(h.value) })) : undefined,
    });
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

class Admin implements KafkaAdmin {
  constructor(
    private readonly admin: Any,
    private readonly cluster: Any,
    readonly close: () => Promise<void>,
  ) {}
  async listTopics(): Promise<string[]> {
    return (await this.admin.listTopics()) as string[];
  }
  async partitions(topics: readonly string[]): Promise<TopicPartition[]> {
    const existing = new Set(await this.listTopics());
    const wanted = topics.filter((t) => existing.has(t));
    if (!wanted.length) return [];
    const md = await this.admin.fetchTopicMetadata({ topics: wanted });
    const out: TopicPartition[] = [];
    for (const t of md.topics as { name: string; partitions: { partitionId: number }[] }[]) {
      for (const p of t.partitions) out.push({ topic: t.name, partition: p.partitionId });
    }
    return out;
  }
  /**
   * listOffsets, retried for a while on a leadership answer: a partition created or moved a
   * moment ago can be in the metadata before its leader serves it (NOT_LEADER_OR_FOLLOWER,
   * LEADER_NOT_AVAILABLE), as Kafka's Java admin retries them too.
   */
  private async listOffsetsSettled(tps: readonly TopicPartition[], ts: number | "earliest" | "latest"): Promise<Map<string, number>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.listOffsets(tps, ts);
      } catch (e) {
        if (attempt >= 20 || !LEADERSHIP_ERRORS.has((e as { type?: string }).type ?? "")) throw e;
        await new Promise((r) => setTimeout(r, Math.min(500, 50 * (attempt + 1))));
        await this.cluster.refreshMetadata().catch(() => {});
      }
    }
  }
  private async listOffsets(tps: readonly TopicPartition[], ts: number | "earliest" | "latest"): Promise<Map<string, number>> {
    const byTopic = new Map<string, number[]>();
    for (const tp of tps) (byTopic.get(tp.topic) ?? byTopic.set(tp.topic, []).get(tp.topic)!).push(tp.partition);
    const out = new Map<string, number>();
    if (!byTopic.size) return out;
    await this.cluster.addMultipleTargetTopics([...byTopic.keys()]);
    const res = await this.cluster.fetchTopicsOffset(
      [...byTopic].map(([topic, parts]) => ({
        topic,
        ...(typeof ts === "number" ? { fromTimestamp: ts } : { fromBeginning: ts === "earliest" }),
        partitions: parts.map((partition) => ({ partition })),
      })),
    );
    for (const t of res as { topic: string; partitions: { partition: number; offset: string }[] }[]) {
      for (const p of t.partitions) out.set(tpKey({ topic: t.topic, partition: p.partition }), Number(p.offset));
    }
    return out;
  }
  /**
   * One ListOffsets request per leader broker, the leaders taken from the cluster's cached
   * metadata; a partition that metadata does not know yet (added since) refreshes it once.
   */
  private async offsetsAt(tps: readonly TopicPartition[], which: "earliest" | "latest"): Promise<Map<string, number>> {
    let r = await this.listOffsetsSettled(tps, which);
    if (tps.some((tp) => !r.has(tpKey(tp)))) {
      await this.cluster.refreshMetadata();
      r = await this.listOffsetsSettled(tps, which);
      const missing = tps.filter((tp) => !r.has(tpKey(tp)));
      if (missing.length) throw new Error(`partitions ${missing.map(tpKey).join(", ")} are not in the broker's metadata`);
    }
    return r;
  }
  latestOffsets(tps: readonly TopicPartition[]) {
    return this.offsetsAt(tps, "latest");
  }
  earliestOffsets(tps: readonly TopicPartition[]) {
    return this.offsetsAt(tps, "earliest");
  }
  async offsetRange(tps: readonly TopicPartition[]) {
    const [lo, hi] = await Promise.all([this.offsetsAt(tps, "earliest"), this.offsetsAt(tps, "latest")]);
    const out = new Map<string, { earliest: number; latest: number }>();
    for (const tp of tps) out.set(tpKey(tp), { earliest: lo.get(tpKey(tp))!, latest: hi.get(tpKey(tp))! });
    return out;
  }
  async offsetsForTimes(tps: readonly TopicPartition[], timestampMs: number) {
    const r = await this.listOffsetsSettled(tps, timestampMs);
    const out = new Map<string, number | null>();
    for (const tp of tps) {
      const v = r.get(tpKey(tp));
      out.set(tpKey(tp), v === undefined || v < 0 ? null : v);
    }
    return out;
  }
  async createTopic(topic: string, partitions: number, configs: Readonly<Record<string, string>> = {}) {
    const configEntries = Object.entries(configs).map(([name, value]) => ({ name, value }));
    const created = await this.admin.createTopics({
      waitForLeaders: false,
      topics: [{ topic, numPartitions: partitions, replicationFactor: 1, configEntries }],
    });
    // Wait until every partition has a leader. kafkajs's own wait (waitForLeaders) gives up on
    // UNKNOWN_TOPIC_OR_PARTITION, which a broker answers for a moment after the creation
    // (more often while other topics are being deleted). A topic another client created at the
    // same moment (`created` false) is waited for too, whatever its partition count (the
    // caller checks that).
    for (let attempt = 0; ; attempt++) {
      try {
        const md = await this.admin.fetchTopicMetadata({ topics: [topic] });
        const parts = (md.topics[0]?.partitions ?? []) as { leader: number }[];
        const counted = created ? parts.length === partitions : parts.length > 0;
        if (counted && parts.every((p) => p.leader >= 0)) return;
      } catch (e) {
        const type = (e as { type?: string }).type ?? "";
        if (attempt >= 50 || (type !== "UNKNOWN_TOPIC_OR_PARTITION" && type !== "LEADER_NOT_AVAILABLE")) throw e;
      }
      if (attempt >= 50) throw new Error(`topic ${topic}: partitions without a leader after ${attempt} attempts`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  async addPartitions(topic: string, total: number) {
    await this.admin.createPartitions({ topicPartitions: [{ topic, count: total }] });
  }
  async deleteTopic(topic: string) {
    await this.admin.deleteTopics({ topics: [topic] });
  }
  async deleteRecords(tp: TopicPartition, before: number) {
    await this.admin.fetchTopicOffsets(tp.topic); // loads the topic's metadata, which deleteTopicRecords needs
    await this.admin.deleteTopicRecords({ topic: tp.topic, partitions: [{ partition: tp.partition, offset: String(before) }] });
  }
  async topicConfigs(topic: string, names: readonly string[]) {
    const res = await this.admin.describeConfigs({
      includeSynonyms: false,
      // ConfigResourceTypes.TOPIC (the enum is not among kafkajs's ESM named exports).
      resources: [{ type: 2 as ConfigResourceTypes, name: topic, configNames: [...names] }],
    });
    const out: Record<string, string> = {};
    for (const e of res.resources[0]?.configEntries ?? []) out[e.configName] = e.configValue;
    return out;
  }
  async groupOffsets(groupId: string, topic: string) {
    // A topic that does not exist yet (the sink's output, created by its first write) has no
    // committed offsets; kafkajs would fail on its metadata.
    if (!(await this.listTopics()).includes(topic)) return new Map<number, number>();
    const res = (await retrying(() => this.admin.fetchOffsets({ groupId, topics: [topic] }))) as {
      partitions: { partition: number; offset: string }[];
    }[];
    const out = new Map<number, number>();
    for (const p of res[0]?.partitions ?? []) if (Number(p.offset) >= 0) out.set(p.partition, Number(p.offset));
    return out;
  }
}

interface Ahead {
  readonly offset: number;
  readonly res: Promise<RawPartition | undefined>;
  /** null while the Fetch is on its way. */
  empty: boolean | null;
}

class Fetcher implements KafkaFetcher {
  /** Per broker node: the connect of its fetch connection in flight. */
  private readonly connectingFetch = new Map<string, Promise<void>>();
  /** Per partition: the Fetch sent ahead (fetchAhead), the offset it starts at, and whether it came back empty. */
  private readonly ahead = new Map<string, Ahead>();
  /** The idle watch on its way (see watch). */
  private watching: Promise<boolean> | null = null;
  private closed = false;
  constructor(
    private readonly cluster: Any,
    private readonly readCommitted: boolean,
    private readonly disconnect: () => Promise<void>,
  ) {}
  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.ahead.values()].map((a) => a.res);
    this.ahead.clear();
    await Promise.all(pending);
    await this.disconnect();
  }

  /**
   * The broker leading a partition, its fetch connection connected. kafkajs's Connection.connect
   * is not safe to call concurrently: two partitions fetched at once from a broker whose fetch
   * connection is not connected yet (first fetch, or after the broker restarted) would each open
   * a socket, and the one overwritten stays open, unreferenced, until the broker's idle timeout
   * (connections.max.idle.ms, 10 minutes), keeping the process alive after every client was
   * closed. So one connect per broker at a time; the others wait for it.
   */
  private async leader(tp: TopicPartition): Promise<Any> {
    await this.cluster.addMultipleTargetTopics([tp.topic]);
    const leaders = this.cluster.findLeaderForPartitions(tp.topic, [tp.partition]) as Record<string, number[]>;
    const nodeId = Object.keys(leaders)[0];
    if (nodeId === undefined) throw new Error(`no leader for ${tp.topic}-${tp.partition}`);
    const broker = await this.cluster.findBroker({ nodeId });
    const pool = broker.connectionPool;
    const conn = pool?.pool?.[1];
    if (!conn) throw new Error("kafkajs internals changed: no fetch connection (pin kafkajs 2.2.4)");
    while (!conn.isConnected()) {
      let pending = this.connectingFetch.get(nodeId);
      if (!pending) {
        pending = (async () => {
          try {
            await pool.getConnection(1);
          } finally {
            this.connectingFetch.delete(nodeId);
          }
        })();
        this.connectingFetch.set(nodeId, pending);
      }
      await pending;
    }
    return broker;
  }
  async fetch(tp: TopicPartition, from: number, until: number): Promise<FetchedRecord[]> {
    const c = await this.fetchColumns(tp, from, until);
    const out: FetchedRecord[] = [];
    for (let i = 0; i < c.count; i++) {
      out.push({
        key: c.keys[i]!,
        value: c.values[i]!,
        offset: c.offsets[i]!,
        timestamp: c.timestamps[i]!,
        timestampType: c.timestampTypes[i]!,
        headers: c.headers[i]!,
      });
    }
    return out;
  }
  /** One Fetch of a partition from `offset` (waiting up to maxWaitTime ms for a first byte). */
  private async fetchAt(tp: TopicPartition, offset: number, maxWaitTime: number): Promise<RawPartition | undefined> {
    const broker = await this.leader(tp);
    return fetchPartition(broker, {
      topic: tp.topic,
      partition: tp.partition,
      offset,
      isolationLevel: this.readCommitted ? 1 : 0,
      maxWaitTime,
      minBytes: 1,
      maxBytes: FETCH_MAX_BYTES,
    });
  }

  /**
   * Sends the Fetch for the records after a range read by a streaming query while it processes
   * that range (Kafka's Java consumer, so Spark's, keeps a fetch ahead too): the next range then
   * starts from bytes already here. maxWaitTime 0, so it never holds the broker connection (a
   * broker answers one connection's requests in order). An error is dropped: the range's own
   * fetch meets it again.
   */
  private fetchAhead(tp: TopicPartition, offset: number): void {
    if (this.closed) return;
    const entry: Ahead = { offset, res: this.fetchAt(tp, offset, 0).catch(() => undefined), empty: null };
    entry.res.then((part) => {
      entry.empty = !part || part.end <= part.start;
    });
    this.ahead.set(tpKey(tp), entry);
  }

  /**
   * Kafka's Java consumer has a fetch in flight when the next poll comes; here the source asks
   * at latestOffset time. An entry fetched ahead at this offset that has records (or is still
   * on its way) is kept: it holds what the next batch reads first.
   */
  prefetch(tp: TopicPartition, offset: number): void {
    const cur = this.ahead.get(tpKey(tp));
    if (cur && cur.offset === offset && cur.empty !== true) return;
    this.fetchAhead(tp, offset);
  }

  /**
   * An idle query waiting for records: one Fetch per leader for all `starts` (minBytes 1, so the
   * broker answers as soon as any of them has records, or after `waitMs`). The answers are kept
   * as the partitions' fetched-ahead entries (the next batch reads them, as after prefetch).
   * Resolves true as soon as one answer holds records. One watch at a time: while one is on its
   * way, a second call gets its promise (it holds the fetch connection; a batch's Fetch waits
   * behind it only until records arrive, which is when that batch can run anyway).
   */
  watch(starts: readonly { tp: TopicPartition; offset: number }[], waitMs: number): Promise<boolean> {
    if (this.watching) return this.watching;
    if (this.closed || !starts.length) return Promise.resolve(false);
    const answers = new Map<string, (part: RawPartition | undefined) => void>();
    for (const { tp, offset } of starts) {
      let settle!: (part: RawPartition | undefined) => void;
      const entry: Ahead = { offset, res: new Promise((r) => (settle = r)), empty: null };
      entry.res.then((part) => {
        entry.empty = !part || part.end <= part.start;
      });
      this.ahead.set(tpKey(tp), entry);
      answers.set(tpKey(tp), settle);
    }
    const watching: Promise<boolean> = new Promise<boolean>((resolveWatch) => {
      // The next watch may start once this one has an answer (a leader still waiting is superseded).
      const resolve = (records: boolean) => {
        if (this.watching === watching) this.watching = null;
        resolveWatch(records);
      };
      const perLeader = async () => {
        const byLeader = new Map<Any, { topic: string; partition: number; offset: number }[]>();
        for (const { tp, offset } of starts) {
          const broker = await this.leader(tp);
          byLeader.set(broker, [...(byLeader.get(broker) ?? []), { ...tp, offset }]);
        }
        return [...byLeader].map(async ([broker, partitions]) => {
          const got = await fetchPartitions(broker, {
            isolationLevel: this.readCommitted ? 1 : 0,
            maxWaitTime: waitMs,
            minBytes: 1,
            maxBytes: FETCH_MAX_BYTES,
            partitions,
          }).catch(() => new Map<string, RawPartition>());
          let records = false;
          for (const p of partitions) {
            const part = got.get(`${p.topic}:${p.partition}`);
            if (part && part.end > part.start) records = true;
            answers.get(tpKey(p))?.(part);
          }
          if (records) resolve(true);
        });
      };
      perLeader()
        .then((sent) => Promise.all(sent))
        .catch(() => {})
        .finally(() => {
          for (const settle of answers.values()) settle(undefined); // no-op for the answered ones
          resolve(false);
        });
    });
    this.watching = watching;
    return watching;
  }

  async fetchColumns(tp: TopicPartition, from: number, until: number, ahead = false): Promise<FetchedColumns> {
    const out = new ColumnsBuilder(until - from);
    let next = from;
    let attempts = 0;
    const started = Date.now();
    const early = this.ahead.get(tpKey(tp));
    this.ahead.delete(tpKey(tp));
    let prefetched = early && early.offset === from ? early.res : null;
    /** Where the log ended (high watermark, or last stable offset) at the last fetch. */
    let logEnd = -1;
    while (next < until) {
      let part: RawPartition | undefined;
      try {
        if (prefetched) part = await prefetched;
        prefetched = null;
        // An empty answer fetched ahead means nothing was there yet: ask again, waiting this time.
        if (!part || part.end <= part.start) part = await this.fetchAt(tp, next, 100);
      } catch (e) {
        const err = e as { name?: string; type?: string };
        if (err.name === "KafkaJSOffsetOutOfRange" || err.type === "OFFSET_OUT_OF_RANGE") throw new KafkaOffsetOutOfRange(tp, next);
        if (++attempts > 5) throw e;
        await this.cluster.refreshMetadata().catch(() => {});
        continue;
      }
      if (part) logEnd = this.readCommitted ? part.lastStableOffset : part.highWatermark;
      const aborted =
        this.readCommitted && part?.abortedTransactions.length ? { pending: part.abortedTransactions, aborting: new Set<number>() } : null;
      const after = part ? await decodeRecordBatches(part.buf, part.start, part.end, next, until, out, aborted, decompressRecords) : -1;
      if (after <= next) {
        // Nothing at or after `next`: the rest of the range is a gap (transaction markers,
        // compaction) when the log has moved past it; otherwise retry a few times.
        const stable = this.readCommitted ? part?.lastStableOffset : part?.highWatermark;
        if ((stable ?? -1) >= until) break;
        // Never hand back a short range as if it were whole (the caller commits [from, until)):
        // give up loudly, as Spark's consumer does after kafkaConsumer.pollTimeoutMs.
        if (Date.now() - started > FETCH_GIVE_UP_MS) {
          throw new Error(
            `no records at offset ${next} within ${FETCH_GIVE_UP_MS} ms (the range ends at ${until}; the broker's ${this.readCommitted ? "last stable offset" : "high watermark"} is ${stable ?? "unknown"})`,
          );
        }
        if (!part) await new Promise((r) => setTimeout(r, 20)); // e.g. a throttled fetch: no partition data
        continue;
      }
      attempts = 0;
      next = after;
    }
    // Fetch ahead only when the log already holds records past the range (a backlog): otherwise
    // the answer would be empty or a few records, and the next trigger's prefetch asks anyway.
    if (ahead && logEnd > until) this.fetchAhead(tp, until);
    return out;
  }
}
