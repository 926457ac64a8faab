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
 *
 * This module is the member's state machine (join, heartbeat answers, leave, close). Its parts:
 * options (member-options.ts), connections (coordinator-connection.ts), the requests
 * (group-requests.ts), the leader's assignment (leader-assignment.ts, over partition-counts.ts),
 * the heartbeat timer (heartbeat-loop.ts) and the stable committed offsets (committed-offsets.ts).
 */
import { type ClientConfig, type TopicPartition, tpKey } from "../client.js";
import { kafkajsCluster } from "../client-kafkajs.js";
import { cooperativeStickyRangeAssignor, type GroupAssignor, GroupSubscriptionMismatch } from "./assignor.js";
import { readCommittedOffsets } from "./committed-offsets.js";
import { encodeSubscription } from "./consumer-protocol.js";
import { CoordinatorConnection } from "./coordinator-connection.js";
import { COORDINATOR_MOVED, classify, errorName, KafkaErrorCode, kafkaCode } from "./errors.js";
import { heartbeat, joinGroup, leaveGroup, PROTOCOL_TYPE, syncGroup } from "./group-requests.js";
import { HeartbeatLoop } from "./heartbeat-loop.js";
import type { Any } from "./kafkajs-protocol.js";
import { leaderAssignment, readMemberAssignment } from "./leader-assignment.js";
import { type KafkaGroupMemberOptions, memberSettings } from "./member-options.js";
import { partitionCounts } from "./partition-counts.js";
import type { GroupMetadata } from "./txn-offset-commit.js";

export {
  clientConfig,
  type KafkaConnection,
  type KafkaGroupMemberOptions,
  type RebalanceProtocol,
} from "./member-options.js";
export type { GroupMetadata } from "./txn-offset-commit.js";

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

/** The heartbeat interval while a follow-up round is due. */
const FOLLOW_UP_HEARTBEAT_MS = 100;
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

  private readonly brokers: CoordinatorConnection;
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

  private readonly heartbeats = new HeartbeatLoop(
    () => this.heartbeat(),
    () => (Date.now() < this.fastHeartbeatsUntil ? Math.min(FOLLOW_UP_HEARTBEAT_MS, this.heartbeatIntervalMs) : this.heartbeatIntervalMs),
    () => this.brokers.isClosed,
  );
  private lastHeartbeatOk = 0;
  /** Until then heartbeats go every FOLLOW_UP_HEARTBEAT_MS: a follow-up round is due. */
  private fastHeartbeatsUntil = 0;
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
    const settings = memberSettings(opts);
    this.groupId = settings.groupId;
    this.topics = settings.topics;
    this.groupInstanceId = settings.groupInstanceId;
    this.sessionTimeoutMs = settings.sessionTimeoutMs;
    this.rebalanceTimeoutMs = settings.rebalanceTimeoutMs;
    this.heartbeatIntervalMs = settings.heartbeatIntervalMs;
    this.assignors = settings.assignors;
    this.cfg = settings.client;
    this.brokers = new CoordinatorConnection(this.cfg, this.groupId, () => this.where());
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

  private cluster(): Promise<Any> {
    return this.brokers.cluster();
  }

  private coordinator(): Promise<Any> {
    return this.brokers.coordinator();
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
          this.brokers.forgetCoordinator();
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
    const joined = await joinGroup(coordinator, this, {
      memberId: this.joinMemberId,
      sessionTimeoutMs: this.sessionTimeoutMs,
      rebalanceTimeoutMs: this.rebalanceTimeoutMs,
      protocols: this.assignors.map((a) => ({ name: a.name, metadata: subscription })),
    });
    this.checkNotLeft(epoch);
    const { memberId, generationId, members } = joined;
    this.joinMemberId = memberId;
    const protocol = joined.groupProtocol ?? this.assignors[0]!.name;
    const assignor = this.assignors.find((a) => a.name === protocol) ?? this.assignors[0]!;
    let synced: Buffer;
    this.inSync = true;
    try {
      const groupAssignment =
        joined.leaderId === memberId && members.length
          ? await leaderAssignment(assignor, members, (topics) => this.partitionCounts(topics))
          : [];
      synced = await syncGroup(coordinator, this, generationId, memberId, groupAssignment);
    } finally {
      this.inSync = false;
    }
    this.checkNotLeft(epoch);
    const assignment = readMemberAssignment(synced, this.where());
    this.assignedCounts = assignment.counts;
    const now = new Set(assignment.partitions.map(tpKey));
    const revoked = this.owned.filter((tp) => !now.has(tpKey(tp)));
    const cooperative = protocol === cooperativeStickyRangeAssignor.name;
    this.current = { groupId: this.groupId, generationId, memberId, groupInstanceId: this.groupInstanceId };
    this.owned = assignment.partitions;
    this.rejoin = false;
    const followUp = assignment.followUp;
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
    await leaveGroup(await this.coordinator(), this, cur.memberId).catch(() => {});
  }

  private async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    return partitionCounts(await this.cluster(), topics, this.where());
  }

  private startHeartbeats(): void {
    this.lastHeartbeatOk = Date.now();
    this.heartbeats.start();
  }

  private stopHeartbeats(): Promise<void> {
    return this.heartbeats.stop();
  }

  private async heartbeat(): Promise<void> {
    const cur = this.current;
    if (!cur) return;
    try {
      const coordinator = await this.coordinator();
      await heartbeat(coordinator, this, cur.generationId, cur.memberId);
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
        this.heartbeats.halt();
        this.markRejoin(errorName(code));
        return;
      }
      if (code === null || COORDINATOR_MOVED.has(code)) this.brokers.forgetCoordinator();
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
    return readCommittedOffsets(this.brokers, this.groupId, tps, this.where());
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
      await leaveGroup(coordinator, this, cur.memberId);
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
    const closing = this.brokers.close(); // closed at once: cluster() throws from here on
    this.joinEpoch++;
    await closing;
  }
}
