/**
 * The durability order of a batch's checkpoint files in the default mode (docs/reliability.md,
 * "What is durable before what"), observed on Node's own fs calls while a checkpointed windowed
 * count runs: every fdatasync and directory fsync (with a random delay before it completes, so
 * a missing wait would show up as a reordering), every rename and link, and every sink call.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tmpOrder = tempDirsSync("arus-order-");
const tmpOrderFail = tempDirsSync("arus-order-fail-");

type Ev = { kind: "synced" | "dirSynced" | "named" | "sink"; file: string; batch?: number };

const at = (sec: number) => new Date(sec * 1000);

/** Records the fs events of `body` (paths relative to `root`), delaying each sync by `delays()` ms. */
async function recordFs(root: string, delays: () => number, body: (events: Ev[]) => Promise<void>): Promise<Ev[]> {
  const events: Ev[] = [];
  const rel = (p: unknown) => path.relative(root, String(p));
  const fdPath = new Map<number, string>();
  const real = {
    openSync: fs.openSync,
    fdatasync: fs.fdatasync,
    fdatasyncSync: fs.fdatasyncSync,
    fsync: fs.fsync,
    linkSync: fs.linkSync,
    renameSync: fs.renameSync,
  };
  const later = (cb: () => void) => setTimeout(cb, delays());
  const patched = fs as unknown as Record<string, unknown>;
  patched.openSync = (p: fs.PathLike, ...rest: unknown[]) => {
    const fd = (real.openSync as (...a: unknown[]) => number)(p, ...rest);
    fdPath.set(fd, rel(p));
    return fd;
  };
  patched.fdatasync = (fd: number, cb: (e: NodeJS.ErrnoException | null) => void) =>
    real.fdatasync(fd, (e) => {
      const file = fdPath.get(fd)!;
      later(() => {
        if (!e) events.push({ kind: "synced", file });
        cb(e);
      });
    });
  patched.fdatasyncSync = (fd: number) => {
    real.fdatasyncSync(fd);
    events.push({ kind: "synced", file: fdPath.get(fd)! });
  };
  patched.fsync = (fd: number, cb: (e: NodeJS.ErrnoException | null) => void) =>
    real.fsync(fd, (e) => {
      const file = fdPath.get(fd)!;
      later(() => {
        if (!e) events.push({ kind: "dirSynced", file });
        cb(e);
      });
    });
  patched.linkSync = (from: fs.PathLike, to: fs.PathLike) => {
    real.linkSync(from, to);
    events.push({ kind: "named", file: rel(to), from: rel(from) } as Ev);
  };
  patched.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    real.renameSync(from, to);
    events.push({ kind: "named", file: rel(to), from: rel(from) } as Ev);
  };
  try {
    await body(events);
  } finally {
    Object.assign(patched, real);
  }
  return events;
}

/** A 10-second windowed count over one-row batches, checkpointed, into a foreachBatch that logs its calls. */
async function runQuery(dir: string, events: Ev[], rows: number[]): Promise<void> {
  const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
  s.conf.unset("arus.checkpoint.fsync");
  const ms = s.memoryStream("ts TIMESTAMP");
  const q = await ms
    .toDF()
    .withWatermark("ts", "5 seconds")
    .groupBy(F.window("ts", "10 seconds"))
    .agg(F.count("*").alias("n"))
    .writeStream.outputMode("update")
    .option("checkpointLocation", dir)
    .foreachBatch(async (_df, batchId) => {
      events.push({ kind: "sink", file: "", batch: batchId });
    })
    .start();
  try {
    for (const sec of rows) {
      ms.addData([{ ts: at(sec) }]);
      await q.processAllAvailable();
    }
  } finally {
    await q.stop();
  }
}

/** Index of the first event matching, or -1. */
const find = (events: Ev[], pred: (e: Ev) => boolean) => events.findIndex(pred);

