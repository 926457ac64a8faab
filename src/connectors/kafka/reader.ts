/**
 * The read side shared by the streaming source and batch reads: connects (with an error that
 * names the bootstrap servers), resolves offset specs to offsets, and reads offset ranges into
 * batches with Spark's data-loss checks.
 */

import type { Batch } from "../../columnar/batch.js";
import { ArusError } from "../../common/errors.js";
import type { StructType } from "../../types/datatypes.js";
import { currentPartitions } from "./assignment.js";
import { type KafkaAdmin, type KafkaClient, type KafkaFetcher, KafkaOffsetOutOfRange, type TopicPartition, tpKey } from "./client.js";
import { kafkajsClient } from "./client-kafkajs.js";
import { reportDataLoss } from "./data-loss.js";
import { latestFromFetch } from "./latest-from-fetch.js";
import { OffsetMap } from "./offsets.js";
import type { OffsetSpec, SourceOptions } from "./options.js";
import { columnsToBatch } from "./rows.js";

export type ClientFactory = (opts: SourceOptions) => KafkaClient;
let clientFactory: ClientFactory = (o) => kafkajsClient(o.client);
/** Swap the client implementation (tests, another library). */
export function setKafkaClientFactory(f: ClientFactory): void {
  clientFactory = f;
}
export function kafkaClientFor(opts: SourceOptions): KafkaClient {
  return clientFactory(opts);
}

export async function connecting<T>(servers: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ArusError) throw e;
    throw new ArusError(
      "KAFKA_UNREACHABLE",
      `Cannot ${what} Kafka at bootstrap servers '${servers}' (option kafka.bootstrap.servers): ${(e as Error).message}`,
      { cause: e },
    );
  }
}

/**
 * How old the cached partition list may get before latestOffset starts refreshing it (in the
 * background: the call that notices uses the cached list, so a partition or a subscribePattern
 * topic added meanwhile is read from the trigger after the refresh lands).
 */
export const METADATA_REFRESH_MS = 1000;

export class KafkaReader {
  private client: KafkaClient;
  private closed = false;
  /** The subscription's partitions as last listed, and when (Date.now()). */
  private listed: { parts: TopicPartition[]; at: number } | null = null;
  private refreshing: Promise<unknown> | null = null;
  private adminP: Promise<KafkaAdmin> | null = null;
  private fetcherP: Promise<KafkaFetcher> | null = null;

  constructor(readonly opts: SourceOptions) {
    this.client = kafkaClientFor(opts);
  }
  private get servers() {
    return this.opts.client.bootstrapServers;
  }
  admin(): Promise<KafkaAdmin> {
    this.adminP ??= connecting(this.servers, "connect to", () => this.client.admin());
    this.adminP.catch(() => {
      this.adminP = null;
    });
    return this.adminP;
  }
  private fetcher(): Promise<KafkaFetcher> {
    this.fetcherP ??= connecting(this.servers, "connect to", () => this.client.fetcher());
    this.fetcherP.catch(() => {
      this.fetcherP = null;
    });
    return this.fetcherP;
  }

  /**
   * Spark's KafkaOffsetReaderAdmin.withRetries: an offset look-up that fails on the broker is
   * tried `fetchOffset.numRetries` times in all (default 3), `fetchOffset.retryIntervalMs`
   * apart (default 1000), on a new admin client each time; then the last error is raised.
   * Errors that are not the broker's (data loss, wrong offsets) are raised at once.
   */
  private async withRetries<T>(what: string, fn: (admin: KafkaAdmin) => Promise<T>): Promise<T> {
    const attempts = Math.max(1, this.opts.fetchRetries);
    for (let attempt = 1; ; attempt++) {
      try {
        const admin = await this.admin();
        return await connecting(this.servers, what, () => fn(admin));
      } catch (e) {
        if (!(e instanceof ArusError) || e.errorClass !== "KAFKA_UNREACHABLE" || attempt >= attempts || this.closed) throw e;
        await new Promise((r) => setTimeout(r, this.opts.fetchRetryIntervalMs));
        const stale = this.adminP;
        this.adminP = null;
        await stale?.then((a) => a.close()).catch(() => {});
        // closed meanwhile: no new admin client that nothing would close
        if (this.closed) throw e;
      }
    }
  }

  /** The subscription's partitions now (one or two metadata round trips; also refreshes the cache). */
  async partitions(): Promise<TopicPartition[]> {
    const at = Date.now();
    const parts = await this.withRetries("list partitions from", (admin) => currentPartitions(this.opts.subscription, admin));
    this.listed = { parts, at };
    return parts;
  }

