/**
 * The damage-injection kit (test/recovery/damage.test.ts; not a test file itself). A
 * checkpointed windowed count (JSON file source, 10-second windows, watermark, append mode)
 * runs over the first part of its input and stops; that checkpoint (and the file sink's
 * output) is the phase-1 snapshot. Each case copies the snapshot, damages one file, restarts
 * the query over the rest of the input and classifies what happened:
 *
 * - "recovers": the restart succeeded and the final output equals the undamaged run's;
 * - "stops": the restart failed with an error whose message names the damaged file;
 * - anything else is a failure of the suite: a silent difference, or an error that does not
 *   say which file is at fault.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { functions as F, Session } from "../../src/index.js";

export type SinkKind = "file" | "foreachBatch";
export type Provider = "row" | "columnar" | "lmdb";

export const DAMAGES = [
  "delete newest",
  "delete middle",
  "truncate",
  "zero length",
  "flip a byte",
  "garbage",
  "future version",
  "swap with neighbour",
] as const;
export type Damage = (typeof DAMAGES)[number];

export interface Scenario {
  readonly sink: SinkKind;
  readonly provider: Provider;
}

/** The row store, the columnar aggregation store (the in-memory default) and lmdb (rows on disk). */
const PROVIDER_CONF: Record<Provider, Record<string, string>> = {
  row: { "arus.state.aggregation.columnar": "false" },
  columnar: { "arus.state.aggregation.columnar": "true" },
  lmdb: { "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider" },
};

const T0 = Date.UTC(2024, 0, 1);
/**
 * Files of phase 1 (one batch each; maintenance runs every 10th batch, so 31 batches leave three
 * snapshots: enough to delete a middle one or swap two) and phase 2.
 */
export const PHASE1_FILES = 31;
export const PHASE2_FILES = 3;

/** Input file f: six rows, two per key, in event time [T0 + 5 s·f, T0 + 5 s·(f+1)). */
function inputRows(f: number): { k: string; ts: number }[] {
  return Array.from({ length: 6 }, (_, j) => ({ k: `k${(f + j) % 3}`, ts: T0 + f * 5000 + j * 700 }));
}

function writeInput(dir: string, from: number, to: number): void {
  mkdirSync(dir, { recursive: true });
  for (let f = from; f < to; f++) {
    const lines = inputRows(f).map((r) => JSON.stringify({ k: r.k, ts: new Date(r.ts).toISOString() }));
    writeFileSync(path.join(dir, `f${String(f).padStart(3, "0")}.json`), `${lines.join("\n")}\n`);
  }
}

export interface Layout {
  readonly root: string;
  readonly input: string;
  readonly ckpt: string;
  readonly out: string;
  /** foreachBatch deliveries: batch id -> rows (a replay overwrites, as an idempotent writer would). */
  readonly delivered: Map<number, string[]>;
}

export function layout(root: string): Layout {
  return { root, input: path.join(root, "in"), ckpt: path.join(root, "ckpt"), out: path.join(root, "out"), delivered: new Map() };
}

function session(p: Provider): Session {
  let b = Session.builder()
    .appName("damage")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.sql.streaming.stateStore.minDeltasForSnapshot", "2")
    .config("spark.sql.streaming.minBatchesToRetain", "100");
  for (const [k, v] of Object.entries(PROVIDER_CONF[p])) b = b.config(k, v);
  return b.getOrCreate();
}

/** Run the query over what is in the input folder now, then stop. */
async function runOnce(sc: Scenario, l: Layout): Promise<void> {
  const s = session(sc.provider);
  const df = s.readStream
    .schema("k STRING, ts TIMESTAMP")
    .option("maxFilesPerTrigger", 1)
    .json(l.input)
    .withWatermark("ts", "5 seconds")
    .groupBy(F.window("ts", "10 seconds"), "k")
    .count();
  let w = df.writeStream.outputMode("append").option("checkpointLocation", l.ckpt);
  if (sc.sink === "file") w = w.format("json").option("path", l.out).option("spark.sql.streaming.fileSink.log.compactInterval", "3");
  else
    w = w.foreachBatch(async (batch, id) => {
      const rows = (await batch.collect()).map((r) => JSON.stringify(r));
      l.delivered.set(id, rows);
    });
  const q = await w.start();
  try {
    await q.processAllAvailable();
  } finally {
    await q.stop();
  }
  if (q.exception) throw q.exception;
}

