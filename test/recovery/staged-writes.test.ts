/**
 * Files written in steps (atomic-file.ts stageAtomic / syncStaged / publishStaged), as a batch's
 * state writes record and its commits/N are: nothing is visible under a final name before all
 * files are synced, a failed sync leaves neither the files nor their temps, and a commit entry
 * that exists already is refused as a log's add() refuses it.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { type CheckpointFs, discardStaged, nodeFs, publishStaged, stageAtomic, syncStaged } from "../../src/checkpoint/atomic-file.js";
import { FileMetadataLog } from "../../src/checkpoint/metadata-log.js";
import { commitCodec } from "../../src/checkpoint/offset-log.js";
import { tempDirs } from "../temp-dirs.js";

const tempDir = tempDirs("arus-staged-");

describe("staged checkpoint writes", () => {
  it("syncs the files together before any is renamed, then renames them in order", async () => {
    const dir = await tempDir();
    const log = new FileMetadataLog(path.join(dir, "commits"), commitCodec);
    const record = await stageAtomic(nodeFs, path.join(dir, "writes", "0"), "v1\n{}");
    const commit = await log.stage(0, { nextBatchWatermarkMs: 7 });
    assert.deepEqual(await log.ids(), [], "a staged entry is not an entry");
    await syncStaged(nodeFs, [record, commit]);
    await publishStaged(nodeFs, record, true);
    await log.publish(commit);
    assert.equal(readFileSync(path.join(dir, "writes", "0"), "utf8"), "v1\n{}");
    assert.deepEqual(await log.get(0), { nextBatchWatermarkMs: 7 });
    assert.deepEqual(readdirSync(path.join(dir, "commits")), ["0"], "no temp file left");
    // A second writer of the same entry is refused, and its temp file removed.
    const again = await log.stage(0, { nextBatchWatermarkMs: 8 });
    await assert.rejects(log.publish(again), { errorClass: "CONCURRENT_QUERY" });
    assert.deepEqual(readdirSync(path.join(dir, "commits")), ["0"]);
    assert.deepEqual(await log.get(0), { nextBatchWatermarkMs: 7 });
  });

  it("a failed sync leaves no file under its name; discarding removes the temps", async () => {
    const dir = await tempDir();
    mkdirSync(path.join(dir, "a"));
    const failing: CheckpointFs = {
      ...nodeFs,
      sync: async (p) => {
        if (p.includes("b")) throw Object.assign(new Error("injected sync failure"), { code: "EIO" });
        await nodeFs.sync(p);
      },
    };
    const files = [await stageAtomic(failing, path.join(dir, "a", "1"), "x"), await stageAtomic(failing, path.join(dir, "b", "1"), "y")];
    await assert.rejects(syncStaged(failing, files), /injected sync failure/);
    await discardStaged(failing, files);
    assert.deepEqual(readdirSync(path.join(dir, "a")), []);
    assert.deepEqual(readdirSync(path.join(dir, "b")), []);
  });
});
