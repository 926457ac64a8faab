/**
 * `readStream.format("kafka")`: Spark's KafkaMicroBatchStream. Offsets are Spark's JSON
 * (`{"topic":{"0":42}}`); the initial offsets are fixed at the query's first start and kept in
 * `sources/<i>/0` as Spark's KafkaSourceInitialOffsetWriter writes them, so a restart before
 * the first batch starts from the same place.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { nodeFs, writeAtomic } from "../../checkpoint/atomic-file.js";
import type { Batch } from "../../columnar/batch.js";
import type { StructType } from "../../types/datatypes.js";
import type { Offset, ReadLimit, SourceContext, StreamSource } from "../source.js";
import { describeSubscription } from "./assignment.js";
import { OffsetMap, offsetsBehindMetrics, rateLimit } from "./offsets.js";
import type { SourceOptions } from "./options.js";
import { KafkaReader } from "./reader.js";

/**
 * How long one idle watch waits on the broker for records (its Fetch's maxWaitTime): another
 * follows while the query stays idle. It bounds how long the fetch connection is held and how
 * long stop() waits for the Fetch on its way.
 */
export const IDLE_WATCH_MS = 100;

export class KafkaMicroBatchStream implements StreamSource {
  readonly supportsAvailableNow = true;
  readonly description: string;
  private readonly reader: KafkaReader;
  private initial: OffsetMap | null = null;
  private latestSeen: OffsetMap | null = null;
  private availableNowEnd: OffsetMap | null = null;
  private lastTriggerMs = 0;
  /** Whether latestOffset ran before in this run (the first asks the broker: see latestOffset). */
  private triggered = false;
  /** onDataAvailable's listeners. */
  private readonly listeners = new Set<() => void>();
  /** Where the last trigger found no new records (the offsets an idle query waits after), or null. */
  private idleAt: { offsets: OffsetMap; key: string } | null = null;
  private watchingIdle = false;
  /**
   * The offsets a watch last woke the query at. A trigger that finds nothing new there again
   * polls instead of watching: a Fetch answering with bytes the latest offsets do not count
   * would otherwise wake the query in a loop.
   */
  private wokeAt: string | null = null;
  private stopped = false;

  constructor(
    private readonly opts: SourceOptions,
    readonly schema: StructType,
    private readonly ctx: SourceContext,
  ) {
    this.description = `KafkaV2[${describeSubscription(opts.subscription)}]`;
    this.reader = new KafkaReader(opts);
  }

  defaultReadLimit(): ReadLimit {
    return this.opts.maxOffsetsPerTrigger === null ? { kind: "all" } : { kind: "maxRows", max: this.opts.maxOffsetsPerTrigger };
  }

  private async initialOffsets(): Promise<OffsetMap> {
    if (this.initial) return this.initial;
    const file = this.ctx.metadataDir ? path.join(this.ctx.metadataDir, "0") : null;
    if (file && existsSync(file)) {
      const text = (await nodeFs.readFile(file)).toString("utf8").replace(/^\0/, "");
      const nl = text.indexOf("\n");
      this.initial = OffsetMap.fromJson(JSON.parse(text.slice(nl + 1)));
      return this.initial;
    }
    const resolved = await this.reader.resolve(this.opts.starting, "starting");
    if (file) {
      await mkdir(path.dirname(file), { recursive: true });
      // Spark writes a 0 byte first (compatibility with Spark 2.1.0's format), then "v1\n" and the JSON.
      await writeAtomic(nodeFs, file, `\0v1\n${JSON.stringify(resolved.toJson())}`, false);
    }
    this.initial = resolved;
    return resolved;
  }

  async prepareForAvailableNow(): Promise<void> {
    // Listed afresh: availableNow reads everything there is when it starts, new partitions too.
    await this.reader.partitions();
    this.availableNowEnd = await this.reader.latestOffsets();
  }

