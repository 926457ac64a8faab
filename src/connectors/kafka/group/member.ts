/**
 * A member of a Kafka consumer group (the classic group protocol, protocol type "consumer"),
 * spoken over kafkajs's broker connections: FindCoordinator, JoinGroup v5 (group.instance.id,
 * KIP-345), SyncGroup v3, Heartbeat v3, LeaveGroup v3, and OffsetFetch v7 with require_stable
 * (KIP-447). The leader member computes the assignment with the group's assignor.
 *
 * It only takes part in the group: it fetches no records (arus's own fetcher does, for the
 * partitions assigned here). When the coordinator starts a rebalance, `needsRejoin` turns true
 * and the worker calls `join()` again. Rebalances are cooperative by default (KIP-429): the
 * member offers the cooperative assignor first and the eager one second, so a group with an
 * eager-only member falls back to eager; under the cooperative protocol the worker keeps
 * processing what it owns while `join()` runs, and a member that lost partitions in a round
 * rejoins at once (`needsRejoin`, reason REVOKED) so the next round hands them on.
 */
import { type ClientConfig, type TopicPartition, tpKey } from "../client.js";
import { kafkajsCluster } from "../client-kafkajs.js";
import {
  cooperativeStickyRangeAssignor,
  type GroupAssignor,
  GroupSubscriptionMismatch,
  type MemberSubscription,
  stickyRangeAssignor,
} from "./assignor.js";
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription } from "./consumer-protocol.js";
import { COORDINATOR_MOVED, classify, errorName, KafkaErrorCode, kafkaCode } from "./errors.js";
import { type Any, kafkajsRequest, sendToBroker } from "./kafkajs-protocol.js";
import { fetchStableOffsets } from "./offset-fetch.js";
import type { GroupMetadata } from "./txn-offset-commit.js";

export type { GroupMetadata } from "./txn-offset-commit.js";

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

export interface GroupAssignment {
  readonly generationId: number;
  readonly memberId: string;
  readonly partitions: readonly TopicPartition[];
  /** The assignor the group chose for this generation. */
  readonly protocol: string;
  /** Chosen protocol is the cooperative one: processing may go on while the next join() runs. */
  readonly cooperative: boolean;
  /** Partitions owned before this join and not after (cooperative: the member rejoins at once). */
  readonly revoked: readonly TopicPartition[];
  /**
   * Cooperative: this round left partitions to nobody, so a second round follows when their
   * holders rejoin; until then the member heartbeats every 100 ms to join it at once.
   */
  readonly followUp: boolean;
}

/** The assignment's user data when the leader could not assign: every member raises the leader's reason. */
const ERROR_MARK = "arus-assignment-error:";
/** The heartbeat interval while a follow-up round is due. */
const FOLLOW_UP_HEARTBEAT_MS = 100;
/** How long committedOffsets waits for a pending transactional offset commit to end. */
const STABLE_OFFSETS_WAIT_MS = 60_000;
const PROTOCOL_TYPE = "consumer";
/**
 * The assignment's user data when the leader assigned: `ASSIGNMENT_MARK` + JSON
 * `{counts, followUp}`. `counts`: the partition count of each topic it assigned over (a member
 * that sees other counts knows the assignment is stale). `followUp`: a cooperative round left
 * partitions to nobody, so a second round follows as soon as their holder rejoins, and every
 * member should see it at once, not at its next regular heartbeat. Other clients ignore user
 * data they do not know.
 */
const ASSIGNMENT_MARK = "arus-assignment:";

interface AssignmentNote {
  readonly counts: Record<string, number> | null;
  readonly followUp: boolean;
}

function writeAssignmentNote(n: AssignmentNote): Buffer {
  return Buffer.from(`${ASSIGNMENT_MARK}${JSON.stringify(n)}`, "utf8");
}

