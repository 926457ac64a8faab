/**
 * Group mode's options (writer options, arus's own; docs/scale-out.md has the table):
 *   arus.cluster.group               the consumer group every worker of the pipeline joins (turns group mode on)
 *   arus.cluster.instanceId          static membership (KIP-345): a restarted worker with the same id gets its partitions back
 *   arus.cluster.partitions          tasks = partitions of the repartition/changelog topics (default: the source topic's)
 *   arus.cluster.sessionTimeoutMs    the group's session timeout (default 10000)
 *   arus.cluster.transactionTimeoutMs  how long a dead worker's open transaction blocks readers (default 60000)
 *   arus.cluster.rebalanceProtocol  cooperative (default: workers keep processing what they keep) | eager
 *   arus.cluster.stateDir            where the worker keeps its tasks' local snapshots (a cache; default below the checkpoint or tmp)
 *   arus.cluster.snapshotInterval    changelog records of a task between two snapshots (default 10000; 0: no snapshots)
 *   arus.cluster.snapshotMaxAgeMs    an older snapshot is not used (default 12 h: below the changelog's delete.retention.ms)
 *   arus.cluster.publishSnapshots    also publish snapshots to the topic arus-<group>-snapshots, for other machines (default false)
 * and the internal topics' names, all prefixed `arus-<group>-`.
 */
import { IllegalArgumentException } from "../../common/errors.js";

export interface ClusterOptions {
  readonly group: string;
  readonly instanceId: string | null;
  readonly partitions: number | null;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly transactionTimeoutMs: number;
  readonly rebalanceProtocol: "cooperative" | "eager";
  /** The local snapshot cache's directory; null: below the checkpoint location, else the temp directory. */
  readonly stateDir: string | null;
  /** A task's changelog records between two snapshots (at least its key count); 0 turns snapshots off. */
  readonly snapshotInterval: number;
  readonly snapshotMaxAgeMs: number;
  /** The option was given (a conflict with the changelog's retention is then an error, not a clamp). */
  readonly snapshotMaxAgeExplicit: boolean;
  readonly publishSnapshots: boolean;
}

export interface InternalTopics {
  readonly repartition: string;
  readonly changelog: string;
  readonly progress: string;
  readonly snapshots: string;
}

const NAME = /^[A-Za-z0-9._-]{1,200}$/;

function positiveInt(options: Readonly<Record<string, string>>, key: string, fallback: number | null): number | null {
  const raw = options[key];
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v <= 0)
    throw new IllegalArgumentException(`Invalid value '${raw}' for option '${key}': must be a positive integer.`);
  return v;
}

function nonNegativeInt(options: Readonly<Record<string, string>>, key: string, fallback: number): number {
  const raw = options[key];
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (raw.trim() === "" || !Number.isSafeInteger(v) || v < 0)
    throw new IllegalArgumentException(`Invalid value '${raw}' for option '${key}': must be a non-negative integer.`);
  return v;
}

/** The cluster options of a writer's options, or null when group mode is off. */
export function clusterOptions(options: Readonly<Record<string, string>>): ClusterOptions | null {
  const group = options["arus.cluster.group"];
  if (group === undefined) return null;
  if (!NAME.test(group)) {
    throw new IllegalArgumentException(
      `Invalid value '${group}' for option 'arus.cluster.group': letters, digits, '.', '_' and '-' only (it names Kafka topics).`,
    );
  }
  const instanceId = options["arus.cluster.instanceId"] ?? null;
  if (instanceId !== null && !NAME.test(instanceId)) {
    throw new IllegalArgumentException(
      `Invalid value '${instanceId}' for option 'arus.cluster.instanceId': letters, digits, '.', '_' and '-' only.`,
    );
  }
  const session = positiveInt(options, "arus.cluster.sessionTimeoutMs", 10000)!;
  const protocol = (options["arus.cluster.rebalanceProtocol"] ?? "cooperative").toLowerCase();
  if (protocol !== "cooperative" && protocol !== "eager") {
    throw new IllegalArgumentException(
      `Invalid value '${options["arus.cluster.rebalanceProtocol"]}' for option 'arus.cluster.rebalanceProtocol': cooperative or eager.`,
    );
  }
  return {
    group,
    instanceId,
    partitions: positiveInt(options, "arus.cluster.partitions", null),
    sessionTimeoutMs: session,
    rebalanceTimeoutMs: positiveInt(options, "arus.cluster.rebalanceTimeoutMs", Math.max(30000, session))!,
    // Kafka's own producer option, as the sink reads it, unless the cluster option says otherwise.
    transactionTimeoutMs: positiveInt(
      options,
      "arus.cluster.transactionTimeoutMs",
      positiveInt(options, "kafka.transaction.timeout.ms", 60000),
    )!,
    rebalanceProtocol: protocol,
    stateDir: stateDir(options),
    snapshotInterval: nonNegativeInt(options, "arus.cluster.snapshotInterval", 10000),
    // Kafka's default delete.retention.ms is 24 h: a tombstone written after a younger
    // snapshot is still in the changelog when the snapshot is loaded.
    snapshotMaxAgeMs: positiveInt(options, "arus.cluster.snapshotMaxAgeMs", 12 * 3600 * 1000)!,
    snapshotMaxAgeExplicit: options["arus.cluster.snapshotMaxAgeMs"] !== undefined,
    publishSnapshots: bool(options, "arus.cluster.publishSnapshots"),
  };
}

function bool(options: Readonly<Record<string, string>>, key: string): boolean {
  const raw = options[key];
  if (raw === undefined) return false;
  const v = raw.trim().toLowerCase();
  if (v !== "true" && v !== "false")
    throw new IllegalArgumentException(`Invalid value '${raw}' for option '${key}': must be true or false.`);
  return v === "true";
}

function stateDir(options: Readonly<Record<string, string>>): string | null {
  const raw = options["arus.cluster.stateDir"];
  if (raw === undefined) return null;
  if (raw.trim() === "")
    throw new IllegalArgumentException("Invalid value '' for option 'arus.cluster.stateDir': must be a directory path.");
  return raw;
}

export function internalTopics(group: string): InternalTopics {
  return {
    repartition: `arus-${group}-repartition`,
    changelog: `arus-${group}-changelog`,
    progress: `arus-${group}-progress`,
    snapshots: `arus-${group}-snapshots`,
  };
}
