/**
 * Task snapshots published to Kafka (`arus.cluster.publishSnapshots`), so that a worker on
 * another machine — with no local snapshot — also restores a task from a snapshot plus the
 * changelog's tail. Topic `arus-<group>-snapshots`, partition p = task p.
 *
 * A snapshot is the local file's bytes (task-snapshots.ts: header, entries, checksum) cut into
 * records of at most CHUNK_BYTES (under the broker's default 1 MB message.max.bytes), keyed
 * `chunk/<i>`, their value `<upload id>` + the bytes, followed by a `manifest` record naming
 * the upload id, where its chunks are, and the changelog offset covered. Keys repeat from one
 * upload to the next, so compaction keeps one snapshot's worth per task, and `retention.ms`
 * (the snapshot max age) removes what is too old to use anyway. A reader takes the last
 * manifest and exactly its chunks; an upload that died half way, two that interleaved, or chunks
 * compacted away are skipped (ids, keys or the checksum differ) and the restore goes on without
 * it. Publishing is outside the worker's transaction: a snapshot is a fact about the committed
 * changelog, true whoever publishes it.
 */
import { randomBytes } from "node:crypto";
import type { FetchedRecord, KafkaAdmin, KafkaClient, KafkaFetcher, KafkaProducer, OutRecord } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";

const CHUNK_BYTES = 900_000;
const ID_BYTES = 16;
/** How far back from the end a manifest is looked for (past the chunks of an upload that died before its manifest). */
const MANIFEST_SCAN = 8;

export interface PublishedManifest {
  readonly id: string;
  readonly chunks: number;
  /** The offset of chunk 0; chunk i is at first + i. */
  readonly first: number;
  readonly bytes: number;
  /** The changelog offset the snapshot covers (to skip a download that is not newer than the local file). */
  readonly offset: number;
}

export class SnapshotTopic {
  constructor(
    readonly topic: string,
    private readonly admin: KafkaAdmin,
    private readonly fetcher: KafkaFetcher,
    private readonly producer: KafkaProducer,
  ) {}

  /** The group's snapshot topic (created, or checked to have one partition per task) and a producer for it. */
  static async open(client: KafkaClient, admin: KafkaAdmin, fetcher: KafkaFetcher, topic: string, partitions: number, maxAgeMs: number) {
    await admin.createTopic(topic, partitions, {
      "cleanup.policy": "compact,delete",
      "retention.ms": String(maxAgeMs),
      // Compaction and retention only touch closed segments: roll them often enough to matter.
      "segment.ms": String(Math.min(3_600_000, Math.max(60_000, Math.floor(maxAgeMs / 4)))),
    });
    const n = (await admin.partitions([topic])).length;
    if (n !== partitions) {
      throw new Error(
        `group mode: internal topic ${topic} has ${n} partitions, but this pipeline has ${partitions} tasks. Keep the partition count a group started with, or start a new group.`,
      );
    }
    return new SnapshotTopic(topic, admin, fetcher, await client.producer());
  }

  close(): Promise<void> {
    return this.producer.close();
  }

  /**
   * Uploads a snapshot file: its chunks, then (their offsets read back) the manifest. Another
   * upload of the same task interleaving with this one makes the manifest point at records of
   * two uploads: a reader sees the ids differ and skips it.
   */
  async publish(partition: number, file: Buffer, offset: number): Promise<void> {
    const id = randomBytes(ID_BYTES / 2).toString("hex");
    const idBytes = Buffer.from(id, "ascii");
    const chunks = Math.max(1, Math.ceil(file.length / CHUNK_BYTES));
    const records: OutRecord[] = [];
    for (let i = 0; i < chunks; i++) {
      const part = file.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES);
      records.push({ topic: this.topic, partition, key: Buffer.from(`chunk/${i}`), value: Buffer.concat([idBytes, part]), headers: [] });
    }
    await this.producer.send(records);
    const tp = { topic: this.topic, partition };
    const end = (await this.admin.latestOffsets([tp])).get(tpKey(tp))!;
    const manifest: PublishedManifest = { id, chunks, first: end - chunks, bytes: file.length, offset };
    await this.producer.send([
      { topic: this.topic, partition, key: Buffer.from("manifest"), value: Buffer.from(JSON.stringify(manifest)), headers: [] },
    ]);
  }

  /** Task `partition`'s last complete upload: its manifest and a download of its bytes; null when there is none. */
  async latest(partition: number): Promise<{ manifest: PublishedManifest; download: () => Promise<Buffer | null> } | null> {
    const tp = { topic: this.topic, partition };
    const { earliest, latest } = (await this.admin.offsetRange([tp])).get(tpKey(tp))!;
    if (latest <= earliest) return null;
    // The manifest is normally the last record; after an upload that died half way, a little before.
    let manifest = lastManifest(await this.fetcher.fetch(tp, latest - 1, latest));
    manifest ??= lastManifest(await this.fetcher.fetch(tp, Math.max(earliest, latest - MANIFEST_SCAN), latest));
    if (!manifest || manifest.first < earliest) return null;
    const m = manifest;
    const download = async () => {
      const recs = await this.fetcher.fetch(tp, m.first, m.first + m.chunks);
      if (recs.length !== m.chunks) return null;
      const out: Buffer[] = [];
      for (const [i, r] of recs.entries()) {
        const ok =
          r.offset === m.first + i &&
          r.key !== null &&
          Buffer.from(r.key).toString() === `chunk/${i}` &&
          r.value !== null &&
          Buffer.from(r.value.subarray(0, ID_BYTES)).toString("ascii") === m.id;
        if (!ok) return null;
        out.push(Buffer.from(r.value!.buffer, r.value!.byteOffset + ID_BYTES, r.value!.byteLength - ID_BYTES));
      }
      const buf = Buffer.concat(out);
      return buf.length === m.bytes ? buf : null;
    };
    return { manifest: m, download };
  }
}

function lastManifest(recs: readonly FetchedRecord[]): PublishedManifest | null {
  for (let i = recs.length - 1; i >= 0; i--) {
    const r = recs[i]!;
    if (!r.key || !r.value || Buffer.from(r.key).toString() !== "manifest") continue;
    try {
      const m = JSON.parse(Buffer.from(r.value).toString()) as PublishedManifest;
      return typeof m.first === "number" && typeof m.chunks === "number" && typeof m.id === "string" ? m : null;
    } catch {
      return null;
    }
  }
  return null;
}
