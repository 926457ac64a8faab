/**
 * Golden checkpoint: test/fixtures/checkpoint-v1 was written by the checkpoint format of the
 * first durable release (offsets, commits, metadata, file-source log, state deltas and
 * snapshots, operator metadata, file sink manifest with a compaction). Every later version must
 * resume from it and produce the expected output. If this fails, the format changed in a way
 * that breaks existing checkpoints: add a reader for the old format, do not regenerate.
 */
import assert from "node:assert/strict";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { FileMetadataLog } from "../../src/checkpoint/metadata-log.js";
import { commitCodec, offsetCodec } from "../../src/checkpoint/offset-log.js";
import { MemoryStateStoreProvider } from "../../src/state/memory-provider.js";
import {
  FILES,
  FIRST_RUN_FILES,
  GOLDEN_ROOT,
  goldenSession,
  inputFile,
  readGoldenOutput,
  startGoldenQuery,
} from "../fixtures/checkpoint-v1/query.js";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "checkpoint-v1");
const expected = JSON.parse(readFileSync(join(FIXTURE, "expected-output.json"), "utf8")) as string[];
const L = FIRST_RUN_FILES - 1;

/** A fresh copy of the fixture at the absolute path its logs record. */
function install(): void {
  rmSync(GOLDEN_ROOT, { recursive: true, force: true });
  for (const d of ["checkpoint", "output", "input"]) cpSync(join(FIXTURE, d), join(GOLDEN_ROOT, d), { recursive: true });
  // Git does not keep modification times; the source orders new files by them.
  for (let i = 0; i < FILES; i++) {
    const f = inputFile(i);
    utimesSync(join(GOLDEN_ROOT, "input", f.name), f.mtime, f.mtime);
  }
}

describe("golden checkpoint v1", () => {
  before(install);
  after(() => rmSync(GOLDEN_ROOT, { recursive: true, force: true }));

  it("is what the fixture says: batches 0..9 committed, batch 10 logged, its state and sink output written", async () => {
    const ckpt = join(GOLDEN_ROOT, "checkpoint");
    const offsets = new FileMetadataLog(join(ckpt, "offsets"), offsetCodec);
    const commits = new FileMetadataLog(join(ckpt, "commits"), commitCodec);
    assert.equal((await offsets.latest())?.batchId, L);
    assert.equal((await commits.latest())?.batchId, L - 1);
    const o = (await offsets.get(L))!;
    assert.deepEqual(o.offsets, [{ logOffset: L }]);
    assert.equal(o.metadata.conf["spark.sql.shuffle.partitions"], "2");
    assert.ok(o.metadata.batchWatermarkMs > 0);
    assert.deepEqual(
      readdirSync(join(ckpt, "sources", "0")).sort((a, b) => Number(a) - Number(b)),
      Array.from({ length: FIRST_RUN_FILES }, (_, i) => String(i)),
    );
    assert.ok(readdirSync(join(GOLDEN_ROOT, "output", "_spark_metadata")).includes("9.compact"));
    assert.ok(readdirSync(join(GOLDEN_ROOT, "output", "_spark_metadata")).includes(String(L)));
    // State: the snapshot of version 10 and the deltas agree.
    for (const part of ["0", "1"]) {
      const dir = join(ckpt, "state", "0", part);
      const files = readdirSync(dir);
      assert.ok(files.includes("10.snapshot") && files.includes(`${L + 1}.delta`), files.join(","));
      const fromSnapshot = new Map(
        (await new MemoryStateStoreProvider(dir, { minDeltasForSnapshot: 2, minBatchesToRetain: 100 }).getStore(10)).entries(),
      );
      const deltasOnly = join(GOLDEN_ROOT, `deltas-${part}`);
      cpSync(dir, deltasOnly, { recursive: true, filter: (src) => !src.endsWith(".snapshot") });
      const fromDeltas = new Map(
        (await new MemoryStateStoreProvider(deltasOnly, { minDeltasForSnapshot: 2, minBatchesToRetain: 100 }).getStore(10)).entries(),
      );
      assert.deepEqual(fromSnapshot, fromDeltas);
      rmSync(deltasOnly, { recursive: true });
    }
    // Before resuming, readers see the windows batches 0..10 emitted, a prefix of the result.
    const before = await readGoldenOutput(goldenSession(), GOLDEN_ROOT);
    assert.ok(before.length > 0 && before.length < expected.length);
    assert.deepEqual(before, expected.slice(0, before.length));
  });

  it("resumes: re-runs batch 10 (the sink skips it), reads the new files, drops the late row, and ends with the expected output", async () => {
    install();
    const ckpt = join(GOLDEN_ROOT, "checkpoint");
    const manifest10 = readFileSync(join(GOLDEN_ROOT, "output", "_spark_metadata", String(L)), "utf8");
    const queryId = (JSON.parse(readFileSync(join(ckpt, "metadata"), "utf8")) as { id: string }).id;
    const session = goldenSession();
    const q = await startGoldenQuery(session, GOLDEN_ROOT);
    assert.equal(q.id, queryId);
    await q.awaitTermination();
    // Batch 10 again, files 11..13, then the no-data batch that evicts the last windows.
    const ran = q.recentProgress.map((p) => p.batchId);
    assert.deepEqual(ran, [L, L + 1, L + 2, L + 3, L + 4]);
    assert.equal(q.recentProgress[0]!.numInputRows, 5, "batch 10 re-read exactly its own file");
    assert.deepEqual(await readGoldenOutput(session, GOLDEN_ROOT), expected);
    assert.equal(
      readFileSync(join(GOLDEN_ROOT, "output", "_spark_metadata", String(L)), "utf8"),
      manifest10,
      "the committed manifest entry is never rewritten",
    );
    for (let b = L; b <= L + 4; b++) assert.ok(existsSync(join(ckpt, "commits", String(b))), `commits/${b}`);
    assert.ok(!existsSync(join(ckpt, "commits", String(L + 5))));
    // The late event of file 12 (an hour-old window long evicted) was dropped, not re-emitted.
    const late = q.recentProgress.find((p) => p.batchId === L + 2)!;
    assert.equal(late.numInputRows, 6);
    assert.equal(late.stateOperators[0]!.numRowsDroppedByWatermark, 1);
  });
});
