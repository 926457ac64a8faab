/**
 * V8's heap growing factor for a process running arus (`arus.v8.heapGrowingPercent`;
 * docs/benchmarks.md, "V8's heap").
 *
 * arus keeps its data in typed arrays and allocates few JavaScript objects, so the live
 * JavaScript heap stays small (tens of MB). After each full collection V8 sets the next one's
 * limit at a factor of the live heap, and counts the typed arrays' memory against it: with a
 * small heap that limit is reached every ~100 ms by arrays alone, and each time V8 runs a full
 * mark-compact that frees almost nothing (q5: 75 in two runs on the main thread). A fixed
 * factor of 1 + p/100 (V8's `--heap-growing-percent`, which it reads at every collection, so
 * it can be set at run time and reaches the main thread and the worker threads alike) spaces
 * them out: 17–23 % less wall time on the benchmark queries q5, q7 and q8, ~25 % less CPU on
 * the seed queries, for 30–50 MB more peak memory (bench/RESULTS.md, "Issue 21, session 16").
 *
 * The setting is the process's, not the session's: it also applies to the application's own
 * objects. Once the live heap is large (over `LARGE_HEAP_BYTES`), where a fixed factor would
 * mean gigabytes between collections, V8's own sizing is restored. A factor given to node
 * on its command line wins; 0 leaves V8's own.
 */
import v8 from "node:v8";
import { IllegalArgumentException } from "./errors.js";

export const HEAP_GROWING_CONF = "arus.v8.heapGrowingPercent";
/** Above this live heap V8 sizes its heap itself again: a fixed factor would hold too much garbage. */
export const LARGE_HEAP_BYTES = 512 << 20;

const FLAG = "--heap-growing-percent";
/** What this process asked V8 for last (0: V8's own sizing). */
let applied = 0;
/** The percent the sessions' conf asks for while the heap is small. */
let wanted = 0;

/** The conf's value: a whole percent, 0 for V8's own sizing. */
export function heapGrowingPercentOf(value: string | undefined): number {
  const v = (value ?? "0").trim();
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new IllegalArgumentException(`${HEAP_GROWING_CONF} must be a whole percent (0: V8's own heap sizing), got '${value}'.`);
  return n;
}

/** Has node been started with its own factor? Then arus leaves it alone. */
function givenToNode(): boolean {
  return process.execArgv.some((a) => a.startsWith(FLAG) || a.startsWith("--heap_growing_percent"));
}

function apply(percent: number): void {
  if (percent === applied || givenToNode()) return;
  v8.setFlagsFromString(`${FLAG}=${percent}`);
  applied = percent;
}

/** Ask for `percent` (a session's conf); applied now unless the heap is already large. */
export function setHeapGrowingPercent(percent: number): void {
  wanted = percent;
  checkHeapGrowth();
}

/** After a batch: V8's own sizing back once the live heap is large, the conf's factor while it is small. */
export function checkHeapGrowth(usedHeapBytes?: number): void {
  if (wanted === 0 && applied === 0) return;
  const used = usedHeapBytes ?? v8.getHeapStatistics().used_heap_size;
  apply(used > LARGE_HEAP_BYTES ? 0 : wanted);
}

/** What V8 was last asked for by arus (tests). */
export function appliedHeapGrowingPercent(): number {
  return applied;
}
