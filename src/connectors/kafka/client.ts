/**
 * The Kafka client adapter: the few broker operations the source and sink need, so the Node
 * client behind them can be swapped (docs/dependencies.md says why kafkajs today). Offsets are
 * plain numbers (exact below 2^53, like every BIGINT in arus).
 */
import type { FetchedColumns } from "./record-batch.js";

export type { FetchedColumns } from "./record-batch.js";

export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

export interface FetchedRecord {
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly offset: number;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
  /** 0 = CreateTime, 1 = LogAppendTime (Spark's `timestampType` column). */
  readonly timestampType: number;
  readonly headers: readonly { key: string; value: Uint8Array | null }[];
}

export interface OutRecord {
  readonly topic: string;
  readonly partition: number | null;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers: readonly { key: string; value: Uint8Array | null }[];
  /** CreateTime in ms; absent: the producer's clock (the sink never sets it, as Spark's). */
  readonly timestamp?: number;
}

export interface ClientConfig {
  readonly bootstrapServers: string;
  readonly clientId: string;
  /** Bounds connecting to an unreachable broker (the first error names the servers). */
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** `read_committed` hides aborted transactions' records (Kafka's `isolation.level`). */
  readonly readCommitted: boolean;
}

export interface KafkaAdmin {
  listTopics(): Promise<string[]>;
  /** Partitions of the topics that exist (a missing topic has none). */
  partitions(topics: readonly string[]): Promise<TopicPartition[]>;
  /**
   * The latest offset (log end; the last stable offset under read_committed) of each partition,
   * in one ListOffsets request per leader broker. Throws when a partition is not in the topic's
   * metadata (deleted) or its broker refuses.
   */
  latestOffsets(tps: readonly TopicPartition[]): Promise<Map<string, number>>;
  /** The earliest offset of each partition (as latestOffsets). */
  earliestOffsets(tps: readonly TopicPartition[]): Promise<Map<string, number>>;
  /** Earliest and latest (log end) offset of each partition. */
  offsetRange(tps: readonly TopicPartition[]): Promise<Map<string, { earliest: number; latest: number }>>;
  /** The first offset whose timestamp is >= ts, or null when there is none (Kafka's offsetsForTimes). */
  offsetsForTimes(tps: readonly TopicPartition[], timestampMs: number): Promise<Map<string, number | null>>;
  /** Creates the topic (`configs`: topic configs such as cleanup.policy) and waits for its leaders; an existing topic is left as it is. */
  createTopic(topic: string, partitions: number, configs?: Readonly<Record<string, string>>): Promise<void>;
  addPartitions(topic: string, total: number): Promise<void>;
  deleteTopic(topic: string): Promise<void>;
  deleteRecords(tp: TopicPartition, before: number): Promise<void>;
  /** The topic's configs of these names as in force (the broker's default where the topic sets none). */
  topicConfigs(topic: string, names: readonly string[]): Promise<Record<string, string>>;
  /** A consumer group's committed offsets for one topic (partition -> offset). */
  groupOffsets(groupId: string, topic: string): Promise<Map<number, number>>;
  close(): Promise<void>;
}

export interface KafkaFetcher {
  /**
   * Records with offsets in [from, until) of one partition, in offset order (may be fewer than
   * until - from: compaction and transaction markers leave gaps). Throws KafkaOffsetOutOfRange
   * when `from` is no longer (or not yet) in the log.
   */
  fetch(tp: TopicPartition, from: number, until: number): Promise<FetchedRecord[]>;
  /**
   * The same records as columns (what the source reads: no object per record). `ahead`: a
   * streaming query will read on from `until`, so the next records may be fetched meanwhile.
   */
  fetchColumns(tp: TopicPartition, from: number, until: number, ahead?: boolean): Promise<FetchedColumns>;
  /**
   * A streaming query is about to plan a batch that reads this partition from `offset`: send
   * the Fetch now (unless records from there are already fetched or on their way), so it runs
   * alongside the latest-offsets request instead of after it. Never throws.
   */
  prefetch?(tp: TopicPartition, offset: number): void;
  /**
   * An idle streaming query waits for records after these offsets: resolves true as soon as any
   * partition has some (kept for the next batch, as a prefetch), false after about `waitMs`
   * without. Never throws.
   */
  watch?(starts: readonly { tp: TopicPartition; offset: number }[], waitMs: number): Promise<boolean>;
  /**
   * A streaming query is about to plan a batch that reads these partitions from these offsets:
   * prefetch them, and tell where each one's log ends (the high watermark; the last stable
   * offset under read_committed) as the answers of its Fetches show, known at most `maxAgeMs`
   * ago, waiting at most `maxWaitMs` for an answer on its way. null for a partition whose end
   * is not known so (no answer, an error, too old): the caller asks the broker (ListOffsets).
   * Never throws.
   */
  logEnds?(starts: readonly { tp: TopicPartition; offset: number }[], maxAgeMs: number, maxWaitMs: number): Promise<(number | null)[]>;
  close(): Promise<void>;
}

export interface KafkaProducer {
  send(records: readonly OutRecord[]): Promise<void>;
  close(): Promise<void>;
}

/** A producer with a transactional id: one transaction at a time. */
export interface KafkaTransactionalProducer {
  /**
   * Writes the records and commits `groupId`'s offset `marker` on `markerTp` in one transaction:
   * both become visible to read_committed readers together, or neither does.
   */
  sendInTransaction(records: readonly OutRecord[], marker: { groupId: string; tp: TopicPartition; offset: number }): Promise<void>;
  close(): Promise<void>;
}

export class KafkaOffsetOutOfRange extends Error {
  constructor(
    readonly tp: TopicPartition,
    readonly offset: number,
  ) {
    super(`offset ${offset} is out of range for ${tp.topic}-${tp.partition}`);
  }
}

export interface KafkaClient {
  admin(): Promise<KafkaAdmin>;
  fetcher(): Promise<KafkaFetcher>;
  producer(): Promise<KafkaProducer>;
  transactionalProducer(transactionalId: string, timeoutMs: number): Promise<KafkaTransactionalProducer>;
}

export function tpKey(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

/** Bytes of Kafka's zigzag varint for a 32-bit value (Java's ByteUtils.sizeOfVarint). */
function sizeOfVarint(v: number): number {
  let z = ((v << 1) ^ (v >> 31)) >>> 0;
  let n = 1;
  while (z >= 0x80) {
    z >>>= 7;
    n++;
  }
  return n;
}

const RECORD_BATCH_OVERHEAD = 61;
const MAX_RECORD_OVERHEAD = 21;

/**
 * A record's serialized size as Kafka's Java producer estimates it before sending
 * (AbstractRecords.estimateSizeInBytesUpperBound, uncompressed): the size that its
 * max.request.size check and message use.
 */
export function estimatedRecordSize(r: OutRecord): number {
  const part = (b: Uint8Array | null) => (b === null ? 1 : sizeOfVarint(b.byteLength) + b.byteLength);
  let size = RECORD_BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + part(r.key) + part(r.value) + sizeOfVarint(r.headers.length);
  for (const h of r.headers) {
    const k = Buffer.byteLength(h.key, "utf8");
    size += sizeOfVarint(k) + k + part(h.value);
  }
  return size;
}
