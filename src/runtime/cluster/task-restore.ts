/**
 * Restoring one group-mode task before its new owner runs it: its local snapshot, if one is
 * usable, then the changelog partition's tail from the snapshot's offset to its end
 * (read_committed); without one, the whole partition. A snapshot is used only when the
 * changelog still holds what it claims to cover:
 *   - its offset is at most the partition's end (else the changelog was truncated or recreated),
 *   - and at least the partition's earliest offset (else records after it were deleted),
 *   - and the record it names as its last (the witness) is still the same record, unless
 *     compaction removed it (a later record with the same key then follows in the tail).
 * Age, identity and integrity are checked as it is read (task-snapshots.ts).
 *
 * Before it reads, a restore waits until no transaction is open on the changelog partition
 * (`waitStable`): read_committed stops at the first open transaction, and a worker killed inside
 * its transaction after sending changelog records but before its offsets leaves one open until
 * its transaction timeout — with committed records of a later owner after it, which a restore
 * up to the last stable offset would miss.
 */
import { crashPoint } from "../../common/crash-points.js";
import type { FetchedRecord, KafkaAdmin, KafkaFetcher, TopicPartition } from "../../connectors/kafka/client.js";
import { tpKey } from "../../connectors/kafka/client.js";
import type { LoadedSnapshot, TaskSnapshots, Witness } from "./task-snapshots.js";
import { witnessOf } from "./task-snapshots.js";
import { TaskState } from "./task-state.js";
import type { RestoreFacts } from "./worker-progress.js";

/** Offsets fetched per step of the replay (the restore's progress moves by this much). */
const REPLAY_CHUNK = 20_000;
/** A commit returns before its markers are written: how long a snapshot just past the stable end waits for it. */
const MARKER_WAIT_MS = 2000;

export interface TaskRestore {
  readonly task: number;
  /** Changelog records replayed. */
  readonly records: number;
  /** Offsets the replay spanned (records plus gaps: transaction markers, compaction). */
  readonly offsets: number;
  /** State entries loaded from the task's snapshot (0: no snapshot used). */
  readonly snapshotRecords: number;
  readonly fromSnapshot: boolean;
  /** Where the snapshot came from: this machine's state directory, or the group's snapshot topic. */
  readonly source: "local" | "published" | null;
  /** Why a snapshot there was not used (null: none, or used). */
  readonly ignored: string | null;
}

export interface RestoreProgress {
  readonly task: number;
  readonly fromSnapshot: boolean;
  readonly offsetsDone: number;
  readonly offsetsTotal: number;
}

/** Why the snapshot cannot stand for the changelog below its offset, or null when it can. */
async function mismatch(
  fetcher: KafkaFetcher,
  tp: TopicPartition,
  offset: number,
  witness: Witness | null,
  range: { earliest: number; latest: number },
): Promise<string | null> {
  if (offset > range.latest) return `covers offsets below ${offset}, beyond the changelog's end ${range.latest} (truncated or recreated)`;
  if (offset < range.earliest) return `covers offsets below ${offset}, but the changelog now starts at ${range.earliest}`;
  if (witness && witness.offset >= range.earliest) {
    const rec = (await fetcher.fetch(tp, witness.offset, witness.offset + 1)).find((r) => r.offset === witness.offset);
    if (rec && witnessOf(rec.offset, rec.key, rec.value).hash !== witness.hash) {
      return `the changelog's record at offset ${witness.offset} is not the one the snapshot folded in (changelog recreated)`;
    }
  }
  return null;
}

/** The Kafka reads of a restore: read_committed admin and fetcher; `logEnd`, an admin whose latest offsets are the log end (read_uncommitted). */
export interface RestoreIo {
  readonly admin: KafkaAdmin;
  readonly fetcher: KafkaFetcher;
  readonly logEnd?: KafkaAdmin | null;
}

export interface RestoreOptions {
  readonly snapshots?: TaskSnapshots | null;
  readonly onProgress?: (p: RestoreProgress) => void;
  /** The batch the restore comes before (the insideRestore crash point's batch id). */
  readonly batchId?: number;
  /** How long to wait for an open transaction on the changelog partition to end (needs `io.logEnd`). */
  readonly stableWaitMs?: number;
  readonly onStatus?: (message: string) => void;
}

/**
 * Waits (at most `maxMs`) until the partition's last stable offset reaches its log end: no
 * transaction open on it. Only a dead worker's can be (the task's previous owner's is resolved
 * before the new owner restores, KIP-447), so it ends at that worker's transaction timeout, or
 * at once when its slot restarts (InitProducerId aborts it). Returns how long it waited.
 */
