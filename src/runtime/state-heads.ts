/**
 * Which state files must exist. arus writes a state file only for a version that changed
 * something (files.ts), so the files alone cannot tell "no changes since version h" from "the
 * newest file was lost". Before `commits/N`, each batch records the state stores whose version
 * N+1 has a file in `state/<op>/_metadata/writes/N` (per operator[/store name], the partitions as
 * ranges like "0-3,7"; `commits/N` itself stays Spark's), and a store loading version v must find a file for
 * the newest recorded version <= v, among the batches the commit log holds: the loader decides
 * which versions must exist the same way for every provider (files.ts `plan`). Checkpoints
 * written before these records existed list nothing, which checks nothing.
 */
import path from "node:path";
import type { StateWrites } from "../checkpoint/offset-log.js";

/** "0-3,7" for [0,1,2,3,7]. */
export function encodeRanges(sorted: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.join(",");
}

/** [0,1,2,3,7] for "0-3,7"; null if the text is not such a list. */
export function decodeRanges(text: string): number[] | null {
  if (text === "") return [];
  const out: number[] = [];
  for (const part of text.split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return null;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a || b - a > 1_000_000) return null;
    for (let p = a; p <= b; p++) out.push(p);
  }
  return out;
}

export class StateHeads {
  /** Absolute store dir -> versions with a file (ascending, as the commit log says). */
  private readonly versions = new Map<string, number[]>();
  /** Dirs that wrote a delta during the running batch. */
  private pending = new Set<string>();

  constructor(
    /** `<checkpoint>/state`. */
    private readonly stateRoot: string,
  ) {}

  /** Take what `commits/<batchId>` says (its stores wrote version batchId + 1). */
  record(batchId: number, writes: StateWrites | undefined): void {
    if (!writes) return;
    for (const [key, ranges] of Object.entries(writes)) {
      const parts = decodeRanges(ranges);
      if (!parts) continue;
      const [op, store] = key.split("/", 2);
      for (const p of parts) this.add(path.join(this.stateRoot, op!, String(p), ...(store ? [store] : [])), batchId + 1);
    }
  }

  private add(dir: string, version: number): void {
    let list = this.versions.get(dir);
    if (!list) this.versions.set(dir, (list = []));
    if (list.length === 0 || list[list.length - 1]! < version) list.push(version);
    else if (!list.includes(version)) {
      list.push(version);
      list.sort((a, b) => a - b);
    }
  }

  /** The newest version <= `version` the commit log says `dir` has a file of (0 = none known). */
  requiredHead = (dir: string, version: number): number => {
    const list = this.versions.get(dir);
    if (!list) return 0;
    let best = 0;
    for (const v of list) if (v <= version && v > best) best = v;
    return best;
  };

  /** A provider wrote `<dir>/<version>.delta` (the running batch's commit). */
  noteWrite = (dir: string, _version: number): void => {
    this.pending.add(dir);
  };

  /** The `stateWrites` of the running batch's commit entry (undefined when nothing was written); resets. */
  takeBatchWrites(batchId: number): StateWrites | undefined {
    const pending = this.pending;
    this.pending = new Set();
    if (pending.size === 0) return undefined;
    const groups = new Map<string, number[]>();
    for (const dir of pending) {
      const rel = path.relative(this.stateRoot, dir).split(path.sep);
      const [op, part, store] = rel;
      if (op === undefined || part === undefined || !/^\d+$/.test(part)) continue;
      const key = store ? `${op}/${store}` : op;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(Number(part));
      this.add(dir, batchId + 1);
    }
    const out: Record<string, string> = {};
    for (const [k, g] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = encodeRanges(g.sort((a, b) => a - b));
    return out;
  }

  /** Forget the running batch's writes (it failed; its retry writes them again). */
  dropBatchWrites(): void {
    this.pending = new Set();
  }
}
