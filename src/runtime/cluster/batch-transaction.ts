/**
 * Step 4 of a group-mode worker's batch (worker-batch.ts): one Kafka transaction with the
 * batch's output, repartition, changelog and progress records, the hold of the repartition rows
 * it wrote (repartition-hold.ts: where they landed is known only once they are sent), and the
 * consumed offsets sent with the group's metadata (KIP-447: a zombie with a stale generation is
 * refused). foreachBatch's per-task calls come first (task-batch-sink.ts). Anything failing
 * aborts the transaction and drops the tasks' staged state; the crash points name each step.
 */
import { crashPoint } from "../../common/crash-points.js";
import type { OutRecord } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import type { GroupAssignment } from "./group-assignment.js";
import type { GroupMetadata } from "./kafka-ports.js";
import type { StagedWrites } from "./repartition-hold.js";
import type { WorkerShared } from "./worker-io.js";

/**
 * Commits batch `batchId`: `records` (foreachBatch's progress records are added to it),
 * `offsets` (the ends of the source and repartition partitions read), and per repartition
 * partition the oldest event time written there. Returns the group metadata the offsets went
 * with and the last offset of every partition written to.
 */
export async function commitBatchTransaction(
  shared: WorkerShared,
  assignment: GroupAssignment,
  batchId: number,
  records: OutRecord[],
  offsets: readonly { topic: string; partition: number; offset: number }[],
  oldestWritten: ReadonlyMap<number, number>,
): Promise<{ metadata: GroupMetadata; sent: ReadonlyMap<string, number> }> {
  const { taskSink } = shared;
  let metadata: GroupMetadata = assignment.applied!;
  shared.host.status = { ...shared.host.status, message: "Committing the batch's transaction" };
  let sent: ReadonlyMap<string, number> = new Map();
  let staged: StagedWrites | null = null;
  try {
    // foreachBatch: the tasks' plans committed, the user's function called per task (task-batch-sink.ts).
    if (taskSink) records.push(...(await taskSink.deliver(shared.io.txn, assignment, batchId)));
    crashPoint("beforeSink", batchId);
    await shared.io.txn.begin();
    if (records.length) sent = await shared.io.txn.send(records);
    // Where this batch's repartition rows landed is known only now: their hold goes in the same transaction.
    const written = new Map<number, { end: number; minEventTimeMs: number }>();
    for (const [p, minEventTimeMs] of oldestWritten) {
      const last = sent.get(tpKey({ topic: shared.topics.repartition, partition: p }));
      if (last !== undefined) written.set(p, { end: last + 1, minEventTimeMs });
    }
    staged = shared.watermark.stageWrites(shared.workerId, written);
    if (staged.record) await shared.io.txn.send([staged.record]);
    crashPoint("insideSink", batchId); // records sent, offsets and commit not
    if (assignment.backgroundJoin) metadata = await assignment.backgroundJoin.commitMetadata(metadata, offsets);
    await shared.io.txn.sendOffsets(offsets, metadata);
    crashPoint("afterSendOffsets", batchId);
    await shared.io.txn.commit();
    staged?.commit();
    taskSink?.committed();
    crashPoint("afterSink", batchId);
  } catch (e) {
    taskSink?.discard();
    await shared.io.txn.abort().catch(() => {});
    for (const task of assignment.tasks.values()) task.state.discard();
    throw e;
  }
  return { metadata, sent };
}
