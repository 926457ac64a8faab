/**
 * Reading the scale-out output (not a test file itself): a live read_committed tail that notes
 * when each record became visible (its transaction's commit, to within one poll), and a full
 * read of a topic to its end with either isolation level for the final check.
 */
import type { KafkaAdmin, KafkaFetcher, TopicPartition } from "../../../src/connectors/kafka/client.js";
import { testClient, waitForStable } from "../../connectors/kafka-helpers.js";

export interface OutputRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string | null;
  readonly value: string;
  /** The record's CreateTime: when the worker's producer sent it. */
  readonly createTime: number;
}

export interface SeenRecord extends OutputRecord {
  /** When the tail first saw it under read_committed. */
  readonly seenAt: number;
}

const text = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString());

/** Every record of `topic` up to its end (the last stable offset under read_committed, once no transaction is pending). */
export async function readTopic(bootstrap: string, topic: string, readCommitted: boolean): Promise<OutputRecord[]> {
  const client = testClient(bootstrap, readCommitted);
  const admin = await client.admin();
  const fetcher = await client.fetcher();
  try {
    const tps = await admin.partitions([topic]);
    if (readCommitted) await waitForStable(bootstrap, tps);
    const ranges = await admin.offsetRange(tps);
    const out: OutputRecord[] = [];
    for (const tp of tps) {
      const r = ranges.get(`${tp.topic}-${tp.partition}`)!;
      for (const rec of await fetcher.fetch(tp, r.earliest, r.latest)) {
        out.push({
          topic,
          partition: tp.partition,
          offset: rec.offset,
          key: text(rec.key),
          value: text(rec.value) ?? "null",
          createTime: rec.timestamp,
        });
      }
    }
    return out;
  } finally {
    await Promise.all([admin.close(), fetcher.close()]);
  }
}

/** Polls the topics with read_committed every `intervalMs` and hands each new record to `onRecord`. */
export class CommittedTail {
  private admin: KafkaAdmin | null = null;
  private fetcher: KafkaFetcher | null = null;
  private readonly next = new Map<string, number>();
  private tps: TopicPartition[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Poll errors (the tail keeps going; the final read decides). */
  readonly errors: string[] = [];

  constructor(
    private readonly bootstrap: string,
    private readonly topics: readonly string[],
    private readonly onRecord: (r: SeenRecord) => void,
    private readonly intervalMs = 200,
  ) {}

  async start(): Promise<void> {
    const client = testClient(this.bootstrap, true);
    this.admin = await client.admin();
    this.fetcher = await client.fetcher();
    this.tps = await this.admin.partitions(this.topics);
    for (const tp of this.tps) this.next.set(`${tp.topic}-${tp.partition}`, 0);
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.poll().finally(() => this.schedule());
    }, this.intervalMs);
  }

  /** One round: every partition from where the last round ended to its last stable offset. */
  async poll(): Promise<void> {
    try {
      const stable = await this.admin!.latestOffsets(this.tps);
      for (const tp of this.tps) {
        const key = `${tp.topic}-${tp.partition}`;
        const from = this.next.get(key)!;
        const until = stable.get(key) ?? from;
        if (until <= from) continue;
        const recs = await this.fetcher!.fetch(tp, from, until);
        const seenAt = Date.now();
        for (const rec of recs) {
          this.onRecord({
            topic: tp.topic,
            partition: tp.partition,
            offset: rec.offset,
            key: text(rec.key),
            value: text(rec.value) ?? "null",
            createTime: rec.timestamp,
            seenAt,
          });
        }
        this.next.set(key, until);
      }
    } catch (e) {
      if (this.errors.length < 20) this.errors.push(String(e));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await Promise.allSettled([this.admin?.close(), this.fetcher?.close()]);
  }
}
