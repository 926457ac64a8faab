/**
 * Kafka source and sink options, validated as Spark's KafkaSourceProvider does (same option
 * names, defaults and refusals). Option names are case-insensitive.
 */
import { IllegalArgumentException } from "../../common/errors.js";
import type { Subscription } from "./assignment.js";
import type { ClientConfig } from "./client.js";
import { type PartitionOffsets, parsePartitionOffsets, parseTopicPartitions } from "./offsets.js";

export type Lowered = ReadonlyMap<string, string>;

export function lowered(options: Readonly<Record<string, string>>): Lowered {
  return new Map(Object.entries(options).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Where a query (or batch read) starts or ends. */
export type OffsetSpec =
  | { kind: "earliest" }
  | { kind: "latest" }
  | { kind: "specific"; offsets: PartitionOffsets }
  | { kind: "timestamp"; perPartition: Map<string, Map<number, number>> | null; global: number | null };

export interface SourceOptions {
  readonly subscription: Subscription;
  readonly client: ClientConfig;
  readonly starting: OffsetSpec;
  readonly ending: OffsetSpec;
  readonly timestampStrategyLatest: boolean;
  readonly maxOffsetsPerTrigger: number | null;
  readonly minOffsetsPerTrigger: number | null;
  readonly maxTriggerDelayMs: number;
  readonly failOnDataLoss: boolean;
  readonly includeHeaders: boolean;
  /** Spark's fetchOffset.numRetries / fetchOffset.retryIntervalMs: offset look-ups retried on a broker error. */
  readonly fetchRetries: number;
  readonly fetchRetryIntervalMs: number;
  /**
   * arus (`arus.latestOffsetsFromFetch`, default true): a streaming trigger takes the latest
   * offsets from its own Fetch answers where they are fresh (latest-from-fetch.ts) instead of a
   * ListOffsets request every trigger.
   */
  readonly latestOffsetsFromFetch: boolean;
}

/** Spark's refusals (KafkaSourceProvider.validateGeneralOptions), word for word. */
const UNSUPPORTED: Record<string, string> = {
  "kafka.auto.offset.reset":
    "\nKafka option 'auto.offset.reset' is not supported.\nInstead set the source option 'startingoffsets' to 'earliest' or 'latest'\nto specify where to start. Structured Streaming manages which offsets are consumed\ninternally, rather than relying on the kafkaConsumer to do it. This will ensure that no\ndata is missed when new topics/partitions are dynamically subscribed. Note that\n'startingoffsets' only applies when a new Streaming query is started, and\nthat resuming will always pick up from where the query left off. See the docs for more\ndetails.\n",
  "kafka.key.deserializer":
    "Kafka option 'key.deserializer' is not supported as keys are deserialized as byte arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly deserialize the keys.",
  "kafka.value.deserializer":
    "Kafka option 'value.deserializer' is not supported as values are deserialized as byte arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly deserialize the values.",
  "kafka.enable.auto.commit": "Kafka option 'enable.auto.commit' is not supported",
  "kafka.interceptor.classes": "Kafka option 'interceptor.classes' is not supported",
};

export function bool(o: Lowered, key: string, fallback: boolean): boolean {
  const raw = o.get(key.toLowerCase());
  if (raw === undefined) return fallback;
  const v = raw.trim().toLowerCase();
  if (v === "true") return true;
  if (v === "false") return false;
  throw new IllegalArgumentException(`Invalid value '${raw}' for Kafka option '${key}': must be 'true' or 'false'.`);
}

export function positiveLong(o: Lowered, key: string): number | null {
  const raw = o.get(key.toLowerCase());
  if (raw === undefined) return null;
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v <= 0) {
    throw new IllegalArgumentException(`Invalid value '${raw}' for Kafka option '${key}': must be a positive integer.`);
  }
  return v;
}

function nonNegativeInt(o: Lowered, key: string, fallback: number): number {
  const raw = o.get(key.toLowerCase());
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < 0) {
    throw new IllegalArgumentException(`Invalid value '${raw}' for Kafka option '${key}': must be a non-negative integer.`);
  }
  return v;
}

