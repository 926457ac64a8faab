/**
 * Group mode's task restore with and without a local snapshot (docs/scale-out.md, "Restore,
 * snapshots and the bound on restore time"), against the broker of ARUS_KAFKA_BOOTSTRAP:
 *
 *   node --import tsx bench/restore-snapshot.ts [--keys 10000,100000] [--updates 5,20] [--tail 10000]
 *        [--repeat 3] [--no-results-md]
 *
 * For each key count N: a compacted one-partition topic gets a task's changelog as group mode
 * writes it (TaskState's records: N keys, each put `--updates` times (each count in the list is a row), in batches of the N keys;
 * nothing is compacted: Kafka never compacts the active segment). The live state is snapshotted
 * (TaskSnapshots, as a worker writes it) before the last `--tail` records. Then a new TaskState
 * is restored by restoreTask (the code a new owner runs) (a) from the whole changelog, (b) from
 * the snapshot plus the tail; the median of `--repeat` runs of each, the restored states checked
 * equal. Writes the `restore` section of bench/RESULTS.md.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { kafkajsClient } from "../src/connectors/kafka/client-kafkajs.js";
import { restoreTask } from "../src/runtime/cluster/task-restore.js";
import { TaskSnapshots } from "../src/runtime/cluster/task-snapshots.js";
import { TaskState } from "../src/runtime/cluster/task-state.js";
import { loadAverage } from "./lib/proc.js";
import { updateResultsMd } from "./lib/results-md.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
if (!bootstrap) throw new Error("bench/restore-snapshot.ts: set ARUS_KAFKA_BOOTSTRAP");
const keyCounts = arg("keys", "10000,100000").split(",").map(Number);
const updateCounts = arg("updates", "5").split(",").map(Number);
const tail = Number(arg("tail", "10000"));
const repeat = Number(arg("repeat", "3"));
const load0 = loadAverage();

const client = kafkajsClient({
  bootstrapServers: bootstrap,
  clientId: "arus-bench-restore",
  connectTimeoutMs: 5000,
  requestTimeoutMs: 30000,
  readCommitted: true,
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One batch: put `keys` keys (value: round and key index) into the live state; its changelog records sent. */
async function batch(live: TaskState, topic: string, keys: readonly number[], round: number, send: (r: unknown[]) => Promise<void>) {
  const store = live.open(0, "default");
  for (const k of keys) store.put(`k${k}`, [round, k, `v${round}-${k}`]);
  await store.commit();
  const records = live.changelogRecords().map((c) => ({ topic, partition: 0, key: c.key, value: c.value, headers: [] }));
  live.publish();
  for (let i = 0; i < records.length; i += 5000) await send(records.slice(i, i + 5000));
}

interface Row {
  keys: number;
  updates: number;
  changelog: number;
  tail: number;
  fullMs: number;
  snapMs: number;
  snapshotBytes: number;
  writeMs: number;
}

async function measure(n: number, updates: number): Promise<Row> {
  const admin = await client.admin();
  const fetcher = await client.fetcher();
  const producer = await client.producer();
  const topic = `bench-restore-${n}x${updates}-${process.pid}`;
  const dir = mkdtempSync(path.join(tmpdir(), "arus-bench-restore-"));
  try {
    await admin.createTopic(topic, 1, { "cleanup.policy": "compact" });
    const live = new TaskState(0);
    const all = Array.from({ length: n }, (_, i) => i);
    const send = (r: unknown[]) => producer.send(r as never);
    for (let round = 0; round < updates; round++) await batch(live, topic, all, round, send);
    const tp = { topic, partition: 0 };
    const snapAt = (await admin.offsetRange([tp])).get(`${topic}-0`)!.latest;
    const snaps = new TaskSnapshots(
      { dir, interval: 1, maxAgeMs: 3_600_000 },
      { group: "bench", changelog: topic, tasks: 1, fingerprint: "bench" },
    );
    await snaps.restored(live, snapAt, null, 0);
    const w0 = performance.now();
    await snaps.write(live);
    const writeMs = performance.now() - w0;
    const snapshotBytes = statSync(snaps.file(0)).size;
    for (let i = 0; i < tail; i += n) await batch(live, topic, all.slice(0, Math.min(n, tail - i)), updates + i, send);
    const changelog = (await admin.offsetRange([tp])).get(`${topic}-0`)!.latest;
    const full: number[] = [];
    const fromSnap: number[] = [];
    let tailRecords = 0;
    for (let r = 0; r < repeat; r++) {
      const a = new TaskState(0);
      const t0 = performance.now();
      await restoreTask({ admin, fetcher }, topic, a);
      full.push(performance.now() - t0);
      const b = new TaskState(0);
      const reader = new TaskSnapshots(
        { dir, interval: 0x7fffffff, maxAgeMs: 3_600_000 },
        { group: "bench", changelog: topic, tasks: 1, fingerprint: "bench" },
      );
      const t1 = performance.now();
      const res = await restoreTask({ admin, fetcher }, topic, b, { snapshots: reader });
      fromSnap.push(performance.now() - t1);
      if (!res.fromSnapshot) throw new Error(`the snapshot was not used: ${res.ignored}`);
      tailRecords = res.records;
      for (const s of [a, b]) {
        if (s.numKeys !== live.numKeys) throw new Error(`restored ${s.numKeys} keys, the live state has ${live.numKeys}`);
        const st = s.open(0, "default");
        const want = live.open(0, "default");
        for (const k of [0, n - 1, Math.floor(n / 2)]) {
          if (JSON.stringify(st.get(`k${k}`)) !== JSON.stringify(want.get(`k${k}`))) throw new Error(`key k${k} differs after restore`);
        }
        st.abort();
        want.abort();
      }
    }
    return { keys: n, updates, changelog, tail: tailRecords, fullMs: median(full), snapMs: median(fromSnap), snapshotBytes, writeMs };
  } finally {
    await admin.deleteTopic(topic).catch(() => {});
    await Promise.all([admin.close(), fetcher.close(), producer.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const updates of updateCounts) {
  for (const n of keyCounts) {
    const row = await measure(n, updates);
    rows.push(row);
    console.log(JSON.stringify(row));
  }
}
const cmd = `node --import tsx bench/restore-snapshot.ts --keys ${keyCounts.join(",")} --updates ${updateCounts.join(",")} --tail ${tail} --repeat ${repeat}`;
const head = `${new Date().toISOString().slice(0, 16)} UTC, \`${cmd}\`, Node ${process.version}, ${cpus().length} CPUs, load ${load0} at the start and ${loadAverage()} at the end (the machine is shared with other runs: the figures are noisy), the broker on the same machine.`;
const table = [
  "| task keys | puts per key | changelog offsets | full replay | snapshot + tail | tail records replayed | speed-up | snapshot file | snapshot write |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.keys} | ${r.updates} | ${r.changelog} | ${Math.round(r.fullMs)} ms | ${Math.round(r.snapMs)} ms | ${r.tail} | ${(r.fullMs / r.snapMs).toFixed(1)}× | ${(r.snapshotBytes / 1e6).toFixed(1)} MB | ${Math.round(r.writeMs)} ms |`,
  ),
].join("\n");
const body = `${head}\n\n${table}`;
console.log(body);
if (!process.argv.includes("--no-results-md")) console.log("RESULTS.md sections:", updateResultsMd({ restore: body }));
process.exit(0);
