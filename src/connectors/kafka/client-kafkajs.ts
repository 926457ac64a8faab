/**
 * The client adapter over kafkajs 2.2.4 (pure JavaScript): one kafkajs instance over arus's
 * sockets and the client objects opened from it. The producers live here; the admin
 * (kafkajs-admin.ts) uses kafkajs's public API, the fetcher (kafkajs-fetcher.ts) its cluster and
 * broker objects, since kafkajs's consumer has no manual assignment.
 */
import net from "node:net";
import { Kafka, logLevel } from "kafkajs";
import { crashPoint } from "../../common/crash-points.js";
import type { ClientConfig, KafkaClient, KafkaProducer, KafkaTransactionalProducer, OutRecord } from "./client.js";
import { estimatedRecordSize } from "./client.js";
import { Admin } from "./kafkajs-admin.js";
import { cacheCoordinators } from "./kafkajs-coordinators.js";
import { Fetcher } from "./kafkajs-fetcher.js";
import { installMetadataFix } from "./kafkajs-metadata.js";
import { installNullHeaderRecords } from "./kafkajs-record.js";
import { installRequestQueueFix } from "./kafkajs-request-queue.js";
import { coordinatorPause } from "./kafkajs-retry.js";

// biome-ignore lint/suspicious/noExplicitAny: kafkajs's cluster and broker objects are untyped
type Any = any;

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
 * The sockets one client opened, and how many of its admins, fetchers and producers are open.
 * When the last of them is closed, a socket kafkajs still holds open (it can lose track of one:
 * see Fetcher.leader) is destroyed, so closing every client lets the process exit.
 */
export class Sockets {
  private readonly open = new Set<net.Socket>();
  private users = 0;
  readonly factory = ({ host, port, onConnect }: { host: string; port: number; onConnect: () => void }): net.Socket => {
    const socket = net.connect({ host, port }, onConnect);
    socket.setKeepAlive(true, 60_000); // as kafkajs's own socket factory
    // Requests are small and each waits for its answer: no Nagle delay (Kafka's Java client
    // sets TCP_NODELAY too).
    socket.setNoDelay(true);
    // kafkajs's disconnect() unrefs its socket; on one that never connected (the broker down)
    // Node keeps each call for a 'connect' that never comes, one listener per retry (and warns
    // at 11). A destroyed socket has nothing to unref.
    const unref = socket.unref.bind(socket);
    socket.unref = () => (socket.destroyed ? socket : unref());
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
      timestamp: r.timestamp === undefined ? undefined : String(r.timestamp),
    });
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
