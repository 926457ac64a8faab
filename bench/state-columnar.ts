/**
 * Columnar aggregation state benchmark (not a test): the workload of bench/state.ts (1 M
 * (window, key) entries, 100 windows x 10 000 users, buffers sum + count) on the columnar
 * store (src/state/columnar/), and the same windowed aggregation end to end through the engine
 * with the row operator and with the columnar one.
 *
 *   node --expose-gc --import tsx bench/state-columnar.ts [--keys 1000000] [--rounds 3] [--clock wall|cpu] [--phases store,engine]
 *
 * store phases: insert (lookupOrInsert of 1 M new keys from key vectors + in-place merge of sum
 * and count), commit (1 M-entry delta), memory per entry (measured: heap + ArrayBuffers after GC,
 * with nothing but the provider holding the state; and memoryUsedBytes()), update (lookup of 1 M
 * existing keys from fresh key vectors + merge; best of rounds), get (lookup only), maintenance
 * (snapshot), reload from the files in a fresh provider. Key vectors are built before timing,
 * with fresh string objects each round, as a batch's would be, and collected (gc()) before the
 * clock starts, so the figures charge the store with its own garbage only. Targets from the issue:
 * >= 5 M updates/s, <= 64 B per entry in memory.
 *
 * engine phases: `groupBy(window(ts, "10 seconds"), user).agg(sum(v), count(*))` in update mode
 * over a memory stream, one batch of `--keys` rows inserting every key, then `--rounds` batches
 * updating every key; per batch the time of processAllAvailable (the whole micro-batch: scan,
 * window expression, aggregation, state, commit) for the row operator and the columnar one.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { makeVector, type Vector } from "../src/columnar/vector.js";
import { ColumnarStateProvider, type ColumnarStateStore, columnarSchemaOf } from "../src/state/columnar/index.js";
import { DoubleType, LongType, StringType, TimestampType, WindowStructType } from "../src/types/datatypes.js";
import { benchClock, describeClock } from "./lib/proc.js";

interface Args {
  clock: "wall" | "cpu";
  keys: number;
  rounds: number;
  windows: number;
  phases: string[];
}

function parseArgs(argv: string[]): Args {
  const a: Args = { clock: "wall", keys: 1_000_000, rounds: 3, windows: 100, phases: ["store", "engine"] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--keys") a.keys = Number(argv[++i]);
    else if (argv[i] === "--windows") a.windows = Number(argv[++i]);
    else if (argv[i] === "--rounds") a.rounds = Number(argv[++i]);
    else if (argv[i] === "--clock") a.clock = argv[++i] === "cpu" ? "cpu" : "wall";
    else if (argv[i] === "--phases") a.phases = argv[++i]!.split(",");
  }
  return a;
}

let now: () => number = benchClock("wall");
const gc = (globalThis as { gc?: () => void }).gc;
/**
 * JS heap plus ArrayBuffer backing stores (typed arrays live outside the JS heap). V8 frees
 * dead backing stores lazily after a GC, so collect a few times with pauses in between.
 */
async function memoryUsed(): Promise<number> {
  if (!gc) return Number.NaN;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const WINDOW_MICROS = 10_000_000;
const T0 = 1_700_000_000_000_000;
const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

/** Key vectors of entries 0..n-1 (entry i: window i / perWindow, user i % perWindow), fresh strings. */
function keyVectors(n: number, perWindow: number): Vector[] {
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const users: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const w = Math.floor(i / perWindow);
    start[i] = T0 + w * WINDOW_MICROS;
    end[i] = start[i]! + WINDOW_MICROS;
    // a fresh string each round (its hash is not cached yet), equal to every other round's
    users[i] = `user_${String(i % perWindow).padStart(6, "0")}`;
  }
  return [
    makeVector(WindowStructType, [], null, n, [makeVector(TimestampType, start, null, n), makeVector(TimestampType, end, null, n)]),
    makeVector(StringType, users, null, n),
  ];
}

