/**
 * How much file-system work a checkpoint write does: folders are created when a write finds
 * them missing (not before every write), and the log purge lists its folder once, then deletes
 * the ids it knows are below the threshold. The results must be the same as before: every
 * entry below the threshold gone, every other entry kept.
 */
import assert from "node:assert/strict";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { type CheckpointFs, nodeFs, writeAtomic } from "../../src/checkpoint/atomic-file.js";
import { FileMetadataLog } from "../../src/checkpoint/metadata-log.js";
import { commitCodec } from "../../src/checkpoint/offset-log.js";
import { tempDirs } from "../temp-dirs.js";

const tempDir = tempDirs("arus-ckw-");

/** nodeFs that counts calls per method. */
function countingFs(): CheckpointFs & { count: Map<string, number> } {
  const count = new Map<string, number>();
  const wrap =
    <K extends keyof CheckpointFs>(k: K) =>
    (...args: Parameters<CheckpointFs[K]>) => {
      count.set(k, (count.get(k) ?? 0) + 1);
      return (nodeFs[k] as (...a: Parameters<CheckpointFs[K]>) => ReturnType<CheckpointFs[K]>)(...args);
    };
  return {
    count,
    writeFile: wrap("writeFile"),
    sync: wrap("sync"),
    rename: wrap("rename"),
    readFile: wrap("readFile"),
    readdir: wrap("readdir"),
    unlink: wrap("unlink"),
    mkdir: wrap("mkdir"),
    exists: wrap("exists"),
  };
}

describe("writeAtomic and folders", () => {
  it("creates missing folders on the first write and none on later writes", async () => {
    const root = await tempDir();
    const fsys = countingFs();
    const target = (n: number) => path.join(root, "a", "b", String(n));
    await writeAtomic(fsys, target(0), "zero", false);
    assert.equal(fsys.count.get("mkdir"), 1);
    for (let i = 1; i < 5; i++) await writeAtomic(fsys, target(i), `n${i}`, false);
    assert.equal(fsys.count.get("mkdir"), 1, "the folder exists: no mkdir");
    assert.deepEqual((await readdir(path.join(root, "a", "b"))).sort(), ["0", "1", "2", "3", "4"]);
    assert.equal(await readFile(target(3), "utf8"), "n3");
  });

  it("recreates a folder deleted between writes", async () => {
    const root = await tempDir();
    const dir = path.join(root, "logs");
    await writeAtomic(nodeFs, path.join(dir, "0"), "x", false);
    await rm(dir, { recursive: true });
    await writeAtomic(nodeFs, path.join(dir, "1"), "y", false);
    assert.deepEqual(await readdir(dir), ["1"]);
  });
});

describe("FileMetadataLog.purge", () => {
  it("lists the folder on the first purge only, and deletes exactly the ids below each threshold", async () => {
    const dir = await tempDir();
    const fsys = countingFs();
    const log = new FileMetadataLog(dir, commitCodec, fsys);
    for (let i = 0; i < 5; i++) await log.add(i, { nextBatchWatermarkMs: i });
    const listed = () => fsys.count.get("readdir") ?? 0;
    await log.purge(2);
    assert.equal(listed(), 1);
    assert.deepEqual((await readdir(dir)).sort(), ["2", "3", "4"]);
    for (let i = 5; i < 12; i++) {
      await log.add(i, { nextBatchWatermarkMs: i });
      await log.purge(i - 2);
    }
    assert.equal(listed(), 1, "later purges delete known ids without listing");
    assert.deepEqual(
      (await readdir(dir)).map(Number).sort((a, b) => a - b),
      [9, 10, 11],
    );
    // A threshold that jumps ahead deletes everything in between.
    await log.purge(11);
    assert.deepEqual(await readdir(dir), ["11"]);
    // A lower threshold than before deletes nothing more.
    await log.purge(3);
    assert.deepEqual(await readdir(dir), ["11"]);
  });

  it("a new log object (a restart) lists again and finds entries left by the last run", async () => {
    const dir = await tempDir();
    const first = new FileMetadataLog(dir, commitCodec);
    for (let i = 0; i < 6; i++) await first.add(i, { nextBatchWatermarkMs: i });
    await first.purge(1);
    const fsys = countingFs();
    const second = new FileMetadataLog(dir, commitCodec, fsys);
    await second.purge(4);
    assert.equal(fsys.count.get("readdir"), 1);
    assert.deepEqual(await second.ids(), [4, 5]);
  });
});