function durationMs(raw: string, key: string): number {
  const m = /^\s*(\d+)\s*(ms|s|m|min|h|d)?\s*$/i.exec(raw);
  if (!m) throw new IllegalArgumentException(`Invalid value '${raw}' for Kafka option '${key}': expected a duration such as '15m'.`);
  const unit = (m[2] ?? "ms").toLowerCase();
  const mult = unit === "ms" ? 1 : unit === "s" ? 1000 : unit === "m" || unit === "min" ? 60_000 : unit === "h" ? 3_600_000 : 86_400_000;
  return Number(m[1]) * mult;
}

/** Client settings from `kafka.*` options (bootstrap servers required). */
export function clientConfig(o: Lowered, clientId: string, role = "consumer"): ClientConfig {
  const servers = o.get("kafka.bootstrap.servers");
  if (!servers?.trim()) {
    throw new IllegalArgumentException(`Option 'kafka.bootstrap.servers' must be specified for configuring Kafka ${role}`);
  }
  const protocol = o.get("kafka.security.protocol");
  if (protocol && protocol.toUpperCase() !== "PLAINTEXT") {
    throw new IllegalArgumentException(`Kafka option 'security.protocol' = '${protocol}' is not supported by arus yet (PLAINTEXT only).`);
  }
  const isolation = (o.get("kafka.isolation.level") ?? "read_uncommitted").toLowerCase();
  if (isolation !== "read_committed" && isolation !== "read_uncommitted") {
    throw new IllegalArgumentException(
      `Invalid value '${isolation}' for Kafka option 'isolation.level': read_committed or read_uncommitted.`,
    );
  }
  const timeout = Number(o.get("kafka.request.timeout.ms") ?? o.get("kafkaconsumer.polltimeoutms") ?? 30000);
  return {
    bootstrapServers: servers,
    clientId: o.get("kafka.client.id") ?? clientId,
    connectTimeoutMs: Math.min(Number.isFinite(timeout) ? timeout : 30000, 10000),
    requestTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 30000,
    readCommitted: isolation === "read_committed",
  };
}

function subscription(o: Lowered): Subscription {
  const given = ["subscribe", "subscribepattern", "assign"].filter((k) => o.has(k));
  if (given.length === 0) {
    throw new IllegalArgumentException(
      "One of the following options must be specified for Kafka source: subscribe, subscribePattern, assign. See the docs for more details.",
    );
  }
  if (given.length > 1) {
    throw new IllegalArgumentException(
      "Only one of the following options can be specified for Kafka source: subscribe, subscribePattern, assign. See the docs for more details.",
    );
  }
  const k = given[0]!;
  const raw = o.get(k)!;
  if (k === "subscribe") {
    const topics = raw
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t.length);
    if (!topics.length)
      throw new IllegalArgumentException(`No topics to subscribe to as specified value for option 'subscribe' is '${raw}'`);
    return { kind: "subscribe", topics };
  }
  if (k === "subscribepattern") {
    if (!raw.trim())
      throw new IllegalArgumentException(`Pattern to subscribe is empty as specified value for option 'subscribePattern' is '${raw}'`);
    let re: RegExp;
    try {
      re = new RegExp(`^(?:${raw.trim()})$`);
    } catch (e) {
      throw new IllegalArgumentException(`Invalid value '${raw}' for option 'subscribePattern': ${(e as Error).message}`);
    }
    return { kind: "pattern", pattern: re, text: raw.trim() };
  }
  if (!raw.trim().startsWith("{")) {
    throw new IllegalArgumentException(`No topicpartitions to assign as specified value for option 'assign' is '${raw}'`);
  }
  const tps = parseTopicPartitions(raw);
  if (!tps.length) throw new IllegalArgumentException(`No topicpartitions to assign as specified value for option 'assign' is '${raw}'`);
  return { kind: "assign", partitions: tps };
}

