/**
 * The group coordinator requests a member sends, at the versions arus needs (JoinGroup v5 and
 * the others at their versions with group.instance.id, KIP-345), built with kafkajs's encoders:
 * what each request carries, so the member (member.ts) reads as the protocol's state machine.
 */

import { type Any, kafkajsRequest, sendToBroker } from "./kafkajs-protocol.js";
import type { JoinedMember } from "./leader-assignment.js";

/** Who sends: the group, and the static member's instance id (null: a dynamic member). */
export interface Sender {
  readonly groupId: string;
  readonly groupInstanceId: string | null;
}

/** The classic group protocol's type for consumers: every member of the group must use it. */
export const PROTOCOL_TYPE = "consumer";

export interface JoinGroupAnswer {
  readonly memberId: string;
  readonly generationId: number;
  readonly leaderId: string;
  /** The protocol (assignor) the group chose; null from a broker that does not say. */
  readonly groupProtocol: string | null;
  /** Every member with its subscription: only the leader gets them. */
  readonly members: JoinedMember[];
}

/** JoinGroup v5: offers `protocols` (assignor name + subscription), preferred first. */
export function joinGroup(
  coordinator: Any,
  from: Sender,
  join: {
    readonly memberId: string;
    readonly sessionTimeoutMs: number;
    readonly rebalanceTimeoutMs: number;
    readonly protocols: readonly { name: string; metadata: Buffer }[];
  },
): Promise<JoinGroupAnswer> {
  return sendToBroker<Any>(
    coordinator,
    kafkajsRequest(coordinator, "JoinGroup", 5, {
      groupId: from.groupId,
      sessionTimeout: join.sessionTimeoutMs,
      rebalanceTimeout: join.rebalanceTimeoutMs,
      memberId: join.memberId,
      groupInstanceId: from.groupInstanceId,
      protocolType: PROTOCOL_TYPE,
      groupProtocols: join.protocols,
    }),
  );
}

/** SyncGroup v3: the leader sends every member's assignment, the others none; answers this member's. */
export async function syncGroup(
  coordinator: Any,
  from: Sender,
  generationId: number,
  memberId: string,
  groupAssignment: readonly { memberId: string; memberAssignment: Buffer }[],
): Promise<Buffer> {
  const synced = await sendToBroker<Any>(
    coordinator,
    kafkajsRequest(coordinator, "SyncGroup", 3, {
      groupId: from.groupId,
      generationId,
      memberId,
      groupInstanceId: from.groupInstanceId,
      groupAssignment,
    }),
  );
  return synced.memberAssignment as Buffer;
}

/** Heartbeat v3 for the generation `generationId`. */
export function heartbeat(coordinator: Any, from: Sender, generationId: number, memberId: string): Promise<unknown> {
  return sendToBroker(
    coordinator,
    kafkajsRequest(coordinator, "Heartbeat", 3, {
      groupId: from.groupId,
      groupGenerationId: generationId,
      memberId,
      groupInstanceId: from.groupInstanceId,
    }),
  );
}

/** LeaveGroup v3 for `memberId` (with the instance id: a static member leaves too). */
export function leaveGroup(coordinator: Any, from: Sender, memberId: string): Promise<unknown> {
  return sendToBroker(
    coordinator,
    kafkajsRequest(coordinator, "LeaveGroup", 3, { groupId: from.groupId, memberId, groupInstanceId: from.groupInstanceId }),
  );
}
