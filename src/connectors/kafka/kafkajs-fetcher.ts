/**
 * KafkaFetcher over kafkajs's cluster and broker objects (its consumer has no manual
 * assignment): ranges of one partition fetched, fetched ahead and watched for new records, the
 * responses decoded by arus into columns (fetch-kafkajs.ts, record-batch.ts).
 */
import type { FetchedRecord, KafkaFetcher, TopicPartition } from "./client.js";
import { KafkaOffsetOutOfRange, tpKey } from "./client.js";
import { decompressRecords } from "./compression.js";
import { fetchPartition, fetchPartitions, type RawPartition } from "./fetch-kafkajs.js";
import { abortedTransactions, ColumnsBuilder, decodeRecordBatches, type FetchedColumns } from "./record-batch.js";

// biome-ignore lint/suspicious/noExplicitAny: kafkajs's cluster and broker objects are untyped
type Any = any;

const FETCH_MAX_BYTES = 8 * 1024 * 1024;
/** How long a fetch may find nothing at an offset the range says exists (Spark: kafkaConsumer.pollTimeoutMs, default 120 s). */
const FETCH_GIVE_UP_MS = 120_000;

interface Ahead {
  readonly offset: number;
  readonly res: Promise<RawPartition | undefined>;
  /** null while the Fetch is on its way. */
  empty: boolean | null;
  /** The Fetch's maxWaitTime: 0 for a fetch ahead, the wait of an idle watch (a long poll). */
  readonly holdMs: number;
  /** performance.now() when it was sent (a monotonic clock: ages stay right when the wall clock is set). */
  readonly sentAt: number;
  /** The watches on their way when it was sent: until they are answered, its answer may wait behind theirs. */
  readonly behind: readonly Watching[];
  /** Where the partition's log ended by the answer (see logEnds), and when it came (performance.now()); null before it or after an error. */
  logEnd: { offset: number; at: number } | null;
}

/** A watch, holding its leaders' fetch connections until answered. */
interface Watching {
  holding: boolean;
}

export class Fetcher implements KafkaFetcher {
  /** Per broker node: the connect of its fetch connection in flight. */
  private readonly connectingFetch = new Map<string, Promise<void>>();
  /** Per partition: the Fetch sent ahead (fetchAhead), the offset it starts at, and whether it came back empty. */
  private readonly ahead = new Map<string, Ahead>();
  /** The idle watch on its way (see watch). */
  private watching: Promise<boolean> | null = null;
  /** Watches on their way (a broker answers one connection's requests in order: a Fetch sent now may wait behind one). */
  private readonly watches = new Set<Watching>();
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
        key: c.keys.at(i),
        value: c.values.at(i),
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
    this.ahead.set(
      tpKey(tp),
      this.track(
        offset,
        this.fetchAt(tp, offset, 0).catch(() => undefined),
        0,
      ),
    );
  }

  /** The entry of a Fetch sent at `offset` whose answer (undefined on an error) `res` resolves to. */
  private track(offset: number, res: Promise<RawPartition | undefined>, holdMs: number): Ahead {
    const behind = holdMs === 0 ? [...this.watches] : [];
    const entry: Ahead = { offset, res, empty: null, holdMs, sentAt: performance.now(), behind, logEnd: null };
    res.then((part) => {
      entry.empty = !part || part.end <= part.start;
      // The high watermark, or the last stable offset under read_committed: the end a
      // ListOffsets request would answer under the same isolation level.
      const end = this.readCommitted ? part?.lastStableOffset : part?.highWatermark;
      if (part && part.errorCode === 0 && end !== undefined && end >= 0) entry.logEnd = { offset: end, at: performance.now() };
    });
    return entry;
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
   * Where each partition's log ends for a streaming query about to read from `starts`, as the
   * Fetch at each start tells it (KafkaFetcher.logEnds): the Fetch goes out as by prefetch, and
   * its answer's end is the partition's, if it came at most `maxAgeMs` ago. A Fetch on its way is
   * waited for (up to `maxWaitMs`) unless it may queue behind a watch; a watch on its way means
   * the log ends at its offset (the broker answers it as soon as records come after it).
   */
  async logEnds(
    starts: readonly { tp: TopicPartition; offset: number }[],
    maxAgeMs: number,
    maxWaitMs: number,
  ): Promise<(number | null)[]> {
    for (const { tp, offset } of starts) this.prefetch(tp, offset);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((r) => {
      timer = setTimeout(r, maxWaitMs);
    });
    const one = async ({ tp, offset }: { tp: TopicPartition; offset: number }): Promise<number | null> => {
      const e = this.ahead.get(tpKey(tp));
      if (!e || e.offset !== offset) return null;
      if (e.empty === null && e.holdMs > 0) return performance.now() - e.sentAt <= e.holdMs + maxAgeMs ? offset : null;
      if (e.empty === null) {
        if (e.behind.some((w) => w.holding)) return null;
        await Promise.race([e.res, waited]);
      }
      return e.logEnd && performance.now() - e.logEnd.at <= maxAgeMs ? e.logEnd.offset : null;
    };
    try {
      return await Promise.all(starts.map(one));
    } finally {
      clearTimeout(timer);
    }
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
      this.ahead.set(tpKey(tp), this.track(offset, new Promise((r) => (settle = r)), waitMs));
      answers.set(tpKey(tp), settle);
    }
    // Counted from now (its leaders are looked up first: a Fetch sent meanwhile may already
    // queue behind it) until its last leader answers, before anyone hears of the answers.
    const token: Watching = { holding: true };
    this.watches.add(token);
    const release = () => {
      token.holding = false;
      this.watches.delete(token);
    };
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
        let unanswered = byLeader.size;
        return [...byLeader].map(async ([broker, partitions]) => {
          const got = await fetchPartitions(broker, {
            isolationLevel: this.readCommitted ? 1 : 0,
            maxWaitTime: waitMs,
            minBytes: 1,
            maxBytes: FETCH_MAX_BYTES,
            partitions,
          }).catch(() => new Map<string, RawPartition>());
          if (--unanswered === 0) release();
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
          release();
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
      const aborted = this.readCommitted && part?.abortedTransactions.length ? abortedTransactions(part.abortedTransactions) : null;
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
