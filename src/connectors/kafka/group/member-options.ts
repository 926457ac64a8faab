/**
 * What a Kafka group member is configured with: where the brokers are, the group and topics,
 * the timeouts Kafka's consumer config names, and the rebalance protocol; checked once, so the
 * member (member.ts) works with settings that are known to be valid.
 */
import type { ClientConfig } from "../client.js";
import { cooperativeStickyRangeAssignor, type GroupAssignor, stickyRangeAssignor } from "./assignor.js";

/** Where the brokers are: bootstrap servers ("host:port,…") or arus's whole Kafka client config. */
export type KafkaConnection =
  | { readonly bootstrapServers: string; readonly client?: undefined }
  | { readonly client: ClientConfig; readonly bootstrapServers?: undefined };

export type KafkaGroupMemberOptions = KafkaConnection & {
  readonly groupId: string;
  readonly topics: readonly string[];
  /** Static membership (KIP-345): a restarted member with this id gets its partitions back without a rebalance. */
  readonly groupInstanceId?: string;
  /** Kafka's session.timeout.ms (default 10000; the broker accepts 6000–300000 by default). */
  readonly sessionTimeoutMs?: number;
  /** Kafka's max.poll.interval.ms as sent in JoinGroup: how long the group waits for members to rejoin (default 30000). */
  readonly rebalanceTimeoutMs?: number;
  /** Kafka's heartbeat.interval.ms (default 1000). */
  readonly heartbeatIntervalMs?: number;
  /**
   * `cooperative` (default): offer the cooperative sticky assignor first, the eager one second
   * (a group where any member offers only the eager one runs eager). `eager`: the eager one only.
   */
  readonly rebalanceProtocol?: RebalanceProtocol;
  /** An assignor of one's own (eager: it must assign every partition); replaces both. */
  readonly assignor?: GroupAssignor;
};

export type RebalanceProtocol = "cooperative" | "eager";

/** The options checked, with their defaults filled in. */
export interface MemberSettings {
  readonly groupId: string;
  /** Sorted, without duplicates. */
  readonly topics: readonly string[];
  readonly groupInstanceId: string | null;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  /** The assignors offered in JoinGroup, preferred first. */
  readonly assignors: readonly GroupAssignor[];
  readonly client: ClientConfig;
}

export function clientConfig(c: KafkaConnection, clientId: string): ClientConfig {
  if (c.client) return c.client;
  if (typeof c.bootstrapServers !== "string" || !c.bootstrapServers.trim())
    throw new Error("Kafka group mode: bootstrapServers (or client) is required");
  return { bootstrapServers: c.bootstrapServers, clientId, connectTimeoutMs: 10_000, requestTimeoutMs: 30_000, readCommitted: true };
}

function positiveInt(name: string, v: number | undefined, dflt: number): number {
  const x = v ?? dflt;
  if (!Number.isInteger(x) || x <= 0) throw new Error(`Kafka group member: ${name} must be a positive integer (got ${v})`);
  return x;
}

/** Checks the options (throwing an error that names the group) and fills in the defaults. */
export function memberSettings(opts: KafkaGroupMemberOptions): MemberSettings {
  if (typeof opts.groupId !== "string" || !opts.groupId) throw new Error("Kafka group member: groupId is required");
  if (!Array.isArray(opts.topics) || !opts.topics.length || opts.topics.some((t) => typeof t !== "string" || !t)) {
    throw new Error(`Kafka group member of group ${opts.groupId}: topics must be a non-empty list of topic names`);
  }
  const groupInstanceId = opts.groupInstanceId ?? null;
  if (groupInstanceId === "") throw new Error(`Kafka group member of group ${opts.groupId}: groupInstanceId must not be empty`);
  const sessionTimeoutMs = positiveInt("sessionTimeoutMs", opts.sessionTimeoutMs, 10_000);
  const rebalanceTimeoutMs = positiveInt("rebalanceTimeoutMs", opts.rebalanceTimeoutMs, 30_000);
  const heartbeatIntervalMs = positiveInt("heartbeatIntervalMs", opts.heartbeatIntervalMs, 1_000);
  if (heartbeatIntervalMs >= sessionTimeoutMs) {
    throw new Error(
      `Kafka group member of group ${opts.groupId}: heartbeatIntervalMs (${heartbeatIntervalMs}) must be below sessionTimeoutMs (${sessionTimeoutMs})`,
    );
  }
  const protocol = opts.rebalanceProtocol ?? "cooperative";
  if (protocol !== "cooperative" && protocol !== "eager") {
    throw new Error(
      `Kafka group member of group ${opts.groupId}: rebalanceProtocol must be "cooperative" or "eager" (got ${String(protocol)})`,
    );
  }
  const assignors = opts.assignor
    ? [opts.assignor]
    : protocol === "cooperative"
      ? [cooperativeStickyRangeAssignor, stickyRangeAssignor]
      : [stickyRangeAssignor];
  return {
    groupId: opts.groupId,
    topics: [...new Set(opts.topics)].sort(),
    groupInstanceId,
    sessionTimeoutMs,
    rebalanceTimeoutMs,
    heartbeatIntervalMs,
    assignors,
    client: clientConfig(opts, `arus-group-${opts.groupId}`),
  };
}