  /**
   * The cached partition list, listed on the first call; an older one than METADATA_REFRESH_MS
   * starts a refresh that the next call sees. A failed background refresh is dropped: the next
   * latest-offsets request tells (a deleted topic fails it, which lists again in the foreground).
   */
  private cachedPartitions(): Promise<TopicPartition[]> | TopicPartition[] {
    const listed = this.listed;
    if (!listed) return this.partitions();
    if (!this.refreshing && !this.closed && Date.now() - listed.at >= METADATA_REFRESH_MS) {
      const at = Date.now();
      this.refreshing = this.admin()
        .then((admin) => currentPartitions(this.opts.subscription, admin))
        .then((parts) => {
          if (!this.listed || this.listed.at < at) this.listed = { parts, at };
        })
        .catch(() => {})
        .finally(() => {
          this.refreshing = null;
        });
    }
    return listed.parts;
  }

  /**
   * Spark's fetchLatestOffsets, on the critical path of every trigger: the latest offsets of the
   * cached partitions in one ListOffsets request per broker. When that fails (a topic deleted,
   * a leader moved, the broker restarted) the partitions are listed again and the request
   * retried with Spark's fetchOffset retries.
   */
  async latestOffsets(): Promise<OffsetMap> {
    const parts = await this.cachedPartitions();
    let r: Map<string, number>;
    try {
      r = await connecting(this.servers, "fetch offsets from", async () => (await this.admin()).latestOffsets(parts));
      return toOffsetMap(parts, r);
    } catch (e) {
      if (this.closed) throw e;
    }
    const fresh = await this.partitions();
    r = await this.withRetries("fetch offsets from", (admin) => admin.latestOffsets(fresh));
    return toOffsetMap(fresh, r);
  }

  /**
   * The latest offsets for a streaming batch that starts at `from`, as the fetcher's answers to
   * the trigger's own Fetches show them (latest-from-fetch.ts); null when the broker must be
   * asked (latestOffsets). Sends the prefetch.
   */
  async latestOffsetsFromFetch(from: OffsetMap): Promise<OffsetMap | null> {
    if (this.closed) return null;
    try {
      return await latestFromFetch(await this.fetcher(), await this.cachedPartitions(), from);
    } catch {
      return null; // latestOffsets meets the error again, with its retries and message
    }
  }

  /** The earliest offsets of some partitions (Spark's fetchEarliestOffsets). */
  async earliestOffsets(tps: readonly TopicPartition[]): Promise<OffsetMap> {
    if (!tps.length) return new OffsetMap();
    return toOffsetMap(tps, await this.withRetries("fetch offsets from", (admin) => admin.earliestOffsets(tps)));
  }
  async ranges(tps: readonly TopicPartition[]) {
    return this.withRetries("fetch offsets from", (admin) => admin.offsetRange(tps));
  }
  async latest(tps?: readonly TopicPartition[]): Promise<{ latest: OffsetMap; earliest: OffsetMap }> {
    const parts = tps ?? (await this.partitions());
    const r = await this.ranges(parts);
    const latest = new OffsetMap();
    const earliest = new OffsetMap();
    for (const tp of parts) {
      latest.set(tp, r.get(tpKey(tp))!.latest);
      earliest.set(tp, r.get(tpKey(tp))!.earliest);
    }
    return { latest, earliest };
  }

  /** Offsets an OffsetSpec names for the current partitions (-2/-1 resolved). */
  async resolve(spec: OffsetSpec, which: "starting" | "ending"): Promise<OffsetMap> {
    const parts = await this.partitions();
    const { latest, earliest } = await this.latest(parts);
    if (spec.kind === "earliest") return earliest;
    if (spec.kind === "latest") return latest;
    const out = new OffsetMap();
    if (spec.kind === "specific") {
      const given = new OffsetMap();
      for (const [topic, m] of spec.offsets) for (const [partition, off] of m) given.set({ topic, partition }, off);
      const assigned = new Set(parts.map(tpKey));
      const specified = given.partitions;
      if (specified.length !== parts.length || specified.some((tp) => !assigned.has(tpKey(tp)))) {
        throw new ArusError(
          "KAFKA_OFFSETS_PARTITIONS",
          `If ${which}Offsets contains specific offsets, you must specify all TopicPartitions.\nUse -1 for latest, -2 for earliest.\nSpecified: ${specified.map(tpKey).join(", ")} Assigned: ${parts.map(tpKey).join(", ")}`,
        );
      }
      for (const tp of parts) {
        const off = given.get(tp)!;
        out.set(tp, off === -2 ? earliest.get(tp)! : off === -1 ? latest.get(tp)! : off);
      }
      return out;
    }
    for (const tp of parts) {
      const ts = spec.global ?? spec.perPartition?.get(tp.topic)?.get(tp.partition);
      if (ts === undefined) {
        throw new ArusError(
          "KAFKA_OFFSETS_PARTITIONS",
          `${which}OffsetsByTimestamp does not name partition ${tpKey(tp)}; it must name every assigned partition.`,
        );
      }
      const found = (await this.withRetries("fetch offsets from", (admin) => admin.offsetsForTimes([tp], ts))).get(tpKey(tp)) ?? null;
      if (found === null) {
        if (which === "ending" || this.opts.timestampStrategyLatest) out.set(tp, latest.get(tp)!);
        else {
          throw new ArusError(
            "KAFKA_START_OFFSET_BY_TIMESTAMP",
            `No offset matched from request of topic-partition ${tpKey(tp)} and timestamp ${ts}. (Set startingOffsetsByTimestampStrategy to 'latest' to start from the latest offset instead.)`,
          );
        }
      } else out.set(tp, found);
    }
    return out;
  }

