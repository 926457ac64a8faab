/**
 * How old a task snapshot may be and still be loaded, checked against the changelog topic.
 *
 * A snapshot covers the changelog below an offset; a restore loads it and replays the records
 * after it. A key deleted after the snapshot is a tombstone in that tail, and compaction drops a
 * tombstone `delete.retention.ms` after cleaning its segment: a snapshot older than that could
 * miss the delete and bring the key back. So the age limit must stay below the changelog's
 * `delete.retention.ms` (Kafka's default 24 h; an operator or a broker default may set less).
 */
import { IllegalArgumentException } from "../../common/errors.js";
import { logInfo } from "../../common/log.js";
import type { KafkaAdmin } from "../../connectors/kafka/client.js";

export interface SnapshotAgeOptions {
  readonly snapshotMaxAgeMs: number;
  readonly snapshotMaxAgeExplicit: boolean;
}

/**
 * The age limit in force for snapshots of `changelog`: the option when it is below the topic's
 * delete.retention.ms; half that retention when the default is not (logged); an error naming
 * both when the option was given and is not below it.
 */
export async function snapshotMaxAgeInForce(admin: KafkaAdmin, changelog: string, opts: SnapshotAgeOptions): Promise<number> {
  const raw = (await admin.topicConfigs(changelog, ["delete.retention.ms"]))["delete.retention.ms"];
  const retention = raw === undefined ? Number.NaN : Number(raw);
  return snapshotMaxAge(retention, changelog, opts);
}

/** The rule of snapshotMaxAgeInForce for a known retention (NaN: unknown, the option stands). */
export function snapshotMaxAge(retentionMs: number, changelog: string, opts: SnapshotAgeOptions): number {
  if (!Number.isFinite(retentionMs) || opts.snapshotMaxAgeMs < retentionMs) return opts.snapshotMaxAgeMs;
  if (opts.snapshotMaxAgeExplicit) {
    throw new IllegalArgumentException(
      `Invalid value '${opts.snapshotMaxAgeMs}' for option 'arus.cluster.snapshotMaxAgeMs': it must be below the changelog topic ${changelog}'s delete.retention.ms (${retentionMs}), or a snapshot could miss a delete that compaction has dropped. Lower the option or raise the topic's delete.retention.ms.`,
    );
  }
  const inForce = Math.max(1, Math.floor(retentionMs / 2));
  logInfo(
    "GroupExecution",
    `task snapshots older than ${inForce} ms are not used: half of ${changelog}'s delete.retention.ms (${retentionMs}), below the default arus.cluster.snapshotMaxAgeMs (${opts.snapshotMaxAgeMs})`,
  );
  return inForce;
}