/** Phase 1: input files 0..PHASE1_FILES-1, one batch each. */
export async function phase1(sc: Scenario, l: Layout): Promise<void> {
  writeInput(l.input, 0, PHASE1_FILES);
  await runOnce(sc, l);
}

/** Phase 2: the rest of the input, then the final output (sorted rows). */
export async function phase2(sc: Scenario, l: Layout): Promise<string[]> {
  writeInput(l.input, PHASE1_FILES, PHASE1_FILES + PHASE2_FILES);
  await runOnce(sc, l);
  return output(sc, l);
}

async function output(sc: Scenario, l: Layout): Promise<string[]> {
  if (sc.sink === "foreachBatch") return [...l.delivered.values()].flat().sort();
  const s = session(sc.provider);
  const rows = await s.read.schema("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, k STRING, count BIGINT").json(l.out).collect();
  return rows.map((r) => JSON.stringify(r)).sort();
}

/**
 * Keep a copy of the phase-1 state of `l` (checkpoint, output, input, deliveries) beside it.
 * The logs hold absolute paths (the file source's log lists input files, the sink's manifest its
 * output files), so every run happens at `l`'s own paths: a case restores the copy into place.
 */
export function saveSnapshot(l: Layout): Layout {
  const snap = layout(`${l.root}.snapshot`);
  cpSync(l.root, snap.root, { recursive: true });
  for (const [k, v] of l.delivered) snap.delivered.set(k, v);
  return snap;
}

/** Put the snapshot back at `l` (whatever a case left there is removed). */
export function restoreSnapshot(snap: Layout, l: Layout): void {
  rmSync(l.root, { recursive: true, force: true });
  cpSync(snap.root, l.root, { recursive: true });
  l.delivered.clear();
  for (const [k, v] of snap.delivered) l.delivered.set(k, v);
}

/**
 * What the workload must output after phase 2, computed from the input alone: the count of
 * every (10-second window, key) the final watermark closed. The undamaged run must equal it,
 * so a baseline that is itself wrong cannot make a damaged run look right.
 */