export async function waitStable(
  io: RestoreIo,
  tp: TopicPartition,
  maxMs: number,
  onStatus: (m: string) => void = () => {},
): Promise<number> {
  if (!io.logEnd || maxMs <= 0) return 0;
  const t0 = Date.now();
  for (;;) {
    const [stable, end] = await Promise.all([io.admin.latestOffsets([tp]), io.logEnd.latestOffsets([tp])]);
    const lso = stable.get(tpKey(tp))!;
    const hw = end.get(tpKey(tp))!;
    if (lso >= hw) return Date.now() - t0;
    if (Date.now() - t0 >= maxMs) {
      console.warn(
        `arus group mode: ${tpKey(tp)} still has an open transaction at offset ${lso} (log end ${hw}) after ${maxMs} ms; restoring up to it`,
      );
      return Date.now() - t0;
    }
    onStatus(`Waiting for an open transaction on ${tpKey(tp)} to end (a dead worker's; stable offset ${lso}, log end ${hw})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function restoreTask(io: RestoreIo, changelog: string, state: TaskState, o: RestoreOptions = {}): Promise<TaskRestore> {
  const { admin, fetcher } = io;
  const snapshots = o.snapshots ?? null;
  const onProgress = o.onProgress ?? (() => {});
  const batchId = o.batchId ?? 0;
  const tp = { topic: changelog, partition: state.partition };
  await waitStable(io, tp, o.stableWaitMs ?? 0, o.onStatus);
  let rangeAtMs = Date.now();
  let range = (await admin.offsetRange([tp])).get(tpKey(tp))!;
  let ignored: string | null = null;
  /** The snapshot if it can stand for the changelog below its offset (else why not, in `ignored`). */
  const usable = async (snap: LoadedSnapshot | { ignored: string } | null): Promise<LoadedSnapshot | null> => {
    if (!snap) return null;
    if ("ignored" in snap) {
      ignored = snap.ignored;
      return null;
    }
    const h = snap.header;
    for (const waitUntil = Date.now() + MARKER_WAIT_MS; h.offset > range.latest && Date.now() < waitUntil; ) {
      await new Promise((r) => setTimeout(r, 100));
      rangeAtMs = Date.now();
      range = (await admin.offsetRange([tp])).get(tpKey(tp))!;
    }
    const why = await mismatch(fetcher, tp, h.offset, h.witness, range);
    if (why) ignored = why;
    return why ? null : snap;
  };
  let source: TaskRestore["source"] = null;
  let snap = snapshots ? await usable(await snapshots.load(state.partition)) : null;
  if (snap) source = "local";
  if (snapshots?.options.remote) {
    // A newer one in Kafka (another machine's worker ran the task since) beats the local file.
    const published = await snapshots
      .loadPublished(state.partition, snap?.header.offset ?? -1)
      .catch((e: Error) => ({ ignored: e.message }));
    const better = await usable(published);
    if (better) {
      snap = better;
      source = "published";
    }
  }
  let from = range.earliest;
  let witness: Witness | null = null;
  if (snap) {
    for (const e of snap.entries) state.apply(e.key, e.value);
    from = snap.header.offset;
    witness = snap.header.witness;
  }
  const snapshotRecords = snap?.entries.length ?? 0;
  const fromSnapshot = snap !== null;
  let records = 0;
  let last: FetchedRecord | null = null;
  for (let at = from; at < range.latest; ) {
    onProgress({ task: state.partition, fromSnapshot, offsetsDone: at - from, offsetsTotal: range.latest - from });
    const until = Math.min(range.latest, at + REPLAY_CHUNK);
    const chunk = await fetcher.fetch(tp, at, until);
    for (const r of chunk) if (r.key) state.apply(r.key, r.value);
    records += chunk.length;
    if (chunk.length) last = chunk[chunk.length - 1]!;
    // Killed here, the task is half restored, in memory only: the next owner starts over.
    crashPoint("insideRestore", batchId);
    at = until;
  }
  crashPoint("insideRestore", batchId);
  if (last) witness = witnessOf(last.offset, last.key, last.value);
  await snapshots?.restored(state, range.latest, witness, records, rangeAtMs);
  return { task: state.partition, records, offsets: range.latest - from, snapshotRecords, fromSnapshot, source, ignored };
}

/**
 * The tasks a (re)join gave this worker, restored one after another; `facts` sums them up for
 * the progress's `arus.cluster.restore` (null when there was none to restore).
 */
export async function restoreTasks(
  io: RestoreIo,
  changelog: string,
  partitions: readonly number[],
  o: { snapshots: TaskSnapshots | null; now: () => number; batchId: number; onStatus: (message: string) => void; stableWaitMs: number },
): Promise<{ states: TaskState[]; facts: RestoreFacts | null }> {
  const t0 = o.now();
  const states: TaskState[] = [];
  const done: TaskRestore[] = [];
  for (const p of partitions) {
    const state = new TaskState(p);
    o.snapshots?.forget(p);
    const progress = (at: RestoreProgress) => {
      const from = at.fromSnapshot ? "its snapshot and " : "";
      o.onStatus(`Restoring task ${p} from ${from}${changelog}: ${at.offsetsDone} of ${at.offsetsTotal} offsets`);
    };
    o.onStatus(`Restoring task ${p} from ${changelog}`);
    const opts = { snapshots: o.snapshots, onProgress: progress, batchId: o.batchId, stableWaitMs: o.stableWaitMs, onStatus: o.onStatus };
    done.push(await restoreTask(io, changelog, state, opts));
    states.push(state);
  }
  if (!done.length) return { states, facts: null };
  const sum = (f: (r: TaskRestore) => number) => done.reduce((n, r) => n + f(r), 0);
  return {
    states,
    facts: {
      tasks: done.length,
      records: sum((r) => r.records),
      ms: o.now() - t0,
      fromSnapshot: sum((r) => (r.fromSnapshot ? 1 : 0)),
      fromPublishedSnapshot: sum((r) => (r.source === "published" ? 1 : 0)),
      snapshotRecords: sum((r) => r.snapshotRecords),
      offsets: sum((r) => r.offsets),
      ignoredSnapshots: sum((r) => (r.ignored === null ? 0 : 1)),
    },
  };
}
