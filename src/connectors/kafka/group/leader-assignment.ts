/**
 * The assignment a group's leader hands out in SyncGroup, and what every member reads back from
 * it. Besides the partitions, the leader adds a note in the assignment's user data:
 * `ASSIGNMENT_MARK` + JSON `{counts, followUp}`. `counts`: the partition count of each topic it
 * assigned over (a member that sees other counts knows the assignment is stale). `followUp`: a
 * cooperative round left partitions to nobody, so a second round follows as soon as their holder
 * rejoins, and every member should see it at once, not at its next regular heartbeat. When the
 * leader cannot assign, the note is `ERROR_MARK` + its reason, and every member raises it. Other
 * clients ignore user data they do not know.
 */
import type { TopicPartition } from "../client.js";
import { type GroupAssignor, GroupSubscriptionMismatch, type MemberSubscription } from "./assignor.js";
import { decodeAssignment, decodeSubscription, encodeAssignment } from "./consumer-protocol.js";

/** The assignment's user data when the leader could not assign: every member raises the leader's reason. */
const ERROR_MARK = "arus-assignment-error:";
const ASSIGNMENT_MARK = "arus-assignment:";

interface AssignmentNote {
  readonly counts: Record<string, number> | null;
  readonly followUp: boolean;
}

/** A member of the group as JoinGroup's answer lists it to the leader. */
export interface JoinedMember {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly memberMetadata: Buffer;
}

/** This member's part of a SyncGroup answer. */
export interface MemberAssignment extends AssignmentNote {
  readonly partitions: readonly TopicPartition[];
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

/**
 * The leader's part of a rebalance: every member's partitions from their subscriptions, over
 * the partition counts `partitionCounts` reads for the topics they subscribe to.
 */
export async function leaderAssignment(
  assignor: GroupAssignor,
  members: readonly JoinedMember[],
  partitionCounts: (topics: readonly string[]) => Promise<Map<string, number>>,
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
  const counts = await partitionCounts(topics);
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

/**
 * This member's partitions and the leader's note from its SyncGroup answer; the leader's
 * reason, prefixed with `where`, as a GroupSubscriptionMismatch when it could not assign.
 */
export function readMemberAssignment(memberAssignment: Buffer, where: string): MemberAssignment {
  const assignment = decodeAssignment(memberAssignment);
  const note = assignment.userData?.toString("utf8") ?? "";
  if (note.startsWith(ERROR_MARK)) throw new GroupSubscriptionMismatch(`${where}: ${note.slice(ERROR_MARK.length)}`);
  return { partitions: assignment.partitions, ...readAssignmentNote(note) };
}
