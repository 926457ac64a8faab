/**
 * The checkpoint's write-ahead logs under failure: FileMetadataLog and writeAtomic with a file
 * system that fails on write, fsync or rename (the CheckpointFs seam), then corrupt files, then
 * two writers on one log. Also the state store provider's delta/snapshot writes through the
 * same seam. What must hold every time: no partial file ever becomes visible under its final
 * name, the error reaches the caller, and a retry once the fault is gone succeeds.
 */
import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { type CheckpointFs, nodeFs, writeAtomic } from "../../src/checkpoint/atomic-file.js";
import { CheckpointCorruptError, ConcurrentUpdateError, FileMetadataLog, type LogCodec } from "../../src/checkpoint/metadata-log.js";
import { commitCodec, type OffsetSeq, offsetCodec } from "../../src/checkpoint/offset-log.js";
import { MemoryStateStoreProvider } from "../../src/state/memory-provider.js";
import { tempDirs } from "../temp-dirs.js";

const tempDir = tempDirs("arus-log-");

type Op = "writeFile" | "sync" | "rename" | "unlink";

/** nodeFs with scheduled failures: `fail(op, n)` makes the next n calls of op throw. */
class FaultyFs implements CheckpointFs {
  private readonly faults = new Map<Op, number>();
  readonly calls: string[] = [];
  /** With a write fault, write this many bytes of the data before failing (a torn write). */
  tornBytes = 0;

  fail(op: Op, times = 1): this {
    this.faults.set(op, times);
    return this;
  }
  private check(op: Op, p: string): void {
    this.calls.push(`${op} ${path.basename(p)}`);
    const n = this.faults.get(op) ?? 0;
    if (n > 0) {
      this.faults.set(op, n - 1);
      const e = new Error(`injected ${op} failure on ${p}`) as NodeJS.ErrnoException;
      e.code = op === "writeFile" ? "ENOSPC" : "EIO";
      throw e;
    }
  }
  async writeFile(p: string, data: Uint8Array | string): Promise<void> {
    if ((this.faults.get("writeFile") ?? 0) > 0 && this.tornBytes > 0) {
      await nodeFs.writeFile(p, typeof data === "string" ? data.slice(0, this.tornBytes) : data.subarray(0, this.tornBytes));
    }
    this.check("writeFile", p);
    return nodeFs.writeFile(p, data);
  }
  async sync(p: string): Promise<void> {
    this.check("sync", p);
    return nodeFs.sync(p);
  }
  async rename(from: string, to: string, overwrite: boolean): Promise<void> {
    this.check("rename", to);
    return nodeFs.rename(from, to, overwrite);
  }
  async unlink(p: string): Promise<void> {
    this.check("unlink", p);
    return nodeFs.unlink(p);
  }
  readFile = nodeFs.readFile;
  readdir = nodeFs.readdir;
  mkdir = nodeFs.mkdir;
  exists = nodeFs.exists;
}

const offsets = (n: number): OffsetSeq => ({
  metadata: { batchWatermarkMs: n * 1000, batchTimestampMs: 1_700_000_000_000 + n, conf: { "spark.sql.shuffle.partitions": "2" } },
  offsets: [{ logOffset: n }, null],
});

async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

