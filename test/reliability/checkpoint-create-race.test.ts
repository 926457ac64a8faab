/**
 * Two queries opening the same new checkpoint at once (the lock-race test's situation, made
 * deterministic in one process): both find no `metadata`, both write it without overwriting;
 * the second must take the first's query id instead of failing with a raw EEXIST.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { RuntimeConfig } from "../../src/common/conf.js";
import { CheckpointStore } from "../../src/runtime/checkpoint-store.js";

describe("a new checkpoint opened by two queries at once", () => {
  it("gives both the one query id written to metadata", async () => {
    for (let round = 0; round < 20; round++) {
      const root = await mkdtemp(path.join(os.tmpdir(), "arus-ckcreate-"));
      const dir = path.join(root, "ck");
      const stores = await Promise.all([CheckpointStore.open(dir, new RuntimeConfig()), CheckpointStore.open(dir, new RuntimeConfig())]);
      const written = (JSON.parse(await readFile(path.join(dir, "metadata"), "utf8")) as { id: string }).id;
      assert.deepEqual(
        stores.map((s) => s.queryId),
        [written, written],
      );
      await rm(root, { recursive: true, force: true });
    }
  });
});
