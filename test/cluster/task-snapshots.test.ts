/**
 * Group-mode task snapshots without a broker: a task's changelog partition is modelled in
 * memory (offsets, transaction markers, aborted transactions, compaction), and the real
 * restoreTask reads it through the admin/fetcher calls it makes. Restoring from a snapshot plus
 * the changelog's tail must give exactly the state a full replay gives (and the live state),
 * whatever the puts, removals, aborts, compaction and snapshot points; a snapshot that does not
 * match the changelog (beyond its end, before its start, recreated, damaged, too old, another
 * pipeline's) must be ignored, never half used.
 */
import assert from "node:assert/strict";
import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { FetchedRecord, KafkaAdmin, KafkaFetcher, OutRecord } from "../../src/connectors/kafka/client.js";
import { restoreTask } from "../../src/runtime/cluster/task-restore.js";
import { type SnapshotIdentity, TaskSnapshots } from "../../src/runtime/cluster/task-snapshots.js";
import { TaskState } from "../../src/runtime/cluster/task-state.js";
import { tempDirs } from "../temp-dirs.js";

const CHANGELOG = "arus-g-changelog";
const ID: SnapshotIdentity = { group: "g", changelog: CHANGELOG, tasks: 4, fingerprint: "f1" };
const P = 2;
const tempDir = tempDirs("arus-snap-");

/** Changelog partition P as a read_committed reader sees it, plus the offsets aborted records and markers take. */
class Log {
  visible: { offset: number; key: Uint8Array; value: Uint8Array | null }[] = [];
  earliest = 0;
  end = 0;

  /** One transaction's records: offsets from `end`, then its marker. */
  append(records: readonly { key: Uint8Array; value: Uint8Array | null }[], committed: boolean): number {
    const base = this.end;
    if (committed) for (const [i, r] of records.entries()) this.visible.push({ offset: base + i, key: r.key, value: r.value });
    this.end += records.length + 1;
    return base + records.length - 1;
  }

  /** Log compaction: only the newest record of each key stays (tombstones too, as within delete.retention.ms). */
  compact(): void {
    const newest = new Map<string, number>();
    for (const r of this.visible) newest.set(Buffer.from(r.key).toString("latin1"), r.offset);
    this.visible = this.visible.filter((r) => newest.get(Buffer.from(r.key).toString("latin1")) === r.offset);
  }

  admin(): KafkaAdmin {
    return {
      offsetRange: async () => new Map([[`${CHANGELOG}-${P}`, { earliest: this.earliest, latest: this.end }]]),
    } as unknown as KafkaAdmin;
  }

  fetcher(): KafkaFetcher & { fetched: number } {
    const log = this;
    return {
      fetched: 0,
      async fetch(_tp, from, until): Promise<FetchedRecord[]> {
        const out = log.visible
          .filter((r) => r.offset >= from && r.offset < until && r.offset >= log.earliest)
          .map((r) => ({ key: r.key, value: r.value, offset: r.offset, timestamp: 0, timestampType: 0, headers: [] }));
        this.fetched += out.length;
        return out as unknown as FetchedRecord[];
      },
    } as KafkaFetcher & { fetched: number };
  }
}

function contents(t: TaskState): string {
  const out: [string, unknown][] = [];
  for (const store of ["default", "other"]) {
    const s = t.open(0, store);
    for (const [k, v] of s.entries()) out.push([`${store}/${k}`, v]);
    s.abort();
  }
  return JSON.stringify(out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/** One batch of a task: its ops in one store, then the transaction commits or aborts. */
async function runBatch(live: TaskState, log: Log, snaps: TaskSnapshots, b: { store: string; ops: Op[]; commits: boolean }): Promise<void> {
  const store = live.open(0, b.store);
  for (const o of b.ops) {
    if (o.kind === "put") store.put(o.key, [o.value, `v${o.value}`]);
    else store.remove(o.key);
  }
  await store.commit();
  const recs = live.changelogRecords();
  const last = log.append(recs, b.commits);
  if (!b.commits) {
    live.discard();
    return;
  }
  live.publish();
  const out: OutRecord[] = recs.map((r) => ({ topic: CHANGELOG, partition: P, key: r.key, value: r.value, headers: [] }));
  const sent = recs.length ? new Map([[`${CHANGELOG}-${P}`, last]]) : new Map<string, number>();
  await snaps.committed([live], out, sent);
}

type Op = { kind: "put"; key: string; value: number } | { kind: "remove"; key: string };
const KEYS = ["a", "b", "c", "d\u0000x", "é", "k5", "k6", "k7"];
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("put" as const), key: fc.constantFrom(...KEYS), value: fc.integer() }),
  fc.record({ kind: fc.constant("remove" as const), key: fc.constantFrom(...KEYS) }),
);
const batchArb = fc.record({
  ops: fc.array(op, { maxLength: 8 }),
  store: fc.constantFrom("default", "other"),
  commits: fc.boolean(),
  compactAfter: fc.boolean(),
  restartAfter: fc.nat({ max: 9 }),
});

