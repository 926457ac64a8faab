/**
 * What a checkpoint says about its query before any batch runs: the query id in its `metadata`
 * file (written once, by the first run), and the sticky confs (shuffle partitions, watermark
 * policy, ...) frozen at the first batch and re-applied from the latest offsets entry on
 * restart, as Spark does. Used by checkpoint-store.ts when it opens a checkpoint.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { nodeFs, writeAtomic } from "../checkpoint/atomic-file.js";
import { CheckpointCorruptError } from "../checkpoint/metadata-log.js";
import { type OffsetSeq, STICKY_CONF_BEFORE_RECORDED, STICKY_CONFS } from "../checkpoint/offset-log.js";
import type { RuntimeConfig } from "../common/conf.js";
import { ArusError } from "../common/errors.js";

/** The query id of the checkpoint at `dir` (absolute); a new checkpoint gets `newId`. */
export async function queryIdOf(dir: string, newId: string): Promise<string> {
  let id = newId;
  const metaFile = path.join(dir, "metadata");
  const read = () =>
    fs.readFile(metaFile, "utf8").catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return null;
      throw e;
    });
  let text = await read();
  if (text === null) {
    // Two processes opening a new checkpoint together: the second to write finds the
    // first's metadata (the write never overwrites) and takes that query id; the lock then
    // decides which of them runs.
    try {
      await writeAtomic(nodeFs, metaFile, JSON.stringify({ id }), false);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      text = await read();
    }
  }
  if (text !== null) {
    try {
      id = (JSON.parse(text) as { id: string }).id;
      if (typeof id !== "string") throw new Error("no id");
    } catch {
      throw new CheckpointCorruptError(metaFile, 'expected JSON like {"id":"<query id>"}');
    }
  }
  return id;
}

/**
 * The sticky confs of a query: those `latest` (the newest offsets entry, null before the first
 * batch) recorded, else the values in force before they were recorded (an entry from an older
 * arus), else the session's. A shuffle partition count set explicitly to another value than the
 * checkpoint's is an error: the state's partitioning cannot change.
 */
export function stickyConfs(latest: OffsetSeq | null, conf: RuntimeConfig, dir: string | null): Record<string, string> {
  const frozen = latest?.metadata.conf ?? {};
  const parts = "spark.sql.shuffle.partitions";
  if (frozen[parts] !== undefined && conf.isExplicit(parts) && conf.get(parts) !== frozen[parts]) {
    throw new ArusError(
      "STATE_SCHEMA_CHANGED",
      `spark.sql.shuffle.partitions is ${conf.get(parts)} but checkpoint ${dir} was written with ${frozen[parts]}; the partition count of a checkpoint's state cannot change. ` +
        `Use ${frozen[parts]} (or leave it unset) to continue, or start with a new checkpointLocation.`,
    );
  }
  const out: Record<string, string> = {};
  for (const k of STICKY_CONFS) {
    const v = frozen[k] ?? (latest ? STICKY_CONF_BEFORE_RECORDED[k] : undefined) ?? conf.getOption(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