export function expectedOutput(): string[] {
  const counts = new Map<string, number>();
  let maxTs = 0;
  for (let f = 0; f < PHASE1_FILES + PHASE2_FILES; f++) {
    for (const { k, ts } of inputRows(f)) {
      maxTs = Math.max(maxTs, ts);
      const start = Math.floor((ts - T0) / 10_000) * 10_000 + T0;
      const key = `${start}|${k}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const watermark = maxTs - 5_000;
  const out: string[] = [];
  for (const [key, n] of counts) {
    const [start, k] = key.split("|");
    const s = Number(start);
    if (s + 10_000 > watermark) continue;
    const w = { start: new Date(s).toISOString(), end: new Date(s + 10_000).toISOString() };
    out.push(JSON.stringify({ window: w, k, count: n }));
  }
  return out.sort();
}

// ----------------------------------------------------------------------------- file kinds

export interface FileKind {
  readonly name: string;
  /** Which scenarios have it. */
  readonly applies: (sc: Scenario) => boolean;
  /** The kind's files in the snapshot, oldest first (by version); single-file kinds list one. */
  readonly files: (l: Layout) => string[];
  /** The name of a newer version of `file` (for "future version"), or null if the kind has no versions. */
  readonly future: ((file: string) => string) | null;
}

const numbered = (dir: string, re: RegExp): string[] => {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((n) => ({ n, m: re.exec(n) }))
    .filter((x) => x.m !== null)
    .sort((a, b) => Number(a.m![1]) - Number(b.m![1]))
    .map((x) => path.join(dir, x.n));
};

/** The state partition directory with the most delta files (the busiest history). */
function busiestPartition(l: Layout): string {
  const op = path.join(l.ckpt, "state", "0");
  const parts = readdirSync(op).filter((p) => /^\d+$/.test(p));
  let best = path.join(op, parts[0]!);
  let n = -1;
  for (const p of parts) {
    const c = readdirSync(path.join(op, p)).filter((f) => f.endsWith(".delta")).length;
    if (c > n) {
      n = c;
      best = path.join(op, p);
    }
  }
  return best;
}

const bump = (file: string, by = 5): string => {
  const base = path.basename(file);
  const m = /^(\d+)(.*)$/.exec(base)!;
  return path.join(path.dirname(file), `${Number(m[1]) + by}${m[2]}`);
};

export const FILE_KINDS: readonly FileKind[] = [
  { name: "offsets", applies: () => true, files: (l) => numbered(path.join(l.ckpt, "offsets"), /^(\d+)$/), future: bump },
  { name: "commits", applies: () => true, files: (l) => numbered(path.join(l.ckpt, "commits"), /^(\d+)$/), future: bump },
  { name: "metadata", applies: () => true, files: (l) => [path.join(l.ckpt, "metadata")], future: null },
  {
    name: "sources",
    applies: () => true,
    files: (l) => numbered(path.join(l.ckpt, "sources", "0"), /^(\d+)(?:\.compact)?$/),
    future: bump,
  },
  {
    name: "state delta",
    applies: () => true,
    files: (l) => numbered(busiestPartition(l), /^(\d+)\.delta$/),
    future: bump,
  },
  {
    name: "state snapshot",
    applies: () => true,
    files: (l) => numbered(busiestPartition(l), /^(\d+)\.snapshot$/),
    future: bump,
  },
  {
    name: "state write record",
    applies: () => true,
    files: (l) => numbered(path.join(l.ckpt, "state", "0", "_metadata", "writes"), /^(\d+)$/),
    future: bump,
  },
  {
    name: "operator metadata",
    applies: () => true,
    files: (l) => [path.join(l.ckpt, "state", "0", "_metadata", "metadata")],
    future: null,
  },
  {
    name: "_spark_metadata entry",
    applies: (sc) => sc.sink === "file",
    files: (l) => numbered(path.join(l.out, "_spark_metadata"), /^(\d+)$/),
    future: bump,
  },
  {
    name: "_spark_metadata compact",
    applies: (sc) => sc.sink === "file",
    files: (l) => numbered(path.join(l.out, "_spark_metadata"), /^(\d+)\.compact$/),
    future: (f) => bump(f, 3),
  },
  { name: "lock", applies: () => true, files: (l) => [path.join(l.ckpt, ".arus-lock")], future: null },
];

/** Whether `damage` applies to the kind's files in `l` (a single file has no middle, neighbour or future version). */
export function damageApplies(kind: FileKind, damage: Damage, l: Layout): boolean {
  if (kind.name === "lock") return !["delete middle", "future version", "swap with neighbour"].includes(damage);
  const n = kind.files(l).length;
  if (n === 0) return false;
  if (damage === "delete middle") return n >= 3;
  if (damage === "future version") return kind.future !== null;
  if (damage === "swap with neighbour") return n >= 2;
  return true;
}

/**
 * Apply `damage` to the kind's files in `l`. Returns the files the error may name (the damaged
 * one, and for a swap its neighbour), or null when the damage does not apply to this kind.
 */
export function applyDamage(kind: FileKind, damage: Damage, l: Layout): string[] | null {
  if (!damageApplies(kind, damage, l)) return null;
  if (kind.name === "lock") {
    // A lock left by a killed process (a pid above pid_max, and its start time), then damaged.
    const lock = path.join(l.ckpt, ".arus-lock");
    const stale = "4194305 1764547200000";
    writeFileSync(lock, stale);
    switch (damage) {
      case "delete newest":
        unlinkSync(lock);
        return [lock];
      case "truncate":
        writeFileSync(lock, stale.slice(0, stale.length >> 1));
        return [lock];
      case "zero length":
        writeFileSync(lock, "");
        return [lock];
      case "flip a byte":
        writeFileSync(lock, flip(readFileSync(lock), true));
        return [lock];
      case "garbage":
        rmSync(lock);
        mkdirSync(lock); // the worst garbage: a directory in the way
        return [lock];
      default:
        return null;
    }
  }
  const files = kind.files(l);
  if (files.length === 0) return null;
  const newest = files[files.length - 1]!;
  switch (damage) {
    case "delete newest":
      unlinkSync(newest);
      return [newest];
    case "delete middle": {
      if (files.length < 3) return null;
      const mid = files[Math.floor(files.length / 2)]!;
      unlinkSync(mid);
      return [mid];
    }
    case "truncate": {
      const b = readFileSync(newest);
      writeFileSync(newest, b.subarray(0, Math.floor(b.length / 2)));
      return [newest];
    }
    case "zero length":
      writeFileSync(newest, "");
      return [newest];
    case "flip a byte":
      writeFileSync(newest, flip(readFileSync(newest), !/\.(delta|snapshot)$/.test(newest)));
      return [newest];
    case "garbage":
      writeFileSync(newest, "garbage\n{not json at all\u0000\u00ff");
      return [newest];
    case "future version": {
      if (!kind.future) return null;
      const f = kind.future(newest);
      writeFileSync(f, readFileSync(newest));
      return [f];
    }
    case "swap with neighbour": {
      if (files.length < 2) return null;
      const prev = files[files.length - 2]!;
      const tmp = `${newest}.swap`;
      renameSync(newest, tmp);
      renameSync(prev, newest);
      renameSync(tmp, prev);
      return [newest, prev];
    }
  }
}

/**
 * One byte with all bits flipped: in a binary state file the middle one; in a text file the
 * second byte of the content after the version line (a position that does not depend on the
 * length of paths in the file, so the outcome is the same in every temp directory).
 */
function flip(b: Buffer, text = false): Buffer {
  const c = Buffer.from(b);
  if (c.length === 0) return c;
  const nl = c.indexOf(0x0a);
  const at = text ? Math.min(c.length - 1, nl >= 0 ? nl + 2 : 1) : c.length >> 1;
  c[at] = c[at]! ^ 0xff;
  return c;
}

export type Outcome = "recovers" | "stops" | "n/a";

export interface CaseResult {
  readonly outcome: Outcome | "SILENT DIFFERENCE" | "UNNAMED ERROR";
  readonly detail: string;
}

/** Does `message` name one of `files` (by absolute path, or relative to the checkpoint / output)? */
export function namesFile(message: string, files: readonly string[], l: Layout): boolean {
  return files.some((f) => {
    const rels = [f, path.relative(l.ckpt, f), path.relative(l.out, f)].filter((r) => !r.startsWith(".."));
    return rels.some((r) => new RegExp(`${escapeRegExp(r)}(?![0-9A-Za-z])`).test(message));
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export async function runCase(
  sc: Scenario,
  kind: FileKind,
  damage: Damage,
  snapshot: Layout,
  l: Layout,
  expected: readonly string[],
): Promise<CaseResult> {
  if (!damageApplies(kind, damage, snapshot)) return { outcome: "n/a", detail: "" };
  restoreSnapshot(snapshot, l);
  const damaged = applyDamage(kind, damage, l)!;
  try {
    const got = await phase2(sc, l);
    if (JSON.stringify(got) === JSON.stringify(expected)) return { outcome: "recovers", detail: "" };
    return { outcome: "SILENT DIFFERENCE", detail: `expected ${expected.length} rows, got ${got.length}: ${diff(expected, got)}` };
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    if (namesFile(msg, damaged, l)) return { outcome: "stops", detail: msg };
    return { outcome: "UNNAMED ERROR", detail: `${damaged.join(", ")}: ${msg}` };
  }
}

/** Rows of `a` not in `b`, counting repeats (a duplicated row shows as extra). */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    if (n > 0) left.set(x, n - 1);
    return n === 0;
  });
}

function diff(a: readonly string[], b: readonly string[]): string {
  return `missing ${minus(a, b).slice(0, 2).join(" ")} extra ${minus(b, a).slice(0, 2).join(" ")}`;
}
