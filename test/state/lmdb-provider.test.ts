// The lmdb provider against the shared state store conformance suite, plus what is specific to
// it: the lmdb directory is only a cache of the checkpoint files (catch-up after a crash between
// the delta write and the lmdb transaction, rebuild after deletion or damage, a foreign cache).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import type { StateRow } from "../../src/state/store.js";
import { storeConformance } from "./store-conformance.js";

const lmdbAvailable = await import("lmdb").then(
  () => true,
  () => false,
);

if (!lmdbAvailable) {
  test("lmdb provider", { skip: "the lmdb package is not installed (npm i -E lmdb@3.5.6)" }, () => {});
} else {
  const { LmdbStateStoreProvider } = await import("../../src/state/lmdb-provider.js");
  storeConformance("LmdbStateStoreProvider", (dir, opts) => new LmdbStateStoreProvider(dir, opts), { cacheEntries: ["lmdb"] });

  describe("lmdb provider: the environment is a cache of the files", () => {
    const dirs: string[] = [];
    const tempDir = () => {
      const d = mkdtempSync(path.join(tmpdir(), "arus-lmdb-test-"));
      dirs.push(d);
      return d;
    };
    after(() => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });
    const opts = { minDeltasForSnapshot: 100, minBatchesToRetain: 100 };
    const row = (i: number): StateRow => [i, `v${i}`];
    const metrics = (s: { metrics(): { customMetrics: Record<string, number> } }) => s.metrics().customMetrics;

    test("a reopened provider uses the environment as is (no replay)", async () => {
      const dir = tempDir();
      const p = new LmdbStateStoreProvider(dir, opts);
      for (let v = 0; v < 3; v++) {
        const s = await p.getStore(v);
        s.put(`k${v}`, row(v));
        await s.commit();
      }
      await p.close();
      assert.ok(existsSync(path.join(dir, "lmdb")));
      const q = new LmdbStateStoreProvider(dir, opts);
      const s = await q.getStore(3);
      assert.equal(s.numKeys, 3);
      assert.equal(metrics(s).lmdbRebuildCount, 0);
      assert.equal(metrics(s).lmdbCatchUpCount, 0);
      await q.close();
    });

    test("lmdb one version behind the files (crash after the delta write) catches up from the delta", async () => {
      const dir = tempDir();
      const lmdbCopy = tempDir();
      const p = new LmdbStateStoreProvider(dir, opts);
      const s0 = await p.getStore(0);
      s0.put("a", row(1));
      await s0.commit();
      await p.close();
      // keep the environment at version 1, let version 2 be written, then put the old environment back
      rmSync(lmdbCopy, { recursive: true, force: true });
      const { cpSync } = await import("node:fs");
      cpSync(path.join(dir, "lmdb"), lmdbCopy, { recursive: true });
      const q = new LmdbStateStoreProvider(dir, opts);
      const s1 = await q.getStore(1);
      s1.put("b", row(2));
      s1.remove("a");
      await s1.commit();
      await q.close();
      rmSync(path.join(dir, "lmdb"), { recursive: true, force: true });
      cpSync(lmdbCopy, path.join(dir, "lmdb"), { recursive: true });
      const r = new LmdbStateStoreProvider(dir, opts);
      const s2 = await r.getStore(2);
      assert.deepEqual([...s2.entries()], [["b", row(2)]]);
      assert.equal(metrics(s2).lmdbCatchUpCount, 1);
      assert.equal(metrics(s2).lmdbRebuildCount, 0);
      await r.close();
    });

    test("an environment ahead of the requested version, foreign or damaged is rebuilt", async () => {
      const dir = tempDir();
      const p = new LmdbStateStoreProvider(dir, opts);
      for (let v = 0; v < 3; v++) {
        const s = await p.getStore(v);
        s.put(`k${v}`, row(v));
        await s.commit();
      }
      await p.close();
      // ahead: re-running batch 1 after a crash needs version 1
      const q = new LmdbStateStoreProvider(dir, opts);
      const s1 = await q.getStore(1);
      assert.deepEqual(
        [...s1.entries()].map(([k]) => k),
        ["k0"],
      );
      assert.equal(metrics(s1).lmdbRebuildCount, 1);
      s1.abort();
      await q.close();
      // foreign: the files of version 3 are rewritten by another history
      const other = tempDir();
      const o = new LmdbStateStoreProvider(other, opts);
      for (let v = 0; v < 3; v++) {
        const s = await o.getStore(v);
        s.put(`other${v}`, row(v));
        await s.commit();
      }
      await o.close();
      rmSync(path.join(dir, "lmdb"), { recursive: true, force: true });
      const { cpSync } = await import("node:fs");
      cpSync(path.join(other, "lmdb"), path.join(dir, "lmdb"), { recursive: true });
      const r = new LmdbStateStoreProvider(dir, opts);
      const s3 = await r.getStore(3);
      assert.deepEqual(
        [...s3.entries()].map(([k]) => k),
        ["k0", "k1", "k2"],
      );
      assert.equal(metrics(s3).lmdbRebuildCount, 1);
      s3.abort();
      await r.close();
      // damaged: garbage instead of the data file
      rmSync(path.join(dir, "lmdb"), { recursive: true, force: true });
      const { mkdirSync } = await import("node:fs");
      mkdirSync(path.join(dir, "lmdb"));
      writeFileSync(path.join(dir, "lmdb", "data.mdb"), "garbage".repeat(1000));
      const d = new LmdbStateStoreProvider(dir, opts);
      const sd = await d.getStore(3);
      assert.equal(sd.numKeys, 3);
      sd.abort();
      await d.close();
    });

    test("lmdbDir puts the environment elsewhere; without a checkpoint a temp dir is removed on close", async () => {
      const dir = tempDir();
      const local = path.join(tempDir(), "env");
      const p = new LmdbStateStoreProvider(dir, { ...opts, lmdbDir: local });
      const s = await p.getStore(0);
      s.put("a", row(1));
      await s.commit();
      await p.close();
      assert.ok(existsSync(path.join(local, "data.mdb")));
      assert.ok(!existsSync(path.join(dir, "lmdb")));
      const n = new LmdbStateStoreProvider(null, opts);
      const t = await n.getStore(0);
      t.put("a", row(1));
      await t.commit();
      await n.close();
    });
  });
}
