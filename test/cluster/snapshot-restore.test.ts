/**
 * Task snapshots against the real broker, a group-mode worker in its own process
 * (fixtures/snapshot-worker.ts: a running count and sum per key, update mode). The worker is
 * killed with SIGKILL after it wrote snapshots; a run with snapshots off changes every task
 * (a changelog tail after those snapshots); a restart is armed to kill itself in the middle of
 * its restore; a last restart must start both tasks from the first run's snapshots, replay the
 * tail (more than nothing, far less than the changelog), and the output must stay exact — for
 * every key the counts it emitted rise strictly (no batch's update visible twice) and the last
 * one is the oracle's count and sum. Also: a restart on "another machine" restores from the
 * snapshots published to Kafka, the snapshot topic's upload rules, the transactional send's
 * offsets a snapshot relies on, and a restore waiting out a dead worker's open transaction.
 * Needs ARUS_KAFKA_BOOTSTRAP.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, it } from "node:test";
import { WorkerTransactions } from "../../src/connectors/kafka/group/index.js";
import { SnapshotTopic } from "../../src/runtime/cluster/snapshot-topic.js";
import { restoreTask } from "../../src/runtime/cluster/task-restore.js";
import { TaskState } from "../../src/runtime/cluster/task-state.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, readValues, testClient } from "../connectors/kafka-helpers.js";
import { tempDirs } from "../temp-dirs.js";

const bootstrap = kafkaBootstrap() ?? "";
const WORKER = path.join(import.meta.dirname, "fixtures", "snapshot-worker.ts");
const tempDir = tempDirs("arus-snap-restore-");
const KEYS = 400;

interface Restore {
  tasks: number;
  records: number;
  ms: number;
  fromSnapshot: number;
  fromPublishedSnapshot: number;
  snapshotRecords: number;
  offsets: number;
  ignoredSnapshots: number;
}
interface Line {
  ev: string;
  rows?: number;
  restore?: Restore | null;
  message?: string;
}

class Worker {
  readonly lines: Line[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly proc: ChildProcess;

  constructor(env: Record<string, string>) {
    this.proc = spawn(process.execPath, ["--import", "tsx", WORKER], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buf = "";
    this.proc.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith("{")) this.lines.push(JSON.parse(line) as Line);
      }
    });
    this.exited = new Promise((r) => this.proc.once("exit", (code, signal) => r({ code, signal })));
  }

  get rows(): number {
    return this.lines.reduce((n, l) => n + (l.ev === "progress" ? (l.rows ?? 0) : 0), 0);
  }
  get restores(): Restore[] {
    return this.lines.flatMap((l) => (l.ev === "progress" && l.restore ? [l.restore] : []));
  }
  errors(): string[] {
    return this.lines.filter((l) => l.ev === "error").map((l) => String(l.message));
  }
  kill(signal: NodeJS.Signals): void {
    this.proc.kill(signal);
  }
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The output, read_committed: per key strictly rising counts (no update visible twice), the last one the oracle's. */
async function assertExactCounts(output: string, events: number): Promise<void> {
  const expected = new Map<string, { n: number; s: number }>();
  for (let id = 0; id < events; id++) {
    const e = expected.get(`k${id % KEYS}`) ?? { n: 0, s: 0 };
    e.n++;
    e.s += id % 7;
    expected.set(`k${id % KEYS}`, e);
  }
  const last = new Map<string, { n: number; s: number }>();
  await until("every key's final count", async () => {
    last.clear();
    for (const v of await readValues(bootstrap, output, true)) {
      const r = JSON.parse(v) as { k: string; n: number; s: number };
      const prev = last.get(r.k);
      assert.ok(!prev || r.n > prev.n, `key ${r.k}: count ${r.n} after ${prev?.n} (an update written twice)`);
      last.set(r.k, { n: r.n, s: r.s });
    }
    return [...expected].every(([k, e]) => last.get(k)?.n === e.n);
  });
  assert.deepEqual(new Map([...last].sort()), new Map([...expected].sort()));
}

const event = (id: number) => ({ value: JSON.stringify({ id, k: `k${id % KEYS}`, v: id % 7 }), partition: id % 2 });