describe("FileMetadataLog with a failing file system", () => {
  for (const op of ["writeFile", "sync", "rename"] as const) {
    it(`fail on ${op}: the error surfaces, nothing is visible, no temp file is left, a retry works`, async () => {
      const dir = await tempDir();
      const fsys = new FaultyFs();
      const log = new FileMetadataLog(dir, offsetCodec, fsys);
      await log.add(0, offsets(0));
      fsys.tornBytes = 5;
      fsys.fail(op);
      await assert.rejects(
        log.add(1, offsets(1)),
        (e: NodeJS.ErrnoException) => e.message.includes(`injected ${op} failure`) && e.code !== undefined,
      );
      assert.deepEqual(await listing(dir), ["0"], "only batch 0: no final file, no temp file");
      assert.equal(await log.get(1), undefined);
      assert.equal((await log.latest())?.batchId, 0);
      assert.deepEqual(await log.ids(), [0]);
      // The fault is gone: the same add succeeds with the full content.
      await log.add(1, offsets(1));
      assert.deepEqual(await log.get(1), offsets(1));
      assert.deepEqual(await listing(dir), ["0", "1"]);
    });
  }

  it("writes temp file, fsync, then a no-overwrite rename, in that order", async () => {
    const dir = await tempDir();
    const fsys = new FaultyFs();
    await new FileMetadataLog(dir, commitCodec, fsys).add(3, { nextBatchWatermarkMs: 7 });
    assert.equal(fsys.calls.length, 3);
    assert.match(fsys.calls[0]!, /^writeFile \.3\.[0-9a-f-]{36}\.tmp$/);
    assert.match(fsys.calls[1]!, /^sync \.3\.[0-9a-f-]{36}\.tmp$/);
    assert.equal(fsys.calls[2], "rename 3");
    assert.equal(await readFile(path.join(dir, "3"), "utf8"), 'v1\n{"nextBatchWatermarkMs":7}');
  });

  it("a temp file that could not be cleaned up is never read as an entry", async () => {
    const dir = await tempDir();
    const fsys = new FaultyFs().fail("rename").fail("unlink");
    const log = new FileMetadataLog(dir, offsetCodec, fsys);
    await assert.rejects(log.add(0, offsets(0)), /injected rename failure/);
    const left = await listing(dir);
    assert.equal(left.length, 1);
    assert.match(left[0]!, /^\.0\..*\.tmp$/);
    assert.deepEqual(await log.ids(), []);
    assert.equal(await log.latest(), undefined);
    await log.add(0, offsets(0));
    assert.deepEqual(await log.ids(), [0]);
  });

  it("writeAtomic keeps the old content when an overwrite fails", async () => {
    const dir = await tempDir();
    const target = path.join(dir, "5.snapshot");
    await writeAtomic(nodeFs, target, "old", true);
    for (const op of ["writeFile", "sync", "rename"] as const) {
      const fsys = new FaultyFs().fail(op);
      fsys.tornBytes = 2;
      await assert.rejects(writeAtomic(fsys, target, "new content", true), /injected/);
      assert.equal(await readFile(target, "utf8"), "old");
      assert.deepEqual(await listing(dir), ["5.snapshot"]);
    }
    await writeAtomic(new FaultyFs(), target, "new content", true);
    assert.equal(await readFile(target, "utf8"), "new content");
  });
});

describe("FileMetadataLog: corrupt files name the file", () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ["empty", "", /is empty/],
    ["truncated after the version line", "v1", /truncated/],
    ["truncated inside the JSON", 'v1\n{"batchWatermarkMs":10', /cannot be parsed/],
    ["garbage", "\u0000\u0001garbage bytes", /first line should be a version like "v1"/],
    [
      "a future version v9",
      'v9\n{"batchWatermarkMs":0,"batchTimestampMs":0}\n{"logOffset":0}',
      /newer version of the log format \(v9; this arus reads up to v1\)/,
    ],
    ["metadata without its fields", "v1\n{}\n0", /lacks batchWatermarkMs/],
    ["binary", Buffer.from([0xff, 0xfe, 0x00, 0x10]), /first line should be a version/],
  ];
  for (const [name, content, problem] of cases) {
    it(`${name}: CheckpointCorruptError for that file, from get() and latest()`, async () => {
      const dir = await tempDir();
      const log = new FileMetadataLog(dir, offsetCodec);
      await log.add(0, offsets(0));
      const file = path.join(dir, "1");
      await writeFile(file, content);
      for (const read of [() => log.get(1), () => log.latest()]) {
        await assert.rejects(read(), (e: Error) => {
          assert.ok(e instanceof CheckpointCorruptError, `${e.name}: ${e.message}`);
          assert.equal(e.errorClass, "CHECKPOINT_CORRUPT");
          assert.ok(e.message.includes(file), e.message);
          assert.match(e.message, problem);
          assert.match(e.message, /Nothing was skipped or overwritten/);
          return true;
        });
      }
      // The healthy entry is still readable, and the corrupt one is never overwritten.
      assert.deepEqual(await log.get(0), offsets(0));
      await assert.rejects(log.add(1, offsets(1)), ConcurrentUpdateError);
      assert.deepEqual(await readFile(file), Buffer.from(content));
    });
  }

  it("the commit log rejects the same corruptions", async () => {
    const dir = await tempDir();
    const log = new FileMetadataLog(dir, commitCodec);
    await writeFile(path.join(dir, "0"), "v2\n{}");
    await assert.rejects(
      log.get(0),
      (e: Error) => e instanceof CheckpointCorruptError && e.message.includes(path.join(dir, "0")) && /v2/.test(e.message),
    );
  });

  it("names that are not batch ids are ignored (temp files, .crc sidecars, editor backups)", async () => {
    const dir = await tempDir();
    const log = new FileMetadataLog(dir, commitCodec);
    await log.add(0, { nextBatchWatermarkMs: 0 });
    for (const n of [".1.0f6c.tmp", ".0.crc", "0.crc", "1~", "x", "01a"]) await writeFile(path.join(dir, n), "junk");
    assert.deepEqual(await log.ids(), [0]);
    assert.equal((await log.latest())?.batchId, 0);
  });
});