  async latestOffset(start: Offset | null, limit: ReadLimit, exact = false): Promise<Offset | null> {
    const from = start === null ? await this.initialOffsets() : OffsetMap.fromJson(start);
    // The next batch's records, fetched while the broker answers the latest offsets: one round
    // trip before the batch can run instead of two.
    this.reader.prefetch(from);
    // That Fetch's answer tells the latest offsets too (arus.latestOffsetsFromFetch). Not at a
    // run's first trigger (Trigger.Once's only one), under AvailableNow, nor for a trigger that
    // processAllAvailable waits on: they ask the broker. (A Fetch answer may be 100 ms old, and
    // a watch not yet answered reads as "nothing new" while its answer, records just produced,
    // is on its way: processAllAvailable returned before the records were read.)
    const fromFetch =
      this.opts.latestOffsetsFromFetch && this.triggered && !this.availableNowEnd && !exact
        ? await this.reader.latestOffsetsFromFetch(from)
        : null;
    const latest = fromFetch ?? (await this.reader.latestOffsets());
    this.triggered = true;
    this.latestSeen = latest;
    this.noteIdle(from, latest);
    let target = latest;
    if (this.availableNowEnd) {
      // Partitions that appeared after AvailableNow fixed its end are left for a later query.
      target = new OffsetMap();
      for (const tp of this.availableNowEnd.partitions) target.set(tp, this.availableNowEnd.get(tp)!);
    }
    let end = target;
    if (limit.kind === "maxRows") {
      if (this.delayBatch(from, target)) end = from;
      else {
        // As Spark's rateLimit: the earliest offsets only of partitions new since `from`.
        const earliest = await this.reader.earliestOffsets(target.partitions.filter((tp) => !from.has(tp)));
        end = rateLimit(limit.max, from, target, (tp) => earliest.get(tp) ?? 0);
      }
    } else if (limit.kind !== "all") {
      end = target;
    } else if (!this.availableNowEnd && this.delayBatch(from, target)) end = from;
    // At a query's first trigger the initial offsets are an offset even with nothing after them:
    // Spark then runs batch 0 with no rows (startingOffsets latest before anything is produced),
    // its offsets/0 recording where the query started.
    return end.toJson();
  }

  /** Spark's delayBatch for minOffsetsPerTrigger / maxTriggerDelay. */
  private delayBatch(from: OffsetMap, latest: OffsetMap): boolean {
    const min = this.opts.minOffsetsPerTrigger;
    if (min === null || this.availableNowEnd) return false;
    const now = this.ctx.now();
    if (now - this.lastTriggerMs >= this.opts.maxTriggerDelayMs) {
      this.lastTriggerMs = now;
      return false;
    }
    let n = 0;
    for (const tp of latest.partitions) n += latest.get(tp)! - (from.get(tp) ?? 0);
    if (n < min) return true;
    this.lastTriggerMs = now;
    return false;
  }

  async getBatch(start: Offset | null, end: Offset): Promise<Batch[]> {
    const from = start === null ? await this.initialOffsets() : OffsetMap.fromJson(start);
    return this.reader.read(this.schema, from, OffsetMap.fromJson(end), true);
  }

  /**
   * Progress `latestOffset`: the newest offsets seen, not the batch's (limited) end. With
   * arus.latestOffsetsFromFetch, as the trigger's Fetch answers showed them (at most
   * FETCHED_END_MAX_AGE_MS old) rather than a ListOffsets answer.
   */
  reportLatestOffset(): Offset | null {
    return this.latestSeen?.toJson() ?? null;
  }

  /** Progress `metrics`: how far the batch's end trails the newest offsets (Spark 3.3+). */
  metrics(end: Offset | null): Record<string, string> | undefined {
    if (!this.latestSeen || end === null) return undefined;
    const consumed = OffsetMap.fromJson(end);
    return offsetsBehindMetrics(this.latestSeen.partitions.map((tp) => this.latestSeen!.get(tp)! - (consumed.get(tp) ?? 0)));
  }

  /**
   * Wakes an idle query when records arrive (StreamSource.onDataAvailable): while the last
   * trigger found nothing new, a Fetch waits on the broker for records after its offsets
   * (KafkaReader.watch), and its answer is what the next batch reads.
   */
  onDataAvailable(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After latestOffset: remember whether the query is idle at `from`, and if so, watch from there. */
  private noteIdle(from: OffsetMap, latest: OffsetMap): void {
    // AvailableNow ends when there is nothing; a read limit's hold-back (minOffsetsPerTrigger) is not idle.
    const idle = !this.availableNowEnd && latest.partitions.every((tp) => latest.get(tp)! <= (from.get(tp) ?? 0));
    if (!idle || !this.listeners.size) {
      this.idleAt = null;
      return;
    }
    const key = JSON.stringify(from.toJson());
    if (key === this.wokeAt) {
      this.idleAt = null;
      return;
    }
    if (this.idleAt?.key !== key) this.idleAt = { offsets: from, key };
    if (!this.watchingIdle) void this.watchIdle();
  }

  /** One watch after another while the query stays idle; the listeners hear of the first records. */
  private async watchIdle(): Promise<void> {
    this.watchingIdle = true;
    try {
      for (;;) {
        const at = this.idleAt;
        if (!at || !this.listeners.size || this.stopped) return;
        const t0 = Date.now();
        const records = await this.reader.watch(at.offsets, IDLE_WATCH_MS);
        if (records && this.idleAt === at) {
          this.idleAt = null;
          this.wokeAt = at.key;
          for (const l of [...this.listeners]) l();
        } else if (!records) {
          // An answer sooner than the wait (an error) is not retried at once.
          const rest = IDLE_WATCH_MS - (Date.now() - t0);
          if (rest > 0) await new Promise((r) => setTimeout(r, rest));
        }
      }
    } finally {
      this.watchingIdle = false;
    }
  }

  async commit(): Promise<void> {}
  async stop(): Promise<void> {
    this.stopped = true;
    this.idleAt = null;
    await this.reader.close();
  }
}