describe("group mode: restore from task snapshots (real broker, worker processes)", kafkaSkip(), () => {
  it("kill -9, another run without snapshots, a restart killed inside its restore, a restart: snapshot + changelog tail, exact output", {
    timeout: 300_000,
  }, async (t) => {
    const input = await newTopic(bootstrap, 2, "snap-in");
    const output = await newTopic(bootstrap, 1, "snap-out");
    const group = `snap-${input}`;
    const env = {
      ARUS_KAFKA_BOOTSTRAP: bootstrap,
      SNAP_IN: input,
      SNAP_OUT: output,
      SNAP_GROUP: group,
      SNAP_INSTANCE: "w1",
      SNAP_STATE_DIR: await tempDir(),
      SNAP_INTERVAL: process.env.SNAP_TEST_INTERVAL ?? "100",
      SNAP_MAX_OFFSETS: "250",
    };
    const N = [3000, 500, 500];
    const produceRound = (round: number) => {
      const from = N.slice(0, round).reduce((a, b) => a + b, 0);
      return produce(
        bootstrap,
        input,
        Array.from({ length: N[round]! }, (_, i) => event(from + i)),
      );
    };
    await produceRound(0);
    const workers: Worker[] = [];
    const run = (extra: Record<string, string> = {}) => {
      const w = new Worker({ ...env, ...extra });
      workers.push(w);
      return w;
    };
    try {
      // Run 1: every key updated several times, snapshots along the way; then SIGKILL.
      const w1 = run();
      await until("run 1 read the first input", () => w1.rows >= N[0]!);
      w1.kill("SIGKILL");
      await w1.exited;
      assert.deepEqual(w1.errors(), []);
      // Run 2 writes no snapshot (arus.cluster.snapshotInterval 0): its changes are a changelog
      // tail after run 1's snapshots, as if another machine had run the tasks meanwhile.
      await produceRound(1);
      const w2 = run({ SNAP_INTERVAL: "0" });
      await until("run 2 read the second input", () => w2.rows >= N[1]!);
      w2.kill("SIGKILL");
      await w2.exited;
      assert.deepEqual(w2.errors(), []);
      assert.equal(w2.restores[0]?.fromSnapshot, 0, "with snapshots off, a full replay");
      await produceRound(2);

      // Run 3 dies inside its restore (snapshot loaded, tail being replayed): nothing committed.
      const w3 = run({ SNAP_CRASH_POINT: "insideRestore:0" });
      const died = await w3.exited;
      assert.equal(died.signal, "SIGKILL", `run 3 should kill itself during its restore: ${JSON.stringify(w3.lines)}`);
      assert.equal(w3.rows, 0, "run 3 processed nothing");

      // Run 4 restores from run 1's snapshots plus the tail, and finishes the input.
      const w4 = run();
      await until("run 4 read the rest", () => w4.rows >= N[2]!);
      assert.deepEqual(w4.errors(), []);
      const restore = w4.restores[0];
      assert.ok(restore, "run 4 reported its restore");
      const changelog = await readValues(bootstrap, `arus-${group}-changelog`, true);
      t.diagnostic(`restore: ${JSON.stringify(restore)}; the changelog holds ${changelog.length} records`);
      assert.equal(restore.tasks, 2);
      assert.equal(restore.fromSnapshot, 2, `both tasks start from a snapshot: ${JSON.stringify(restore)}`);
      assert.equal(restore.ignoredSnapshots, 0);
      assert.ok(restore.snapshotRecords > 0);
      assert.ok(restore.records > 0, "run 2's changes were replayed from the changelog tail");
      assert.ok(
        restore.records < changelog.length / 2,
        `replayed ${restore.records} changelog records, the changelog holds ${changelog.length}`,
      );

      await assertExactCounts(output, N[0]! + N[1]! + N[2]!);
      w4.kill("SIGTERM");
      assert.equal((await w4.exited).code, 0);
    } finally {
      for (const w of workers) w.kill("SIGKILL");
    }
  });

  it("the worker's transactional send reports the offset of each partition's last record (what a snapshot covers)", async () => {
    const topic = await newTopic(bootstrap, 3, "snap-off");
    const tx = new WorkerTransactions({ bootstrapServers: bootstrap, transactionalId: `tx-${topic}`, transactionTimeoutMs: 20_000 });
    const client = testClient(bootstrap, true);
    const admin = await client.admin();
    const fetcher = await client.fetcher();
    try {
      await tx.init();
      const reported: Map<string, number>[] = [];
      for (const n of [5, 1, 3000]) {
        // A large send goes out in several chunks (sendBatch calls); partition 2 only in some.
        const big = "x".repeat(n > 100 ? 400 : 1);
        const records = Array.from({ length: n }, (_, i) => ({
          topic,
          partition: i % (n === 1 ? 1 : 2),
          key: Buffer.from(`k${i}`),
          value: Buffer.from(`${n}-${i}-${big}`),
          headers: [],
        }));
        tx.begin();
        reported.push(await tx.send(records));
        await tx.commit();
      }
      for (let round = 0; round < reported.length; round++) {
        for (const [k, last] of reported[round]!) {
          const partition = Number(k.slice(k.lastIndexOf("-") + 1));
          const [rec] = await fetcher.fetch({ topic, partition }, last, last + 1);
          assert.equal(rec?.offset, last, `${k} round ${round}`);
          const n = [5, 1, 3000][round]!;
          const lastIndex = Math.max(...Array.from({ length: n }, (_, i) => i).filter((i) => i % (n === 1 ? 1 : 2) === partition));
          assert.equal(Buffer.from(rec!.value!).toString().split("-").slice(0, 2).join("-"), `${n}-${lastIndex}`);
        }
      }
      assert.deepEqual(
        reported.map((m) => [...m.keys()].sort()),
        [[`${topic}-0`, `${topic}-1`], [`${topic}-0`], [`${topic}-0`, `${topic}-1`]],
      );
    } finally {
      await tx.close();
      await Promise.all([admin.close(), fetcher.close()]);
    }
  });

  it("another machine (an empty state directory) restores from the snapshots published to Kafka", { timeout: 240_000 }, async (t) => {
    const input = await newTopic(bootstrap, 2, "snap-in");
    const output = await newTopic(bootstrap, 1, "snap-out");
    const group = `snap-${input}`;
    const env = {
      ARUS_KAFKA_BOOTSTRAP: bootstrap,
      SNAP_IN: input,
      SNAP_OUT: output,
      SNAP_GROUP: group,
      SNAP_INSTANCE: "w1",
      SNAP_INTERVAL: "100",
      SNAP_MAX_OFFSETS: "250",
      SNAP_PUBLISH: "true",
    };
    const N1 = 3000;
    const N2 = 500;
    await produce(
      bootstrap,
      input,
      Array.from({ length: N1 }, (_, i) => event(i)),
    );
    const workers: Worker[] = [];
    try {
      const a = new Worker({ ...env, SNAP_STATE_DIR: await tempDir() });
      workers.push(a);
      await until("machine A read the first input", () => a.rows >= N1);
      a.kill("SIGKILL");
      await a.exited;
      assert.deepEqual(a.errors(), []);
      await produce(
        bootstrap,
        input,
        Array.from({ length: N2 }, (_, i) => event(N1 + i)),
      );
      // The same slot on machine B: nothing in its state directory.
      const b = new Worker({ ...env, SNAP_STATE_DIR: await tempDir() });
      workers.push(b);
      await until("machine B read the rest", () => b.rows >= N2);
      assert.deepEqual(b.errors(), []);
      const restore = b.restores[0];
      assert.ok(restore, "machine B reported its restore");
      const changelog = await readValues(bootstrap, `arus-${group}-changelog`, true);
      t.diagnostic(`restore: ${JSON.stringify(restore)}; the changelog holds ${changelog.length} records`);
      assert.equal(restore.fromPublishedSnapshot, 2, JSON.stringify(restore));
      assert.ok(restore.records < changelog.length, `replayed ${restore.records} of ${changelog.length}`);
      await assertExactCounts(output, N1 + N2);
      b.kill("SIGTERM");
      assert.equal((await b.exited).code, 0);
    } finally {
      for (const w of workers) w.kill("SIGKILL");
    }
  });

  it("the snapshot topic: the last complete upload wins; one cut short or interleaved is never handed out half", async () => {
    const topic = `arus-snaptopic-${randomUUID().slice(0, 8)}-snapshots`;
    const client = testClient(bootstrap, true);
    const admin = await client.admin();
    const fetcher = await client.fetcher();
    const st = await SnapshotTopic.open(client, admin, fetcher, topic, 2, 3_600_000);
    const raw = await client.producer();
    try {
      assert.equal(await st.latest(0), null);
      const file = (n: number, fill: number) => Buffer.alloc(n, fill);
      await st.publish(0, file(2_000_000, 1), 100); // 3 chunks
      await st.publish(1, file(10, 9), 7);
      await st.publish(0, file(1_000, 2), 200);
      let got = await st.latest(0);
      assert.equal(got?.manifest.offset, 200);
      assert.deepEqual(await got!.download(), file(1_000, 2));
      assert.deepEqual(await (await st.latest(1))!.download(), file(10, 9));
      // An upload that died after its chunks: the previous complete one is still found.
      const chunk = (i: number, id: string) => ({
        topic,
        partition: 0,
        key: Buffer.from(`chunk/${i}`),
        value: Buffer.concat([Buffer.from(id), file(500_000, 3)]),
        headers: [],
      });
      await raw.send([chunk(0, "deaddeaddeaddead"), chunk(1, "deaddeaddeaddead")]);
      got = await st.latest(0);
      assert.equal(got?.manifest.offset, 200);
      assert.deepEqual(await got!.download(), file(1_000, 2));
      // A manifest whose chunks are another upload's (two uploaders interleaved): no bytes handed out.
      const end = (await admin.latestOffsets([{ topic, partition: 0 }])).get(`${topic}-0`)!;
      const manifest = { id: "0123456789abcdef", chunks: 2, first: end - 2, bytes: 1_000_000, offset: 300 };
      await raw.send([{ topic, partition: 0, key: Buffer.from("manifest"), value: Buffer.from(JSON.stringify(manifest)), headers: [] }]);
      got = await st.latest(0);
      assert.equal(got?.manifest.offset, 300);
      assert.equal(await got!.download(), null);
    } finally {
      await st.close();
      await raw.close();
      await admin.deleteTopic(topic).catch(() => {});
      await Promise.all([admin.close(), fetcher.close()]);
    }
  });

  it("a restore waits for a dead worker's open transaction on the changelog: committed records after it are not missed", async () => {
    const topic = await newTopic(bootstrap, 1, "snap-cl");
    const tp = { topic, partition: 0 };
    /** Changelog records of one batch putting `kv` into task 0's store. */
    const changes = async (kv: Record<string, number>) => {
      const t = new TaskState(0);
      const store = t.open(0, "default");
      for (const [k, v] of Object.entries(kv)) store.put(k, [v]);
      await store.commit();
      return t.changelogRecords().map((c) => ({ topic, partition: 0, key: c.key, value: c.value, headers: [] }));
    };
    const dead = new WorkerTransactions({ bootstrapServers: bootstrap, transactionalId: `dead-${topic}`, transactionTimeoutMs: 3000 });
    const live = new WorkerTransactions({ bootstrapServers: bootstrap, transactionalId: `live-${topic}`, transactionTimeoutMs: 20_000 });
    const committed = testClient(bootstrap, true);
    const admin = await committed.admin();
    const fetcher = await committed.fetcher();
    const logEnd = await testClient(bootstrap, false).admin();
    const contents = (t: TaskState) => {
      const s = t.open(0, "default");
      const out = Object.fromEntries([...s.entries()].map(([k, v]) => [k, v[0]]));
      s.abort();
      return out;
    };
    try {
      await Promise.all([dead.init(), live.init()]);
      live.begin();
      await live.send(await changes({ a: 1 }));
      await live.commit();
      // A worker killed inside its transaction after sending its changelog records, before its offsets.
      dead.begin();
      await dead.send(await changes({ a: 666, zombie: 1 }));
      // The task's next owner commits after it.
      live.begin();
      await live.send(await changes({ a: 3, b: 2 }));
      await live.commit();

      const upToStable = new TaskState(0);
      await restoreTask({ admin, fetcher }, topic, upToStable);
      assert.deepEqual(contents(upToStable), { a: 1 }, "read_committed alone stops at the open transaction");
      const t0 = Date.now();
      const restored = new TaskState(0);
      const statuses: string[] = [];
      await restoreTask({ admin, fetcher, logEnd }, topic, restored, { stableWaitMs: 60_000, onStatus: (m) => statuses.push(m) });
      assert.deepEqual(contents(restored), { a: 3, b: 2 });
      assert.ok(
        statuses.some((m) => /open transaction/.test(m)),
        statuses.join("\n"),
      );
      const lso = (await admin.latestOffsets([tp])).get(`${topic}-0`);
      const hw = (await logEnd.latestOffsets([tp])).get(`${topic}-0`);
      assert.equal(lso, hw, "the dead transaction was aborted by its timeout");
      assert.ok(Date.now() - t0 < 60_000);
    } finally {
      await Promise.all([dead.close(), live.close(), admin.close(), fetcher.close(), logEnd.close()]);
    }
  });
});