describe("FileMetadataLog: one writer per batch id", () => {
  it("add() on an existing id fails with a concurrent-query error and keeps the first entry", async () => {
    const dir = await tempDir();
    const log = new FileMetadataLog(dir, offsetCodec);
    await log.add(4, offsets(4));
    await assert.rejects(log.add(4, offsets(99)), (e: Error) => {
      assert.ok(e instanceof ConcurrentUpdateError);
      assert.equal(e.errorClass, "CONCURRENT_QUERY");
      assert.ok(e.message.includes(path.join(dir, "4")));
      assert.match(e.message, /concurrently using the same checkpoint/);
      return true;
    });
    assert.deepEqual(await log.get(4), offsets(4));
    assert.deepEqual(await listing(dir), ["4"]);
  });

  it("two logs racing for the same id: exactly one wins, the file holds the winner's entry", async () => {
    const dir = await tempDir();
    for (let round = 0; round < 20; round++) {
      const a = new FileMetadataLog(dir, offsetCodec);
      const b = new FileMetadataLog(dir, offsetCodec);
      const results = await Promise.allSettled([a.add(round, offsets(round)), b.add(round, offsets(round + 1000))]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      assert.equal(won.length, 1, `round ${round}`);
      assert.ok(lost[0]!.reason instanceof ConcurrentUpdateError);
      const winner = results[0]!.status === "fulfilled" ? offsets(round) : offsets(round + 1000);
      assert.deepEqual(await a.get(round), winner);
    }
    assert.ok(
      (await listing(dir)).every((n) => /^\d+$/.test(n)),
      "no temp files left by the losers",
    );
  });

  it("purge deletes entries below the threshold only", async () => {
    const dir = await tempDir();
    const log = new FileMetadataLog(dir, commitCodec);
    for (let i = 0; i < 6; i++) await log.add(i, { nextBatchWatermarkMs: i });
    await log.purge(3);
    assert.deepEqual(await log.ids(), [3, 4, 5]);
  });
});

describe("log formats (Spark's, byte for byte)", () => {
  it("offsets/N: version, metadata, one line per source, '-' for none, no trailing newline", async () => {
    const dir = await tempDir();
    await new FileMetadataLog(dir, offsetCodec).add(0, offsets(2));
    const text = await readFile(path.join(dir, "0"), "utf8");
    assert.equal(
      text,
      'v1\n{"batchWatermarkMs":2000,"batchTimestampMs":1700000000002,"conf":{"spark.sql.shuffle.partitions":"2"}}\n{"logOffset":2}\n-',
    );
    assert.deepEqual(await new FileMetadataLog(dir, offsetCodec).get(0), offsets(2));
  });

  it("a codec's own parse errors become CheckpointCorruptError", async () => {
    const dir = await tempDir();
    const strict: LogCodec<number> = {
      version: 1,
      serialize: String,
      deserialize(body) {
        if (!/^\d+$/.test(body)) throw new Error(`not a number: ${body}`);
        return Number(body);
      },
    };
    await writeFile(path.join(dir, "0"), "v1\nabc");
    await assert.rejects(
      new FileMetadataLog(dir, strict).get(0),
      (e: Error) => e instanceof CheckpointCorruptError && /not a number: abc/.test(e.message),
    );
  });
});

describe("state store files through the failing file system", () => {
  const opts = (fsys: CheckpointFs) => ({ minDeltasForSnapshot: 2, minBatchesToRetain: 100, fs: fsys });

  for (const op of ["writeFile", "sync", "rename"] as const) {
    it(`a delta write failing on ${op} leaves no version and undoes the batch's changes`, async () => {
      const dir = await tempDir();
      const fsys = new FaultyFs();
      const p = new MemoryStateStoreProvider(dir, opts(fsys));
      const s0 = await p.getStore(0);
      s0.put("a", [1]);
      assert.equal(await s0.commit(), 1);
      const s1 = await p.getStore(1);
      s1.put("a", [2]);
      s1.put("b", [3]);
      fsys.fail(op);
      await assert.rejects(s1.commit(), /injected/);
      assert.deepEqual(await listing(dir), ["1.delta"]);
      // Batch 1 re-runs from version 1: the failed attempt left nothing behind.
      const again = await p.getStore(1);
      assert.deepEqual([...again.entries()], [["a", [1]]]);
      again.put("a", [2]);
      assert.equal(await again.commit(), 2);
      // A fresh provider (a restarted process) reads the same.
      const fresh = await new MemoryStateStoreProvider(dir, opts(nodeFs)).getStore(2);
      assert.deepEqual([...fresh.entries()], [["a", [2]]]);
    });
  }

  it("a snapshot write failing inside maintenance surfaces, and versions still load from deltas", async () => {
    const dir = await tempDir();
    const fsys = new FaultyFs();
    const p = new MemoryStateStoreProvider(dir, opts(fsys));
    for (let v = 0; v < 3; v++) {
      const s = await p.getStore(v);
      s.put(`k${v}`, [v]);
      await s.commit();
    }
    fsys.tornBytes = 3;
    fsys.fail("writeFile");
    await assert.rejects(p.doMaintenance(), /injected writeFile failure/);
    assert.deepEqual(await listing(dir), ["1.delta", "2.delta", "3.delta"]);
    const fresh = await new MemoryStateStoreProvider(dir, opts(nodeFs)).getStore(3);
    assert.deepEqual(
      new Map(fresh.entries()),
      new Map([
        ["k0", [0]],
        ["k1", [1]],
        ["k2", [2]],
      ]),
    );
    // Retry: the snapshot is written and used.
    await p.doMaintenance();
    assert.ok((await listing(dir)).includes("3.snapshot"));
    const fromSnap = await new MemoryStateStoreProvider(dir, opts(nodeFs)).getStore(3);
    assert.deepEqual(
      new Map(fromSnap.entries()),
      new Map([
        ["k0", [0]],
        ["k1", [1]],
        ["k2", [2]],
      ]),
    );
  });

  it("corrupt state files name the file", async () => {
    const dir = await tempDir();
    const p = new MemoryStateStoreProvider(dir, opts(nodeFs));
    const s = await p.getStore(0);
    s.put("a", [1]);
    await s.commit();
    for (const [content, problem] of [
      ["", /is empty/],
      ["not msgpack at all", /not (a readable|an arus) state file/],
    ] as const) {
      await writeFile(path.join(dir, "1.delta"), content);
      await assert.rejects(
        new MemoryStateStoreProvider(dir, opts(nodeFs)).getStore(1),
        (e: Error) => e instanceof CheckpointCorruptError && e.message.includes(path.join(dir, "1.delta")) && problem.test(e.message),
      );
    }
  });
});