/** What the leader said besides the partitions (nothing said: no counts, no follow-up round). */
function readAssignmentNote(note: string): AssignmentNote {
  if (!note.startsWith(ASSIGNMENT_MARK)) return { counts: null, followUp: false };
  try {
    const o = JSON.parse(note.slice(ASSIGNMENT_MARK.length)) as Partial<AssignmentNote>;
    const counts = o.counts && typeof o.counts === "object" ? o.counts : null;
    return { counts, followUp: o.followUp === true };
  } catch {
    return { counts: null, followUp: false };
  }
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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class KafkaGroupMember {
  readonly groupId: string;
  readonly topics: readonly string[];
  readonly groupInstanceId: string | null;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  private readonly assignors: readonly GroupAssignor[];
  private readonly cfg: ClientConfig;

  private conn: Promise<{ cluster: Any; close: () => Promise<void> }> | null = null;
  private coord: Any | null = null;
  /** The member id to join with ("" after the coordinator forgot this member). */
  private joinMemberId = "";
  private current: GroupMetadata | null = null;
  private owned: readonly TopicPartition[] = [];
  private rejoin = false;
  /** JoinGroup answered, SyncGroup not yet: a transaction committing now would be refused. */
  private inSync = false;
  /** A fault no rejoin can mend (another process took this group.instance.id): join() raises it. */
  private fatal: Error | null = null;
  private readonly listeners = new Set<(reason: string) => void>();

  private hbActive = false;
  private hbTimer: NodeJS.Timeout | null = null;
  private hbInFlight: Promise<void> | null = null;
  private lastHeartbeatOk = 0;
  /** Until then heartbeats go every FOLLOW_UP_HEARTBEAT_MS: a follow-up round is due. */
  private fastHeartbeatsUntil = 0;
  private closed = false;
  /**
   * Bumped by leave() and close(): a join() in flight from before gives up (under the cooperative
   * protocol a join runs beside the worker, which may leave meanwhile).
   */
  private joinEpoch = 0;
  private joining = false;
  /** The subscription's user data: a change in it makes the coordinator rebalance even when this member is not the leader. */
  private userData: Buffer | null = null;
  /** The partition counts the last assignment was made for (null: not said). */
  private assignedCounts: Record<string, number> | null = null;

  constructor(opts: KafkaGroupMemberOptions) {
    if (typeof opts.groupId !== "string" || !opts.groupId) throw new Error("Kafka group member: groupId is required");
    if (!Array.isArray(opts.topics) || !opts.topics.length || opts.topics.some((t) => typeof t !== "string" || !t)) {
      throw new Error(`Kafka group member of group ${opts.groupId}: topics must be a non-empty list of topic names`);
    }
    this.groupId = opts.groupId;
    this.topics = [...new Set(opts.topics)].sort();
    this.groupInstanceId = opts.groupInstanceId ?? null;
    if (this.groupInstanceId === "") throw new Error(`Kafka group member of group ${opts.groupId}: groupInstanceId must not be empty`);
    this.sessionTimeoutMs = positiveInt("sessionTimeoutMs", opts.sessionTimeoutMs, 10_000);
    this.rebalanceTimeoutMs = positiveInt("rebalanceTimeoutMs", opts.rebalanceTimeoutMs, 30_000);
    this.heartbeatIntervalMs = positiveInt("heartbeatIntervalMs", opts.heartbeatIntervalMs, 1_000);
    if (this.heartbeatIntervalMs >= this.sessionTimeoutMs) {
      throw new Error(
        `Kafka group member of group ${opts.groupId}: heartbeatIntervalMs (${this.heartbeatIntervalMs}) must be below sessionTimeoutMs (${this.sessionTimeoutMs})`,
      );
    }
    const protocol = opts.rebalanceProtocol ?? "cooperative";
    if (protocol !== "cooperative" && protocol !== "eager") {
      throw new Error(
        `Kafka group member of group ${opts.groupId}: rebalanceProtocol must be "cooperative" or "eager" (got ${String(protocol)})`,
      );
    }
    this.assignors = opts.assignor
      ? [opts.assignor]
      : protocol === "cooperative"
        ? [cooperativeStickyRangeAssignor, stickyRangeAssignor]
        : [stickyRangeAssignor];
    this.cfg = clientConfig(opts, `arus-group-${opts.groupId}`);
  }

  private where(): string {
    return `Kafka group ${this.groupId}${this.groupInstanceId ? ` (instance ${this.groupInstanceId})` : ""} at ${this.cfg.bootstrapServers}`;
  }

  /** True once the coordinator started a rebalance or dropped this member: call join() again. */
  get needsRejoin(): boolean {
    return this.rejoin;
  }

  /** True between this member's JoinGroup answer and its SyncGroup answer (milliseconds, normally). */
  get syncing(): boolean {
    return this.inSync;
  }

  /** `cb(reason)` when needsRejoin turns true; returns a function that removes it. */
  onRebalanceNeeded(cb: (reason: string) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  /** The group metadata of the generation last joined (what TxnOffsetCommit sends, so a stale member is fenced). */
  metadata(): GroupMetadata {
    if (!this.current) throw new Error(`${this.where()}: not joined yet (call join() first)`);
    return this.current;
  }

  /** The partitions of the generation last joined. */
  get assignment(): readonly TopicPartition[] {
    return this.owned;
  }

  private markRejoin(reason: string): void {
    if (this.rejoin) return;
    this.rejoin = true;
    this.fastHeartbeatsUntil = 0;
    for (const cb of this.listeners) {
      try {
        cb(reason);
      } catch {
        // a listener's fault is not the group's
      }
    }
  }

  private async cluster(): Promise<Any> {
    if (this.closed) throw new Error(`${this.where()}: the member is closed`);
    if (!this.conn) {
      this.conn = kafkajsCluster(this.cfg);
      this.conn.catch(() => {
        this.conn = null;
      });
    }
    return (await this.conn).cluster;
  }

  private async coordinator(): Promise<Any> {
    if (this.coord) return this.coord;
    const cluster = await this.cluster();
    this.coord = await cluster.findGroupCoordinator({ groupId: this.groupId, coordinatorType: 0 });
    return this.coord;
  }

  /**
   * Joins (or rejoins) the group and returns this member's partitions for the new generation.
   * Retries, within about the rebalance timeout, on a coordinator moving or loading, a
   * rebalance starting meanwhile and the coordinator asking for a member id.
   */
  async join(userData?: Buffer | null): Promise<GroupAssignment> {
    if (this.fatal) throw this.fatal;
    if (userData !== undefined) this.userData = userData;
    await this.stopHeartbeats();
    try {
      await this.cluster();
    } catch (e) {
      throw new Error(`${this.where()}: cannot connect to the brokers: ${(e as Error)?.message ?? e}`, { cause: e });
    }
    const deadline = Date.now() + this.rebalanceTimeoutMs + this.sessionTimeoutMs + 10_000;
    const epoch = this.joinEpoch;
    this.joining = true;
    try {
      return await this.joinLoop(epoch, deadline);
    } finally {
      if (epoch === this.joinEpoch) this.joining = false;
    }
  }

  private async joinLoop(epoch: number, deadline: number): Promise<GroupAssignment> {
    const ownedBefore = this.owned;
    let last: unknown = null;
    let restarted = false;
    for (let attempt = 0; ; attempt++) {
      this.checkNotLeft(epoch);
      if (Date.now() > deadline || attempt > 100) {
        throw new Error(`${this.where()}: could not join after ${attempt} attempts: ${(last as Error)?.message ?? last}`, { cause: last });
      }
      try {
        const joined = await this.joinOnce(epoch);
        // Only a join that started owning nothing (a restart): under the cooperative protocol a
        // member that owns partitions keeps processing them while it rejoins, and must not leave.
        if (!restarted && !ownedBefore.length && (await this.staleAssignment())) {
          // A static member's restart gets its old assignment back without a rebalance, even
          // when partitions were added since: leave and join again, which rebalances the group.
          restarted = true;
          await this.leaveNow();
          continue;
        }
        if (epoch !== this.joinEpoch) {
          await this.stopHeartbeats();
          this.checkNotLeft(epoch);
        }
        return joined;
      } catch (e) {
        last = e;
        this.checkNotLeft(epoch, e);
        const code = kafkaCode(e);
        if (code === KafkaErrorCode.MEMBER_ID_REQUIRED) {
          this.joinMemberId = (e as { memberId?: string }).memberId ?? "";
          continue;
        }
        if (code === KafkaErrorCode.UNKNOWN_MEMBER_ID) {
          this.joinMemberId = "";
          continue;
        }
        if (code === KafkaErrorCode.REBALANCE_IN_PROGRESS || code === KafkaErrorCode.ILLEGAL_GENERATION) continue;
        if (code === KafkaErrorCode.FENCED_INSTANCE_ID) {
          this.fatal = new Error(
            `${this.where()}: another process joined with group instance id ${this.groupInstanceId} (FENCED_INSTANCE_ID)`,
          );
          throw this.fatal;
        }
        if (code === KafkaErrorCode.INCONSISTENT_GROUP_PROTOCOL) {
          throw new Error(
            `${this.where()}: the group's other members use another protocol than "${PROTOCOL_TYPE}"/${this.assignors.map((a) => `"${a.name}"`).join(" or ")} (INCONSISTENT_GROUP_PROTOCOL): is another application using this group name?`,
          );
        }
        if (e instanceof GroupSubscriptionMismatch || (e instanceof Error && e.message.startsWith(this.where()))) throw e;
        if ((code !== null && COORDINATOR_MOVED.has(code)) || classify(e, "") !== e) {
          this.coord = null;
          await sleep(Math.min(1000, 100 * (attempt + 1)));
          continue;
        }
        throw new Error(`${this.where()}: join failed: ${(e as Error)?.message ?? e}`, { cause: e });
      }
    }
  }

  /**
   * A join that outlived a leave() or close() must not join the group again (it would hold
   * partitions nobody processes): it gives up.
   */
  private checkNotLeft(epoch: number, cause?: unknown): void {
    if (epoch !== this.joinEpoch) throw new Error(`${this.where()}: left the group while joining (the join was abandoned)`, { cause });
  }

  private async joinOnce(epoch: number): Promise<GroupAssignment> {
    const coordinator = await this.coordinator();
    const subscription = encodeSubscription({
      topics: this.topics,
      userData: this.userData,
      ownedPartitions: this.owned,
      generationId: this.current?.generationId ?? -1,
    });
    const joined = await sendToBroker<Any>(
      coordinator,
      kafkajsRequest(coordinator, "JoinGroup", 5, {
        groupId: this.groupId,
        sessionTimeout: this.sessionTimeoutMs,
        rebalanceTimeout: this.rebalanceTimeoutMs,
        memberId: this.joinMemberId,
        groupInstanceId: this.groupInstanceId,
        protocolType: PROTOCOL_TYPE,
        groupProtocols: this.assignors.map((a) => ({ name: a.name, metadata: subscription })),
      }),
    );
    this.checkNotLeft(epoch);
    const memberId = joined.memberId as string;
    const generationId = joined.generationId as number;
    this.joinMemberId = memberId;
    const protocol = (joined.groupProtocol as string | null) ?? this.assignors[0]!.name;
    const assignor = this.assignors.find((a) => a.name === protocol) ?? this.assignors[0]!;
    const members = joined.members as { memberId: string; groupInstanceId: string | null; memberMetadata: Buffer }[];
    let synced: Any;
    this.inSync = true;
    try {
      const groupAssignment = joined.leaderId === memberId && members.length ? await this.leaderAssign(assignor, members) : [];
      synced = await sendToBroker<Any>(
        coordinator,
        kafkajsRequest(coordinator, "SyncGroup", 3, {
          groupId: this.groupId,
          generationId,
          memberId,
          groupInstanceId: this.groupInstanceId,
          groupAssignment,
        }),
      );
    } finally {
      this.inSync = false;
    }
    this.checkNotLeft(epoch);
    const assignment = decodeAssignment(synced.memberAssignment as Buffer);
    const note = assignment.userData?.toString("utf8") ?? "";
    if (note.startsWith(ERROR_MARK)) throw new GroupSubscriptionMismatch(`${this.where()}: ${note.slice(ERROR_MARK.length)}`);
    const made = readAssignmentNote(note);
    this.assignedCounts = made.counts;
    const now = new Set(assignment.partitions.map(tpKey));
    const revoked = this.owned.filter((tp) => !now.has(tpKey(tp)));
    const cooperative = protocol === cooperativeStickyRangeAssignor.name;
    this.current = { groupId: this.groupId, generationId, memberId, groupInstanceId: this.groupInstanceId };
    this.owned = assignment.partitions;
    this.rejoin = false;
    const followUp = made.followUp;
    this.fastHeartbeatsUntil = followUp ? Date.now() + this.rebalanceTimeoutMs : 0;
    this.startHeartbeats();
    // KIP-429: what this member gave up is assigned to nobody until it rejoins without it.
    if (cooperative && revoked.length) this.markRejoin("REVOKED");
    return { generationId, memberId, partitions: assignment.partitions, protocol, cooperative, revoked, followUp };
  }

  /** True when the assignment was made over other partition counts than the topics have now. */
  private async staleAssignment(): Promise<boolean> {
    const made = this.assignedCounts;
    if (!made) return false;
    const now = await this.partitionCounts(this.topics);
    return this.topics.some((t) => made[t] !== undefined && now.get(t) !== made[t]);
  }

  /** LeaveGroup for the generation just joined (heartbeats stopped), to join again as a new member. */
  private async leaveNow(): Promise<void> {
    await this.stopHeartbeats();
    const cur = this.current!;
    this.current = null;
    this.owned = [];
    this.joinMemberId = "";
    await this.sendLeaveGroup(await this.coordinator(), cur.memberId).catch(() => {});
  }

  /** LeaveGroup v3 for `memberId` (with this member's instance id: a static member leaves too). */
  private sendLeaveGroup(coordinator: Any, memberId: string): Promise<unknown> {
    return sendToBroker(
      coordinator,
      kafkajsRequest(coordinator, "LeaveGroup", 3, { groupId: this.groupId, memberId, groupInstanceId: this.groupInstanceId }),
    );
  }

  /** The leader's part of a rebalance: every member's partitions from their subscriptions. */
  private async leaderAssign(
    assignor: GroupAssignor,
    members: { memberId: string; groupInstanceId: string | null; memberMetadata: Buffer }[],
  ): Promise<{ memberId: string; memberAssignment: Buffer }[]> {
    const subs: MemberSubscription[] = members.map((m) => {
      const s = decodeSubscription(m.memberMetadata, `member ${m.groupInstanceId ?? m.memberId}`);
      return {
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        topics: s.topics,
        ownedPartitions: s.ownedPartitions,
        generationId: s.generationId,
      };
    });
    const topics = [...new Set(subs.flatMap((s) => s.topics))].sort();
    const counts = await this.partitionCounts(topics);
    let assigned: Map<string, TopicPartition[]>;
    try {
      assigned = assignor.assign(subs, counts);
    } catch (e) {
      // Every member raises the leader's reason, not only the leader.
      const userData = Buffer.from(`${ERROR_MARK}${(e as Error).message}`, "utf8");
      return members.map((m) => ({ memberId: m.memberId, memberAssignment: encodeAssignment({ partitions: [], userData }) }));
    }
    const total = [...counts.values()].reduce((n, c) => n + c, 0);
    const given = [...assigned.values()].reduce((n, tps) => n + tps.length, 0);
    const userData = writeAssignmentNote({ counts: Object.fromEntries(counts), followUp: given < total });
    return members.map((m) => ({
      memberId: m.memberId,
      memberAssignment: encodeAssignment({ partitions: assigned.get(m.memberId) ?? [], userData }),
    }));
  }

  private async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    const cluster = await this.cluster();
    try {
      await cluster.addMultipleTargetTopics(topics);
      await cluster.refreshMetadata();
    } catch (e) {
      if ((e as { type?: string }).type === "UNKNOWN_TOPIC_OR_PARTITION") {
        const known = new Set(
          ((await cluster.metadata().catch(() => ({ topicMetadata: [] }))).topicMetadata as { topic: string }[]).map((t) => t.topic),
        );
        const missing = topics.filter((t) => !known.has(t));
        throw new Error(
          `${this.where()}: subscribed topic${missing.length === 1 ? "" : "s"} ${missing.join(", ") || topics.join(", ")} do${missing.length === 1 ? "es" : ""} not exist`,
        );
      }
      throw new Error(`${this.where()}: cannot read the metadata of topics ${topics.join(", ")}: ${(e as Error).message}`, { cause: e });
    }
    const out = new Map<string, number>();
    for (const t of topics) {
      const parts = (cluster.findTopicPartitionMetadata(t) ?? []) as unknown[];
      if (!parts.length) throw new Error(`${this.where()}: topic ${t} does not exist (or has no partitions)`);
      out.set(t, parts.length);
    }
    return out;
  }

  private startHeartbeats(): void {
    this.hbActive = true;
    this.lastHeartbeatOk = Date.now();
    this.scheduleHeartbeat();
  }

  private scheduleHeartbeat(): void {
    if (!this.hbActive || this.closed || this.hbTimer) return;
    this.hbTimer = setTimeout(
      () => {
        this.hbTimer = null;
        this.hbInFlight = this.heartbeat().finally(() => {
          this.hbInFlight = null;
          this.scheduleHeartbeat();
        });
      },
      Date.now() < this.fastHeartbeatsUntil ? Math.min(FOLLOW_UP_HEARTBEAT_MS, this.heartbeatIntervalMs) : this.heartbeatIntervalMs,
    );
  }

  private async stopHeartbeats(): Promise<void> {
    this.hbActive = false;
    if (this.hbTimer) clearTimeout(this.hbTimer);
    this.hbTimer = null;
    await this.hbInFlight;
  }

  private async heartbeat(): Promise<void> {
    const cur = this.current;
    if (!cur) return;
    try {
      const coordinator = await this.coordinator();
      await sendToBroker(
        coordinator,
        kafkajsRequest(coordinator, "Heartbeat", 3, {
          groupId: this.groupId,
          groupGenerationId: cur.generationId,
          memberId: cur.memberId,
          groupInstanceId: this.groupInstanceId,
        }),
      );
      this.lastHeartbeatOk = Date.now();
    } catch (e) {
      const code = kafkaCode(e);
      if (code === KafkaErrorCode.REBALANCE_IN_PROGRESS) {
        // The heartbeat still counted: keep sending them until the worker rejoins.
        this.lastHeartbeatOk = Date.now();
        this.markRejoin("REBALANCE_IN_PROGRESS");
        return;
      }
      if (
        code === KafkaErrorCode.ILLEGAL_GENERATION ||
        code === KafkaErrorCode.UNKNOWN_MEMBER_ID ||
        code === KafkaErrorCode.FENCED_INSTANCE_ID
      ) {
        if (code === KafkaErrorCode.UNKNOWN_MEMBER_ID) this.joinMemberId = "";
        if (code === KafkaErrorCode.FENCED_INSTANCE_ID) {
          this.fatal = new Error(
            `${this.where()}: another process joined with group instance id ${this.groupInstanceId} (FENCED_INSTANCE_ID)`,
          );
        }
        this.hbActive = false;
        this.markRejoin(errorName(code));
        return;
      }
      if (code === null || COORDINATOR_MOVED.has(code)) this.coord = null;
      // Heartbeats failing for a whole session: the coordinator has dropped this member by now.
      if (Date.now() - this.lastHeartbeatOk > this.sessionTimeoutMs) this.markRejoin("SESSION_TIMEOUT");
    }
  }

  /**
   * The group's committed offsets of `tps` (tpKey -> next offset to read, null when none),
   * waiting while a transaction that commits one of them is still open (require_stable).
   */
  async committedOffsets(tps: readonly TopicPartition[]): Promise<Map<string, number | null>> {
    if (!tps.length) return new Map();
    const since = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetchStableOffsets(await this.coordinator(), this.groupId, tps);
      } catch (e) {
        const code = kafkaCode(e);
        const transient = classify(e, "") !== e;
        if (!transient || Date.now() - since > STABLE_OFFSETS_WAIT_MS) {
          throw new Error(`${this.where()}: cannot read committed offsets: ${code === null ? (e as Error).message : errorName(code)}`, {
            cause: e,
          });
        }
        if (code === null || COORDINATOR_MOVED.has(code)) this.coord = null;
        await sleep(Math.min(500, 50 * (attempt + 1)));
      }
    }
  }

  /** Leaves the group now (LeaveGroup), static member or not: its partitions move without waiting for the session timeout. */
  async leave(): Promise<void> {
    await this.stopHeartbeats();
    // A join in flight holds its connection until the rebalance ends (the broker answers one
    // request per connection at a time): leave over a new connection, with the member id the join
    // got; the coordinator then answers the pending JoinGroup at once.
    const pending = this.joining ? this.joinMemberId : "";
    this.joinEpoch++;
    this.joining = false;
    const cur = this.current ?? (pending ? { memberId: pending } : null);
    this.current = null;
    this.owned = [];
    this.joinMemberId = "";
    if (!cur) return;
    const side = pending ? await kafkajsCluster(this.cfg).catch(() => null) : null;
    try {
      const coordinator = side
        ? await side.cluster.findGroupCoordinator({ groupId: this.groupId, coordinatorType: 0 })
        : await this.coordinator();
      await this.sendLeaveGroup(coordinator, cur.memberId);
    } catch (e) {
      const code = kafkaCode(e);
      // Already gone from the group: nothing to leave.
      if (code === KafkaErrorCode.UNKNOWN_MEMBER_ID || code === KafkaErrorCode.FENCED_INSTANCE_ID) return;
      throw new Error(`${this.where()}: leave failed: ${(e as Error)?.message ?? e}`, { cause: e });
    } finally {
      await side?.close().catch(() => {});
    }
  }

  /**
   * Stops heartbeats and closes the connections, without leaving: a static member keeps its
   * partitions for a session timeout (a restart gets them back), a dynamic one is dropped when
   * the session times out. No timer stays behind.
   */
  async close(): Promise<void> {
    await this.stopHeartbeats();
    this.closed = true;
    this.joinEpoch++;
    const conn = this.conn;
    this.conn = null;
    this.coord = null;
    if (conn) await (await conn.catch(() => null))?.close();
  }
}