/** The aggregation's merge of sum(v) and count(*) into the table at the entries (what the operator's kernels do). */
function merge(store: ColumnarStateStore, ids: Int32Array, n: number, v: Float64Array): void {
  const t = store.table;
  const sums = t.bv[0] as Float64Array;
  const seen = t.bvalid[0]!;
  const counts = t.bv[1] as Float64Array;
  for (let i = 0; i < n; i++) {
    const e = ids[i]!;
    sums[e]! += v[i]!;
    seen[e] = 1;
    counts[e]! += 1;
  }
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

async function benchStore(args: Args): Promise<void> {
  const n = args.keys;
  const perWindow = Math.max(1, Math.floor(n / args.windows));
  const schema = columnarSchemaOf(
    [WindowStructType, StringType],
    [
      { type: DoubleType, nullable: true },
      { type: LongType, nullable: false },
    ],
  )!;
  const dir = mkdtempSync(path.join(tmpdir(), "arus-state-bench-columnar-"));
  const opts = { minDeltasForSnapshot: 1, minBatchesToRetain: 100 };
  try {
    const v = new Float64Array(n).fill(0.5);
    const m0 = await memoryUsed();
    const provider = new ColumnarStateProvider([path.join(dir, "0")], schema, opts);
    let keys: Vector[] = keyVectors(n, perWindow);
    let ids = new Int32Array(n);

    let store = await provider.getStore(0);
    gc?.();
    let t = now();
    store.lookupOrInsert(keys, n, ids);
    merge(store, ids, n, v);
    const insertMs = now() - t;
    t = now();
    let version = await store.commit();
    const commit1Ms = now() - t;
    const estimate = store.memoryUsedBytes();
    keys = [];
    ids = new Int32Array(0);
    const m1 = await memoryUsed();

    const updateRuns: number[] = [];
    const commitRuns: number[] = [];
    ids = new Int32Array(n);
    for (let r = 0; r < args.rounds; r++) {
      keys = keyVectors(n, perWindow);
      store = await provider.getStore(version);
      gc?.();
      t = now();
      store.lookupOrInsert(keys, n, ids);
      merge(store, ids, n, v);
      updateRuns.push(now() - t);
      t = now();
      version = await store.commit();
      commitRuns.push(now() - t);
    }
    const updateMs = Math.min(...updateRuns);
    const commit2Ms = Math.min(...commitRuns);

    const getRuns: number[] = [];
    store = await provider.getStore(version);
    for (let r = 0; r < args.rounds; r++) {
      keys = keyVectors(n, perWindow);
      gc?.();
      t = now();
      store.table.lookup(keys, n, ids);
      getRuns.push(now() - t);
      for (let i = 0; i < n; i += 9973) if (ids[i]! < 0) throw new Error(`key ${i} not found`);
    }
    const getMs = Math.min(...getRuns);
    store.abort();
    keys = [];

    t = now();
    await provider.doMaintenance();
    const snapMs = now() - t;
    await provider.close();
    const deltaBytes = dirBytes(dir, (f) => f === `${version}.delta`);
    const snapBytes = dirBytes(dir, (f) => f.endsWith(".snapshot"));

    const fresh = new ColumnarStateProvider([path.join(dir, "0")], schema, opts);
    t = now();
    const reloaded = await fresh.getStore(version);
    const reloadMs = now() - t;
    if (reloaded.numKeys !== n) throw new Error(`reload: expected ${n} keys, got ${reloaded.numKeys}`);
    reloaded.abort();
    await fresh.close();

    const perSec = (ms: number) => fmt(n / (ms / 1000));
    console.log(`\n== columnar store: ${fmt(n)} (window, key) entries, ${args.windows} windows, buffers sum + count`);
    console.log(`  insert  lookupOrInsert new keys + merge  ${fmt(insertMs)} ms  (${perSec(insertMs)} updates/s)`);
    console.log(`  commit  1 M-entry delta                 ${fmt(commit1Ms)} ms`);
    console.log(`  update  lookup existing keys + merge    ${fmt(updateMs)} ms  (${perSec(updateMs)} updates/s; best of ${args.rounds})`);
    console.log(`  commit  1 M-entry delta                 ${fmt(commit2Ms)} ms`);
    console.log(`  get     lookup existing keys            ${fmt(getMs)} ms  (${perSec(getMs)} gets/s; best of ${args.rounds})`);
    console.log(`  maintenance (snapshot)                  ${fmt(snapMs)} ms`);
    console.log(`  reload (fresh provider, snapshot file)  ${fmt(reloadMs)} ms`);
    console.log(`  memory per entry (heap + ArrayBuffers)  ${gc ? fmt((m1 - m0) / n, 1) : "n/a (run with --expose-gc)"} B`);
    console.log(`  memoryUsedBytes() per entry             ${fmt(estimate / n, 1)} B`);
    console.log(`  delta file per entry                    ${fmt(deltaBytes / n, 1)} B;  snapshot per entry ${fmt(snapBytes / n, 1)} B`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchEngine(args: Args): Promise<void> {
  const { functions: F, Session } = await import("../src/index.js");
  const n = args.keys;
  const perWindow = Math.max(1, Math.floor(n / args.windows));
  const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "1").getOrCreate();
  console.log(
    `\n== engine: groupBy(window(ts, "10 seconds"), user).agg(sum(v), count(*)), update mode, ${fmt(n)} rows per batch = ${fmt(n)} keys`,
  );
  for (const columnar of [false, true]) {
    s.conf.set("arus.state.aggregation.columnar", String(columnar));
    const dir = mkdtempSync(path.join(tmpdir(), "arus-state-bench-engine-"));
    try {
      const ms = s.memoryStream("ts TIMESTAMP, user STRING, v DOUBLE");
      const q = await ms
        .toDF()
        .groupBy(F.window("ts", "10 seconds"), "user")
        .agg(F.sum("v").alias("s"), F.count("*").alias("n"))
        .writeStream.format("noop")
        .outputMode("update")
        .option("checkpointLocation", dir)
        .start();
      const times: number[] = [];
      for (let r = 0; r <= args.rounds; r++) {
        const rows = new Array(n);
        for (let i = 0; i < n; i++) {
          const w = Math.floor(i / perWindow);
          rows[i] = { ts: new Date(Math.floor((T0 + w * WINDOW_MICROS) / 1000) + (i % 1000)), user: `user_${i % perWindow}`, v: 0.5 };
        }
        ms.addData(rows);
        const t = now();
        await q.processAllAvailable();
        times.push(now() - t);
      }
      const p = q.lastProgress!;
      await q.stop();
      const op = p.stateOperators[0]!;
      const upd = Math.min(...times.slice(1));
      console.log(
        `  ${columnar ? "columnar" : "row     "} operator: first batch (inserts) ${fmt(times[0]!)} ms; update batches ${times
          .slice(1)
          .map((x) => fmt(x))
          .join(
            ", ",
          )} ms (best ${fmt(n / (upd / 1000))} rows/s); state ${fmt(op.numRowsTotal)} keys, memoryUsedBytes ${fmt(op.memoryUsedBytes / op.numRowsTotal, 1)} B/key`,
      );
      if (p.sink.numOutputRows !== n) console.log(`  (expected ${n} output rows, got ${p.sink.numOutputRows})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

const args = parseArgs(process.argv.slice(2));
now = benchClock(args.clock);
console.log(describeClock(args.clock));
if (!gc) console.log("(run with node --expose-gc for memory figures)");
if (args.phases.includes("store")) await benchStore(args);
if (args.phases.includes("engine")) await benchEngine(args);
