/**
 * Which state files rebuild a version of a state store (files.ts): the newest snapshot at or
 * below it, then the deltas after that snapshot. The `prev` chain in the files' headers is
 * checked on the way, so a version whose files retention deleted, a hole left by a lost file,
 * or files from two histories is an error naming the file, never a silently wrong state.
 */
import { CheckpointCorruptError } from "../checkpoint/metadata-log.js";
import { type FileKind, UNKNOWN_PREV } from "./codec.js";
import type { StateFiles } from "./files.js";

export interface LoadPlan {
  /** Snapshot version to start from (0 = empty state). */
  snapshot: number;
  /** Delta versions to replay after it, ascending. */
  deltas: number[];
  /** The newest file version <= the loaded version (0 = none), and its id. */
  head: { version: number; fileId: string };
}

/**
 * Which files rebuild `version`: the newest snapshot <= version, then the deltas after it.
 * Checks the prev chain from that snapshot up to the first file after `version`, so a
 * version whose files were deleted by retention, or a hole left by a lost file, is an error
 * naming the file instead of a silently wrong state.
 */
export async function planLoad(files: StateFiles, version: number, requiredHead = 0): Promise<LoadPlan> {
  await files.scan();
  let snapshot = 0;
  for (const s of files.snapshotVersions()) if (s <= version && s > snapshot) snapshot = s;
  const versions = [...new Set([...files.deltaVersions(), ...files.snapshotVersions()])].filter((x) => x > snapshot).sort((a, b) => a - b);
  const deltas: number[] = [];
  let expected = snapshot;
  let head = { version: 0, fileId: "" };
  if (snapshot > 0) head = { version: snapshot, fileId: (await files.header(snapshot, "snapshot")).fileId };
  for (const x of versions) {
    const kind: FileKind = files.hasDelta(x) ? "delta" : "snapshot";
    const h = await files.header(x, kind);
    if (h.prev !== UNKNOWN_PREV && h.prev !== expected) {
      const p = files.path(x, kind);
      if (h.prev > expected) {
        throw new CheckpointCorruptError(
          p,
          `it continues version ${h.prev}, but no state file for version ${h.prev} exists, so version ${version} cannot be rebuilt` +
            (version < x ? " (it is older than what retention keeps, spark.sql.streaming.minBatchesToRetain)" : ""),
        );
      }
      throw new CheckpointCorruptError(
        p,
        `it continues version ${h.prev}, but version ${expected} also has a state file: the files come from different histories`,
      );
    }
    if (x > version) break;
    if (kind === "delta") deltas.push(x);
    head = { version: x, fileId: h.fileId };
    expected = x;
  }
  if (requiredHead > head.version && requiredHead <= version) {
    throw new CheckpointCorruptError(
      files.path(requiredHead, "delta"),
      `the file is missing: batch ${requiredHead - 1} was committed (commits/${requiredHead - 1}) and recorded that it wrote version ${requiredHead} of this state store (the operator's _metadata/writes/${requiredHead - 1}), ` +
        `so version ${version} cannot be rebuilt without it (the newest state file here is ${head.version === 0 ? "none" : `of version ${head.version}`})`,
    );
  }
  return { snapshot, deltas, head };
}