function checkOrder(events: Ev[]): number {
  const tmpOf = (target: string) => (e: Ev) =>
    e.kind === "synced" && path.dirname(e.file) === path.dirname(target) && path.basename(e.file).startsWith(`.${path.basename(target)}.`);
  const named = (file: string) => (e: Ev) => e.kind === "named" && e.file === file;
  const sinks = events.flatMap((e, i) => (e.kind === "sink" ? [{ i, n: e.batch! }] : []));
  assert.ok(sinks.length >= 4, `${sinks.length} sink calls`);
  for (const { i: sinkAt, n } of sinks) {
    const offsets = path.join("offsets", String(n));
    const offNamed = find(events, named(offsets));
    assert.ok(offNamed >= 0 && offNamed < sinkAt, `offsets/${n} named before batch ${n}'s sink`);
    const offSynced = find(events, tmpOf(offsets));
    assert.ok(offSynced >= 0 && offSynced < offNamed, `offsets/${n}'s data synced before it is named`);
    const dirSynced = events.findIndex((e, j) => j > offNamed && e.kind === "dirSynced" && e.file === "offsets");
    assert.ok(dirSynced > offNamed && dirSynced < sinkAt, `the offsets folder synced after offsets/${n} is named, before the sink`);
    if (n > 0) {
      const prevCommit = find(events, named(path.join("commits", String(n - 1))));
      assert.ok(prevCommit >= 0 && prevCommit < offNamed, `commits/${n - 1} named before offsets/${n}`);
    }
    const commit = path.join("commits", String(n));
    const commitNamed = find(events, named(commit));
    assert.ok(commitNamed > sinkAt, `commits/${n} named after batch ${n}'s sink`);
    const commitSynced = find(events, tmpOf(commit));
    assert.ok(commitSynced >= 0 && commitSynced < commitNamed, `commits/${n}'s data synced before it is named`);
    // The state this batch wrote (version n + 1) and its writes record: synced and named before commits/N.
    for (const e of events) {
      if (e.kind !== "named") continue;
      const isDelta = /^state\/0\/\d+\//.test(e.file) && path.basename(e.file) === `${n + 1}.delta`;
      const isRecord = e.file === path.join("state", "0", "_metadata", "writes", String(n));
      if (!isDelta && !isRecord) continue;
      const j = events.indexOf(e);
      assert.ok(j < commitNamed, `${e.file} named before commits/${n}`);
      assert.ok(j > offNamed, `${e.file} named after offsets/${n} (its sync starts once offsets/${n} is named)`);
      const s = find(events, tmpOf(e.file));
      assert.ok(s >= 0 && s < j, `${e.file} synced before it is named`);
    }
  }
  return sinks.length;
}

describe("checkpoint durability order (arus.checkpoint.fsync=true)", () => {
  it("offsets/N is synced, named and its folder synced before batch N's sink; commits/N-1 before offsets/N; state and records after offsets/N, before commits/N", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 8, maxLength: 8 }), async (delayList) => {
        const dir = tmpOrder();
        let k = 0;
        const events = await recordFs(
          dir,
          () => delayList[k++ % delayList.length]!,
          (ev) => runQuery(dir, ev, [1, 2, 12, 13, 25, 26]),
        );
        checkOrder(events);
        // The commits of every batch are in place once the query stopped.
        const sinks = events.filter((e) => e.kind === "sink").map((e) => e.batch!);
        for (const n of sinks) assert.ok(fs.existsSync(path.join(dir, "commits", String(n))), `commits/${n} after stop`);
      }),
      { numRuns: 4 },
    );
  });
});

describe("a query that fails mid-batch (arus.checkpoint.fsync=true)", () => {
  it("terminates only after the failed batch's offsets/N is synced and named: nothing writes to the checkpoint after", async () => {
    const dir = tmpOrderFail();
    let afterEnd = -1;
    const events = await recordFs(
      dir,
      () => 40, // every sync slower than executing the batch, so the failure comes first
      async (ev) => {
        const s = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
        s.conf.unset("arus.checkpoint.fsync");
        const ms = s.memoryStream("v INT");
        const q = await ms
          .toDF()
          .select(F.expr("v / 0").alias("x"))
          .writeStream.format("memory")
          .queryName("fails_mid_batch")
          .option("checkpointLocation", dir)
          .start();
        ms.addData([{ v: 1 }]);
        await assert.rejects(q.awaitTermination(), /DIVIDE_BY_ZERO/);
        afterEnd = ev.length;
        await new Promise((r) => setTimeout(r, 200));
      },
    );
    assert.ok(afterEnd >= 0);
    assert.deepEqual(events.slice(afterEnd), [], "fs events after the query terminated");
    assert.ok(fs.existsSync(path.join(dir, "offsets", "0")), "offsets/0 in place when the query has terminated");
  });
});