function offsetSpec(o: Lowered, prefix: "starting" | "ending", fallback: "earliest" | "latest"): OffsetSpec {
  const global = o.get(`${prefix}timestamp`);
  if (global !== undefined) {
    const ts = /^[+-]?\d+$/.test(global.trim()) ? Number(global.trim()) : Number.NaN;
    if (!Number.isSafeInteger(ts)) throw new IllegalArgumentException(`Expected a single long value, got ${global.trim()}`);
    return { kind: "timestamp", perPartition: null, global: ts };
  }
  const byTs = o.get(`${prefix}offsetsbytimestamp`);
  if (byTs !== undefined) {
    const offs = parsePartitionOffsets(byTs);
    const per = new Map<string, Map<number, number>>();
    for (const [t, parts] of offs) per.set(t, parts);
    return { kind: "timestamp", perPartition: per, global: null };
  }
  const raw = o.get(`${prefix}offsets`)?.trim();
  if (raw === undefined) return { kind: fallback };
  if (raw.toLowerCase() === "earliest") return { kind: "earliest" };
  if (raw.toLowerCase() === "latest") return { kind: "latest" };
  return { kind: "specific", offsets: parsePartitionOffsets(raw) };
}

export function sourceOptions(options: Readonly<Record<string, string>>, streaming: boolean): SourceOptions {
  const o = lowered(options);
  for (const k of o.keys()) if (UNSUPPORTED[k]) throw new IllegalArgumentException(UNSUPPORTED[k]!);
  const sub = subscription(o);
  const starting = offsetSpec(o, "starting", streaming ? "latest" : "earliest");
  const ending = offsetSpec(o, "ending", "latest");
  if (streaming) {
    if (o.has("endingoffsets")) throw new IllegalArgumentException("ending offset not valid in streaming queries");
    // Spark checks endingOffsetsByTimestamp only; arus refuses endingTimestamp too rather than ignore it.
    if (o.has("endingoffsetsbytimestamp") || o.has("endingtimestamp")) {
      throw new IllegalArgumentException("ending timestamp not valid in streaming queries");
    }
  } else {
    if (starting.kind === "latest") throw new IllegalArgumentException("starting offset can't be latest for batch queries on Kafka");
    if (ending.kind === "earliest") throw new IllegalArgumentException("ending offset can't be earliest for batch queries on Kafka");
    if (starting.kind === "specific") {
      for (const [t, parts] of starting.offsets)
        for (const [p, off] of parts)
          if (off === -1) throw new IllegalArgumentException(`startingOffsets for ${t}-${p} can't be latest for batch queries on Kafka`);
    }
    if (ending.kind === "specific") {
      for (const [t, parts] of ending.offsets)
        for (const [p, off] of parts)
          if (off === -2) throw new IllegalArgumentException(`ending offset for ${t}-${p} can't be earliest for batch queries on Kafka`);
    }
  }
  const strategy = (o.get("startingoffsetsbytimestampstrategy") ?? "error").toLowerCase();
  if (strategy !== "error" && strategy !== "latest") {
    throw new IllegalArgumentException(`Invalid value '${strategy}' for option 'startingOffsetsByTimestampStrategy': 'error' or 'latest'.`);
  }
  for (const [k, name] of [
    ["minpartitions", "minPartitions"],
    ["maxrecordsperpartition", "maxrecordsperpartition"],
  ] as const) {
    const raw = o.get(k);
    if (raw !== undefined && !(Number(raw) > 0)) throw new IllegalArgumentException(`${name} must be positive`);
  }
  const maxOffsets = positiveLong(o, "maxOffsetsPerTrigger");
  const minOffsets = positiveLong(o, "minOffsetsPerTrigger");
  if (maxOffsets !== null && minOffsets !== null && minOffsets > maxOffsets) {
    throw new IllegalArgumentException(
      `The value of minOffsetPerTrigger(${minOffsets}) is higher than the maxOffsetsPerTrigger(${maxOffsets}).`,
    );
  }
  return {
    subscription: sub,
    client: clientConfig(o, "arus-kafka-source"),
    starting,
    ending,
    timestampStrategyLatest: strategy === "latest",
    maxOffsetsPerTrigger: maxOffsets,
    minOffsetsPerTrigger: minOffsets,
    maxTriggerDelayMs: durationMs(o.get("maxtriggerdelay") ?? "15m", "maxTriggerDelay"),
    failOnDataLoss: bool(o, "failOnDataLoss", true),
    includeHeaders: bool(o, "includeHeaders", false),
    fetchRetries: nonNegativeInt(o, "fetchOffset.numRetries", 3),
    fetchRetryIntervalMs: nonNegativeInt(o, "fetchOffset.retryIntervalMs", 1000),
    latestOffsetsFromFetch: bool(o, "arus.latestOffsetsFromFetch", true),
  };
}