async function restore(log: Log, snaps: TaskSnapshots | null) {
  const state = new TaskState(P);
  const fetcher = log.fetcher();
  const r = await restoreTask({ admin: log.admin(), fetcher }, CHANGELOG, state, { snapshots: snaps });
  return { state, r, fetched: fetcher.fetched };
}

describe("group mode: task snapshots", () => {
  it("snapshot + changelog tail = full replay = the live state (puts, removals, aborts, compaction, restarts)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batchArb, { maxLength: 25 }), fc.integer({ min: 1, max: 12 }), async (batches, interval) => {
        const dir = await tempDir();
        const log = new Log();
        const options = { dir, interval, maxAgeMs: 3_600_000 };
        let live = new TaskState(P);
        let snaps = new TaskSnapshots(options, ID);
        await restore(log, snaps).then(({ state }) => (live = state));
        for (const b of batches) {
          await runBatch(live, log, snaps, b);
          if (b.compactAfter) log.compact();
          if (b.restartAfter === 0) {
            // A new worker process: a fresh snapshot cache object over the same directory.
            snaps = new TaskSnapshots(options, ID);
            const { state } = await restore(log, snaps);
            assert.equal(contents(state), contents(live), "a restart restores the live state");
            live = state;
          }
        }
        const full = await restore(log, null);
        const fromSnap = await restore(log, new TaskSnapshots(options, ID));
        assert.equal(contents(full.state), contents(live));
        assert.equal(contents(fromSnap.state), contents(live));
        assert.ok(fromSnap.fetched <= full.fetched, "a snapshot never makes the replay longer");
        assert.equal(fromSnap.r.ignored, null);
      }),
      { numRuns: 60 },
    );
  });

  it("a restore replays only the tail after the newest snapshot, at most max(interval, keys) records", async () => {
    const dir = await tempDir();
    const log = new Log();
    const snaps = new TaskSnapshots({ dir, interval: 10, maxAgeMs: 3_600_000 }, ID);
    const live = (await restore(log, snaps)).state;
    for (let i = 0; i < 50; i++) {
      await runBatch(live, log, snaps, { store: "default", ops: [{ kind: "put", key: `k${i % 7}`, value: i }], commits: true });
    }
    assert.ok(snaps.written >= 4, `snapshots written: ${snaps.written}`);
    const full = await restore(log, null);
    const fromSnap = await restore(log, new TaskSnapshots({ dir, interval: 10, maxAgeMs: 3_600_000 }, ID));
    assert.equal(full.r.records, 50);
    assert.equal(fromSnap.r.fromSnapshot, true);
    assert.equal(fromSnap.r.snapshotRecords, 7);
    assert.ok(fromSnap.r.records < 10, `tail replayed: ${fromSnap.r.records}`);
    assert.equal(contents(fromSnap.state), contents(live));
  });

  /** A task with a snapshot at the end of 20 committed batches; the snapshot file's path. */
  async function withSnapshot(identity = ID) {
    const dir = await tempDir();
    const log = new Log();
    const options = { dir, interval: 5, maxAgeMs: 3_600_000 };
    const snaps = new TaskSnapshots(options, identity);
    const live = (await restore(log, snaps)).state;
    for (let i = 0; i < 20; i++) {
      await runBatch(live, log, snaps, { store: "other", ops: [{ kind: "put", key: `k${i % 4}`, value: i }], commits: true });
    }
    await snaps.flush([live]);
    const file = snaps.file(P);
    return { dir, log, options, live, file };
  }

  it("a worker's first snapshot write sweeps snapshots past the age limit and crashed writers' temp files, nothing else", async () => {
    const dir = await tempDir();
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    for (const name of ["task-7.snap", "task-1.snap.123-dead.tmp", "notes.txt"]) {
      await writeFile(path.join(dir, name), "x");
      await utimes(path.join(dir, name), twoHoursAgo, twoHoursAgo);
    }
    await writeFile(path.join(dir, "task-8.snap"), "x"); // young: it stays, whatever it holds
    const log = new Log();
    const snaps = new TaskSnapshots({ dir, interval: 5, maxAgeMs: 3_600_000 }, ID);
    const live = (await restore(log, snaps)).state;
    for (let i = 0; i < 10; i++) {
      await runBatch(live, log, snaps, { store: "other", ops: [{ kind: "put", key: `k${i % 4}`, value: i }], commits: true });
    }
    await snaps.flush([live]);
    assert.deepEqual((await readdir(dir)).sort(), ["notes.txt", `task-${P}.snap`, "task-8.snap"]);
  });

  it("a snapshot beyond the end of a truncated or recreated changelog is ignored: full replay", async () => {
    const { log, options } = await withSnapshot();
    // The changelog recreated: fewer records than the snapshot covers.
    const fresh = new Log();
    const other = new TaskState(P);
    const s = other.open(0, "other");
    s.put("z", [1, "v1"]);
    await s.commit();
    fresh.append(other.changelogRecords(), true);
    other.publish();
    const { state, r } = await restore(fresh, new TaskSnapshots(options, ID));
    assert.equal(r.fromSnapshot, false);
    assert.match(String(r.ignored), /beyond the changelog's end/);
    assert.equal(contents(state), contents(other));
    assert.ok(log.end > fresh.end);
  });

  it("a recreated changelog that grew past the snapshot's offset is caught by the witness record", async () => {
    const { log, options } = await withSnapshot();
    const fresh = new Log();
    const other = new TaskState(P);
    for (let i = 0; i < 30; i++) {
      const s = other.open(0, "other");
      s.put(`n${i}`, [i, `x${i}`]);
      await s.commit();
      fresh.append(other.changelogRecords(), true);
      other.publish();
    }
    assert.ok(fresh.end > log.end);
    const { state, r } = await restore(fresh, new TaskSnapshots(options, ID));
    assert.equal(r.fromSnapshot, false);
    assert.match(String(r.ignored), /not the one the snapshot folded in/);
    assert.equal(contents(state), contents(other));
  });

  it("a changelog whose earliest offset moved past the snapshot is not patched with it", async () => {
    const { log, options } = await withSnapshot();
    log.earliest = log.end; // records deleted (deleteRecords / retention)
    const { r } = await restore(log, new TaskSnapshots(options, ID));
    assert.equal(r.fromSnapshot, false);
    assert.match(String(r.ignored), /now starts at/);
  });

  it("a damaged, torn, too old or other pipeline's snapshot is ignored; a crashed writer's temp file is harmless", async () => {
    const { log, options, live, file } = await withSnapshot();
    const good = await readFile(file);
    await writeFile(`${file}.999-dead.tmp`, good.subarray(0, 10));
    const ok = await restore(log, new TaskSnapshots(options, ID));
    assert.equal(ok.r.fromSnapshot, true);
    assert.equal(contents(ok.state), contents(live));
    const flipped = Buffer.from(good);
    flipped[flipped.length - 40]! ^= 1;
    for (const [bytes, why] of [
      [flipped, /checksum/],
      [good.subarray(0, good.length - 7), /checksum|not a snapshot/],
      [Buffer.from("hello"), /not a snapshot/],
    ] as const) {
      await writeFile(file, bytes);
      const { state, r } = await restore(log, new TaskSnapshots(options, ID));
      assert.equal(r.fromSnapshot, false);
      assert.match(String(r.ignored), why);
      assert.equal(contents(state), contents(live));
    }
    for (const [snaps, why] of [
      [new TaskSnapshots(options, { ...ID, fingerprint: "f2" }), /another pipeline/],
      [new TaskSnapshots(options, { ...ID, tasks: 8 }), /8/],
      [new TaskSnapshots({ ...options, maxAgeMs: 1 }, ID), /older than/],
    ] as const) {
      await writeFile(file, good); // the restore before replaced it with a snapshot of its own
      await new Promise((r) => setTimeout(r, 5));
      const { state, r } = await restore(log, snaps);
      assert.equal(r.fromSnapshot, false);
      assert.match(String(r.ignored), why);
      assert.equal(contents(state), contents(live));
    }
    assert.equal(path.dirname(file), options.dir);
  });
});