  /**
   * A streaming query is planning a batch that reads from `start`: the partitions' Fetch goes
   * out now, alongside the latest-offsets request (see KafkaFetcher.prefetch).
   */
  prefetch(start: OffsetMap): void {
    if (this.closed) return;
    this.fetcher()
      .then((f) => {
        for (const tp of start.partitions) f.prefetch?.(tp, start.get(tp)!);
      })
      .catch(() => {}); // the batch's own fetch meets the error again
  }

  /**
   * An idle streaming query waits for records after `start` (KafkaFetcher.watch): true as soon
   * as some arrive, false after about `waitMs` without (or on any error: the next trigger's
   * own requests meet it).
   */
  async watch(start: OffsetMap, waitMs: number): Promise<boolean> {
    if (this.closed) return false;
    try {
      const f = await this.fetcher();
      return (
        (await f.watch?.(
          start.partitions.map((tp) => ({ tp, offset: start.get(tp)! })),
          waitMs,
        )) ?? false
      );
    } catch {
      return false;
    }
  }

  /**
   * Rows in [start, end) per partition, one batch per partition, with Spark's data-loss checks.
   * `streaming`: the next read starts at `end` (the fetcher may fetch ahead).
   */
  async read(schema: StructType, start: OffsetMap, end: OffsetMap, streaming = false): Promise<Batch[]> {
    const fail = this.opts.failOnDataLoss;
    const deleted = start.partitions.filter((tp) => !end.has(tp));
    if (deleted.length) reportDataLoss(fail, "PARTITIONS_DELETED", `Partitions ${deleted.map(tpKey).join(", ")} have been deleted.`);
    const newParts = end.partitions.filter((tp) => !start.has(tp));
    const newStarts = newParts.length ? (await this.latest(newParts)).earliest : new OffsetMap();
    for (const tp of newParts) {
      const off = newStarts.get(tp) ?? 0;
      if (off !== 0) {
        reportDataLoss(
          fail,
          "ADDED_PARTITION_DOES_NOT_START_FROM_OFFSET_ZERO",
          `Added partition ${tpKey(tp)} starts from ${off} instead of 0.`,
        );
      }
    }
    const fetcher = await this.fetcher();
    const work = end.partitions.map(async (tp) => {
      let from = start.get(tp) ?? newStarts.get(tp) ?? 0;
      const until = end.get(tp)!;
      if (until < from) {
        reportDataLoss(fail, "PARTITION_OFFSET_CHANGED", `Partition ${tpKey(tp)}'s offset was changed from ${from} to ${until}.`);
        return null;
      }
      if (until === from) return null;
      // Records deleted before `from` (retention, deleteRecords) make the broker answer
      // OFFSET_OUT_OF_RANGE: the data loss is reported below, as Spark's consumer reports it,
      // without a ListOffsets round trip per batch to look for it first.
      for (let attempt = 0; ; attempt++) {
        try {
          return columnsToBatch(schema, tp, await fetcher.fetchColumns(tp, from, until, streaming));
        } catch (e) {
          if (!(e instanceof KafkaOffsetOutOfRange) || attempt > 0) {
            if (e instanceof ArusError) throw e;
            throw new ArusError(
              "KAFKA_FETCH_FAILED",
              `Could not read records in offset [${from}, ${until}) for topic partition ${tpKey(tp)} from '${this.servers}': ${(e as Error).message}`,
              { cause: e },
            );
          }
          const earliest = (await this.latest([tp])).earliest.get(tp) ?? 0;
          reportDataLoss(
            fail,
            "START_OFFSET_RESET",
            `Cannot fetch offset ${from} for ${tpKey(tp)}: the earliest available offset is ${earliest}.`,
          );
          if (earliest >= until) return null;
          from = Math.max(from, earliest);
        }
      }
    });
    return (await Promise.all(work)).filter((b): b is Batch => b !== null && b.numRows > 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.refreshing;
    const a = this.adminP;
    const f = this.fetcherP;
    this.adminP = this.fetcherP = null;
    await Promise.allSettled([a?.then((x) => x.close()), f?.then((x) => x.close())]);
  }
}

function toOffsetMap(tps: readonly TopicPartition[], r: Map<string, number>): OffsetMap {
  const out = new OffsetMap();
  for (const tp of tps) out.set(tp, r.get(tpKey(tp))!);
  return out;
}
