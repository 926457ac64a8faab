/**
 * State store benchmark (not a test): update throughput and bytes per (window, key) entry for
 * 1 M keys, shaped like a windowed aggregation's state (key = encodeKey([window, user]),
 * row = [window, user, sum, count]).
 *
 *   node --expose-gc --import tsx bench/state.ts [--keys 1000000] [--rounds 3] [--clock wall|cpu] [--provider memory,lmdb]
 *   (--provider module:<file.ts>#<Class> benchmarks another provider, e.g. an older version)
 *
 * Phases per provider: insert (get + put of 1 M new keys, then commit = 1 M-entry delta),
 * heap bytes per entry (after GC, with nothing but the provider holding the state), update
 * (get + put of 1 M existing keys, fresh row per update as the operator does), maintenance
 * (snapshot), reload from files in a fresh provider. Targets from the issue: >= 5 M updates/s,
 * <= 64 B per entry in memory.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { encodeKey, type StateRow, type StateStoreProvider } from "../src/state/store.js";
import { benchClock, describeClock } from "./lib/proc.js";

interface Args {
  clock: "wall" | "cpu";
  keys: number;
  rounds: number;
  providers: string[];
  windows: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { clock: "wall", keys: 1_000_000, rounds: 3, providers: ["memory", "lmdb"], windows: 100 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--keys") a.keys = Number(argv[++i]);
    else if (argv[i] === "--provider") a.providers = argv[++i]!.split(",");
    else if (argv[i] === "--windows") a.windows = Number(argv[++i]);
    else if (argv[i] === "--rounds") a.rounds = Number(argv[++i]);
    else if (argv[i] === "--clock") a.clock = argv[++i] === "cpu" ? "cpu" : "wall";
  }
  return a;
}

/** Milliseconds: wall clock, or this process's CPU time (user + system) with --clock cpu. */
let now: () => number = benchClock("wall");

const gc = (globalThis as { gc?: () => void }).gc;
function heapUsed(): number {
  if (!gc) return Number.NaN;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const WINDOW_MICROS = 10_000_000;
const T0 = 1_700_000_000_000_000;

/** Entry i: window i / perWindow, user i % perWindow; every call builds fresh values, like the operator. */
function makeKey(i: number, perWindow: number): string {
  const w = Math.floor(i / perWindow);
  return encodeKey([
    { start: T0 + w * WINDOW_MICROS, end: T0 + (w + 1) * WINDOW_MICROS },
    `user_${String(i % perWindow).padStart(6, "0")}`,
  ]);
}
function makeRow(i: number, perWindow: number, sum: number, count: number): StateRow {
  const w = Math.floor(i / perWindow);
  return [
    { start: T0 + w * WINDOW_MICROS, end: T0 + (w + 1) * WINDOW_MICROS },
    `user_${String(i % perWindow).padStart(6, "0")}`,
    sum,
    count,
  ];
}

function dirBytes(dir: string, filter: (f: string) => boolean): number {
  let n = 0;
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    const st = statSync(p);
    if (st.isDirectory()) n += dirBytes(p, filter);
    else if (filter(f)) n += st.size;
  }
  return n;
}

async function makeProvider(kind: string, dir: string): Promise<StateStoreProvider> {
  const opts = { minDeltasForSnapshot: 1, minBatchesToRetain: 100 };
  if (kind === "memory") {
    const { MemoryStateStoreProvider } = await import("../src/state/memory-provider.js");
    return new MemoryStateStoreProvider(dir, opts);
  }
  if (kind === "lmdb") {
    const { LmdbStateStoreProvider } = await import("../src/state/lmdb-provider.js");
    return new LmdbStateStoreProvider(dir, opts);
  }
  // module:<path>#<ExportName> benchmarks any provider class with the (dir, options) constructor
  const m = /^module:(.+)#(\w+)$/.exec(kind);
  if (m) {
    const mod = (await import(path.resolve(m[1]!))) as Record<string, new (d: string, o: typeof opts) => StateStoreProvider>;
    return new mod[m[2]!]!(dir, opts);
  }
  throw new Error(`unknown provider ${kind}`);
}

const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

