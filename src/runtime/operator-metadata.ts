/**
 * Stateful operator metadata (`state/<op>/_metadata/metadata`): what each stateful operator's
 * state looks like. Written at the first start; on a restart the query must match it, or the
 * start fails with a list of what changed — instead of silently misreading old state.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { nodeFs, writeAtomic } from "../checkpoint/atomic-file.js";
import { CheckpointCorruptError } from "../checkpoint/metadata-log.js";
import { ArusError } from "../common/errors.js";

export interface OperatorMetadata {
  operatorId: number;
  operatorName: string;
  numPartitions: number;
  keySchema: string[];
  valueSchema: string[];
  /** transformWithState: valueSchema lists state variables (`name: kind<schema>`). */
  stateVariables?: boolean;
}

const VERSION = 1;

export class StateSchemaChangedError extends ArusError {
  constructor(dir: string, changes: string[]) {
    super(
      "STATE_SCHEMA_CHANGED",
      `The query's stateful operators differ from those recorded in checkpoint ${dir}:\n${changes.map((c) => `  - ${c}`).join("\n")}\n` +
        "The existing state cannot be read by this query. Either restore the original query, or start this one with a new checkpointLocation (its state starts empty).",
    );
  }
}

/** A checkpoint whose state Apache Spark wrote: arus reads its offsets and commits, not Spark's state store files. */
export class StateWrittenBySparkError extends ArusError {
  constructor(file: string) {
    super(
      "STATE_WRITTEN_BY_SPARK",
      `The checkpoint's stateful operator state was written by Apache Spark (${file} is Spark's operator metadata). arus reads a Spark checkpoint's offsets, commits and source logs, so a query without state continues where Spark stopped, but not Spark's state store files. Start this query with a new checkpointLocation (its state starts empty).`,
    );
  }
}

function file(dir: string, op: number): string {
  return path.join(dir, "state", String(op), "_metadata", "metadata");
}

async function read(dir: string, op: number): Promise<OperatorMetadata | null> {
  const f = file(dir, op);
  const text = await fs.readFile(f, "utf8").catch(() => null);
  if (text === null) return null;
  const nl = text.indexOf("\n");
  const v = /^v(\d+)$/.exec(nl < 0 ? text : text.slice(0, nl));
  if (!v) throw new CheckpointCorruptError(f, "missing version line");
  let meta: unknown;
  try {
    meta = JSON.parse(text.slice(nl + 1));
  } catch (e) {
    throw new CheckpointCorruptError(f, `unreadable JSON (${(e as Error).message})`);
  }
  // Spark's OperatorStateMetadata (v1, v2): its state store files are Spark's own format.
  if (meta !== null && typeof meta === "object" && "operatorInfo" in meta) throw new StateWrittenBySparkError(f);
  if (Number(v[1]) > VERSION) throw new CheckpointCorruptError(f, `written by a newer format (v${v[1]})`);
  return meta as OperatorMetadata;
}

/** Compare with the checkpoint (when it has state) and record the metadata. */
export async function checkOperatorMetadata(dir: string, ops: readonly OperatorMetadata[], hasHistory: boolean): Promise<void> {
  const changes: string[] = [];
  if (hasHistory) {
    const stateDirs = (await fs.readdir(path.join(dir, "state")).catch(() => [] as string[])).filter((d) => /^\d+$/.test(d));
    for (const d of stateDirs) {
      const old = await read(dir, Number(d));
      if (old && !ops.some((o) => o.operatorId === old.operatorId)) {
        changes.push(`stateful operator ${old.operatorId} (${old.operatorName}) is no longer in the query`);
      }
    }
    for (const op of ops) {
      const old = await read(dir, op.operatorId);
      if (!old) continue;
      const where = `operator ${op.operatorId} (${old.operatorName}, as recorded in ${file(dir, op.operatorId)})`;
      if (old.operatorName !== op.operatorName) changes.push(`${where} became ${op.operatorName}`);
      if (old.numPartitions !== op.numPartitions) {
        changes.push(
          `${where}: spark.sql.shuffle.partitions was ${old.numPartitions}, now ${op.numPartitions} (the partition count is fixed for a checkpoint's life)`,
        );
      }
      diffColumns(`${where} key`, old.keySchema, op.keySchema, changes);
      if (op.stateVariables) diffStateVariables(where, old.valueSchema, op.valueSchema, changes);
      else diffColumns(`${where} state value`, old.valueSchema, op.valueSchema, changes);
    }
  }
  if (changes.length) throw new StateSchemaChangedError(dir, changes);
  for (const op of ops) await writeAtomic(nodeFs, file(dir, op.operatorId), `v${VERSION}\n${JSON.stringify(op)}`, true);
}

/**
 * transformWithState's variables: a new one is fine (it starts empty), one dropped with
 * `deleteIfExists` is fine; a changed kind or schema, or one the processor stopped declaring
 * without deleting it, would misread or orphan state.
 */
function diffStateVariables(where: string, before: readonly string[], after: readonly string[], out: string[]): void {
  const split = (c: string) => [c.slice(0, c.indexOf(": ")), c.slice(c.indexOf(": ") + 2)] as const;
  const now = new Map(after.map(split));
  for (const c of before) {
    const [name, was] = split(c);
    if (was === "deleted") continue;
    const is = now.get(name);
    if (is === undefined) {
      out.push(
        `${where}: state variable "${name}" (${was}) is no longer declared; call handle.deleteIfExists("${name}") in init() to drop its state`,
      );
    } else if (is !== "deleted" && is !== was) out.push(`${where}: state variable "${name}" changed from ${was} to ${is}`);
  }
}

function diffColumns(what: string, before: readonly string[], after: readonly string[], out: string[]): void {
  const name = (c: string) => c.slice(0, c.lastIndexOf(": "));
  for (const c of before) {
    const same = after.find((a) => name(a) === name(c));
    if (!same) out.push(`${what} column "${name(c)}" was removed`);
    else if (same !== c) {
      const was = c.slice(name(c).length + 2);
      const now = same.slice(name(c).length + 2);
      // Before DECIMAL existed, arus kept DECIMAL(p, s) columns (and their sums) as DOUBLE.
      const hint =
        was === "double" && now.startsWith("decimal(")
          ? ` (state written when arus read DECIMAL as DOUBLE: to keep it, CAST the column AS DOUBLE in the query)`
          : "";
      out.push(`${what} column "${name(c)}" changed type: ${was} -> ${now}${hint}`);
    }
  }
  for (const a of after) if (!before.some((c) => name(c) === name(a))) out.push(`${what} column "${name(a)}" was added`);
}