async function benchProvider(kind: string, args: Args): Promise<void> {
  const n = args.keys;
  const windows = args.windows;
  const perWindow = Math.max(1, Math.floor(n / windows));
  const dir = mkdtempSync(path.join(tmpdir(), `arus-state-bench-${kind.replace(/\W+/g, "_").slice(-20)}-`));
  try {
    const h0 = heapUsed();
    const provider = await makeProvider(kind, dir);

    // Inputs are built before timing so the figures are the store's cost only.
    let keys: string[] = new Array(n);
    let rows: StateRow[] = new Array(n);
    let t = now();
    for (let i = 0; i < n; i++) keys[i] = makeKey(i, perWindow);
    const keyMs = now() - t;
    for (let i = 0; i < n; i++) rows[i] = makeRow(i, perWindow, i * 0.5, 1);

    let store = await provider.getStore(0);
    t = now();
    for (let i = 0; i < n; i++) {
      const k = keys[i]!;
      if (store.get(k) === undefined) store.put(k, rows[i]!);
    }
    const insertMs = now() - t;
    t = now();
    await store.commit();
    const commit1Ms = now() - t;
    const estimate = store.memoryUsedBytes();
    keys = [];
    rows = [];
    const h1 = heapUsed();

    // Update batches: read-modify-write of every key with a fresh row, as the aggregation does.
    // Repeated; the best run is reported (the machine is shared, runs are noisy).
    let version = 1;
    const updateRuns: number[] = [];
    const commitRuns: number[] = [];
    for (let r = 0; r < args.rounds; r++) {
      keys = new Array(n);
      for (let i = 0; i < n; i++) keys[i] = makeKey(i, perWindow);
      store = await provider.getStore(version);
      t = now();
      for (let i = 0; i < n; i++) {
        const k = keys[i]!;
        const old = store.get(k)!;
        store.put(k, [old[0], old[1], (old[2] as number) + 1, (old[3] as number) + 1]);
      }
      updateRuns.push(now() - t);
      t = now();
      version = await store.commit();
      commitRuns.push(now() - t);
    }
    const updateMs = Math.min(...updateRuns);
    const commit2Ms = Math.min(...commitRuns);

    // Read-only passes (dedupe-style lookups), keys already hashed.
    const getRuns: number[] = [];
    let hits = 0;
    store = await provider.getStore(version);
    for (let r = 0; r < args.rounds; r++) {
      t = now();
      for (let i = 0; i < n; i++) if (store.get(keys[i]!) !== undefined) hits++;
      getRuns.push(now() - t);
    }
    const getMs = Math.min(...getRuns);
    store.abort();
    if (hits !== n * args.rounds) throw new Error(`expected ${n * args.rounds} hits, got ${hits}`);

    t = now();
    await provider.doMaintenance();
    const snapMs = now() - t;
    keys = [];
    await provider.close();

    const deltaBytes = dirBytes(dir, (f) => f === `${version}.delta`);
    const snapBytes = dirBytes(dir, (f) => f.endsWith(".snapshot"));
    const lmdbBytes = dirBytes(dir, (f) => f.endsWith(".mdb"));

    const fresh = await makeProvider(kind, dir);
    t = now();
    const reloaded = await fresh.getStore(version);
    const reloadMs = now() - t;
    if (reloaded.numKeys !== n) throw new Error(`reload: expected ${n} keys, got ${reloaded.numKeys}`);
    reloaded.abort();
    await fresh.close();

    // lmdb: the warm reopen above reuses the environment; also time a rebuild without it.
    let rebuildMs = Number.NaN;
    if (lmdbBytes) {
      rmSync(path.join(dir, "lmdb"), { recursive: true, force: true });
      const cold = await makeProvider(kind, dir);
      t = now();
      const rebuilt = await cold.getStore(version);
      rebuildMs = now() - t;
      if (rebuilt.numKeys !== n) throw new Error(`rebuild: expected ${n} keys, got ${rebuilt.numKeys}`);
      rebuilt.abort();
      await cold.close();
    }

    const perSec = (ms: number) => fmt(n / (ms / 1000));
    console.log(
      `\n== ${kind}: ${fmt(n)} (window, key) entries, ${windows} windows, key like ${makeKey(0, perWindow)} (${makeKey(0, perWindow).length} chars)`,
    );
    console.log(`  encodeKey (operator cost, for scale) ${fmt(keyMs)} ms  (${perSec(keyMs)} keys/s)`);
    console.log(`  insert  get+put new keys             ${fmt(insertMs)} ms  (${perSec(insertMs)} updates/s)`);
    console.log(`  commit  1 M-entry delta              ${fmt(commit1Ms)} ms`);
    console.log(`  update  get+put existing (new row)   ${fmt(updateMs)} ms  (${perSec(updateMs)} updates/s; best of ${args.rounds})`);
    console.log(`  commit  1 M-entry delta              ${fmt(commit2Ms)} ms`);
    console.log(`  get     existing keys                ${fmt(getMs)} ms  (${perSec(getMs)} gets/s; best of ${args.rounds})`);
    console.log(`  maintenance (snapshot)               ${fmt(snapMs)} ms`);
    console.log(
      `  reload (fresh provider)              ${fmt(reloadMs)} ms${lmdbBytes ? " (lmdb environment reused)" : " (snapshot file)"}`,
    );
    if (lmdbBytes) console.log(`  rebuild from snapshot (lmdb dir deleted) ${fmt(rebuildMs)} ms`);
    console.log(`  JS heap per entry (measured)         ${gc ? fmt((h1 - h0) / n, 1) : "n/a (run with --expose-gc)"} B`);
    console.log(`  memoryUsedBytes() per entry          ${fmt(estimate / n, 1)} B`);
    console.log(`  delta file per entry                 ${fmt(deltaBytes / n, 1)} B;  snapshot per entry ${fmt(snapBytes / n, 1)} B`);
    if (lmdbBytes) console.log(`  lmdb files per entry                 ${fmt(lmdbBytes / n, 1)} B`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = parseArgs(process.argv.slice(2));
now = benchClock(args.clock);
console.log(describeClock(args.clock));
if (!gc) console.log("(run with node --expose-gc for heap figures)");
for (const p of args.providers) await benchProvider(p, args);
