/**
 * The state store conformance suite (not a test file itself): every provider must pass it.
 * `storeConformance(name, factory)` registers the tests under `describe(name)`.
 *
 * Covers: versions (0 empty, commit -> N+1, any retained older version loads exactly, reload
 * after close from the files alone), abort, get/put/remove/entries/prefixScan/numKeys, a crash
 * between the delta write and the batch's commit, snapshot + delta replay after maintenance,
 * retention, damaged files (truncated, corrupt, future format, missing) named in the error, the
 * format-1 files arus wrote before, and a fast-check model test (random ops, commit, abort,
 * reload, old-version loads and maintenance against a reference Map).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import { Packr } from "msgpackr";
import { type CheckpointFs, nodeFs } from "../../src/checkpoint/atomic-file.js";
import { crc32 } from "../../src/state/codec.js";
import type { ProviderOptions } from "../../src/state/provider-base.js";
import type { StateRow, StateStore, StateStoreProvider } from "../../src/state/store.js";

export type ProviderFactory = (dir: string | null, opts: ProviderOptions) => StateStoreProvider;

export interface ConformanceOptions {
  /** Names under the store dir that are caches (deleted to prove a reload uses files only). */
  cacheEntries?: string[];
  /**
   * The rows the tests store (default: a window struct, a string and numbers). A store whose
   * values have a fixed layout (the columnar backend: numeric buffers) gives its own.
   */
  row?: (i: number, extra: unknown) => StateRow;
  /** Rows for the property test (default: any mix of structs, maps, binary, bigint, nesting). */
  rowArb?: fc.Arbitrary<StateRow>;
  /** Tests a store cannot run, each with the reason shown as the skip message. */
  skip?: { values?: string; format1?: string };
}

const roots: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), "arus-state-test-"));
  roots.push(d);
  return d;
}

const OPTS: ProviderOptions = { minDeltasForSnapshot: 3, minBatchesToRetain: 100 };

type Model = Map<string, StateRow>;

/** Keys that stress encodings: empty, prefixes of each other, non-ASCII, lone surrogate, long. */
const LONG = "k".repeat(2500);
export const SPECIAL_KEYS = [
  "",
  "a",
  "ab",
  "abc",
  "b",
  "é",
  "日本",
  "😀x",
  "\u0000",
  "\u0000z",
  "\ud800",
  "a\udc00b",
  LONG,
  `${LONG}!`,
  '[{"start":1,"end":2},"u"]',
];

function snapshotOf(store: Pick<StateStore, "entries">): Model {
  const m: Model = new Map();
  for (const [k, v] of store.entries()) {
    assert.ok(!m.has(k), `entries() yields ${JSON.stringify(k)} twice`);
    m.set(k, v);
  }
  return m;
}

function assertSame(store: Pick<StateStore, "numKeys" | "entries" | "get">, model: Model, context: string): void {
  assert.equal(store.numKeys, model.size, `${context}: numKeys`);
  const got = snapshotOf(store);
  assert.deepEqual(sorted(got), sorted(model), `${context}: entries`);
  for (const [k, v] of model) assert.deepEqual(store.get(k), v, `${context}: get(${JSON.stringify(k.slice(0, 20))})`);
}

function sorted(m: Model): [string, StateRow][] {
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function defaultRow(i: number, extra: unknown = null): StateRow {
  return [{ start: i * 10, end: i * 10 + 10 }, `user_${i}`, i * 0.5, i, extra];
}

async function commitAll(p: StateStoreProvider, from: number, changes: (s: StateStore) => void): Promise<number> {
  const s = await p.getStore(from);
  changes(s);
  return s.commit();
}

async function rejectsNaming(promise: Promise<unknown>, file: string, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (e: Error) => {
    assert.ok(e.message.includes(file), `error should name ${file}: ${e.message}`);
    assert.match(e.message, pattern);
    return true;
  });
}

/** An fs whose operations fail on demand (the commit's rename, say). */
function failingFs(failOn: { op: keyof CheckpointFs; match: RegExp } | null): CheckpointFs & { arm(f: typeof failOn): void } {
  let armed = failOn;
  const wrap =
    <K extends keyof CheckpointFs>(op: K) =>
    (...args: Parameters<CheckpointFs[K]>) => {
      if (armed && armed.op === op && armed.match.test(String(args[op === "rename" ? 1 : 0])))
        return Promise.reject(new Error(`injected ${op} failure`));
      return (nodeFs[op] as (...a: Parameters<CheckpointFs[K]>) => ReturnType<CheckpointFs[K]>)(...args);
    };
  return {
    writeFile: wrap("writeFile"),
    sync: wrap("sync"),
    rename: wrap("rename"),
    readFile: wrap("readFile"),
    readdir: wrap("readdir"),
    unlink: wrap("unlink"),
    mkdir: wrap("mkdir"),
    exists: wrap("exists"),
    arm: (f) => {
      armed = f;
    },
  };
}

/** An fs whose fdatasync of a snapshot's temp file waits while held (maintenance's files half, in flight). */
function holdingSnapshotFs(): CheckpointFs & { hold(): void; release(): void } {
  let gate: { promise: Promise<void>; open: () => void } | null = null;
  return {
    ...nodeFs,
    sync: async (p) => {
      if (gate && /\.snapshot\.[^/]*\.tmp$/.test(p)) await gate.promise;
      return nodeFs.sync(p);
    },
    hold: () => {
      let open!: () => void;
      const promise = new Promise<void>((r) => {
        open = r;
      });
      gate = { promise, open };
    },
    release: () => {
      gate?.open();
      gate = null;
    },
  };
}

function stateFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d+\.(delta|snapshot)$/.test(f))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b));
}

export function storeConformance(name: string, factory: ProviderFactory, options: ConformanceOptions = {}): void {
  const row = (i: number, extra: unknown = null): StateRow => (options.row ?? defaultRow)(i, extra);
  const wipeCaches = (dir: string) => {
    for (const c of options.cacheEntries ?? []) rmSync(path.join(dir, c), { recursive: true, force: true });
  };
  /** A provider over `dir` that can only use the files (caches deleted first). */
  const fromFiles = (dir: string, opts: ProviderOptions = OPTS) => {
    wipeCaches(dir);
    return factory(dir, opts);
  };
  /** Version `v` loaded from the files by a fresh provider (closed again), as a read-only store. */
  const filesAt = async (dir: string, v: number): Promise<Pick<StateStore, "numKeys" | "entries" | "get">> => {
    const p = fromFiles(dir);
    try {
      const s = await p.getStore(v);
      const m = snapshotOf(s);
      const n = s.numKeys;
      s.abort();
      return { numKeys: n, entries: () => m.entries(), get: (k: string) => m.get(k) };
    } finally {
      await p.close();
    }
  };

  describe(`state store conformance: ${name}`, () => {
    after(() => {
      for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
    });

    test("version 0 is empty; commit gives N+1; the store knows its version", async () => {
      const dir = tempDir();
      const p = factory(dir, OPTS);
      const s0 = await p.getStore(0);
      assert.equal(s0.version, 0);
      assert.equal(s0.numKeys, 0);
      assert.deepEqual([...s0.entries()], []);
      assert.equal(s0.get("x"), undefined);
      s0.put("x", row(1));
      assert.equal(await s0.commit(), 1);
      const s1 = await p.getStore(1);
      assert.equal(s1.version, 1);
      assert.deepEqual(s1.get("x"), row(1));
      assert.equal(await s1.commit(), 2, "a commit without changes still makes a version");
      const s2 = await p.getStore(2);
      assert.deepEqual(s2.get("x"), row(1));
      s2.abort();
      await p.close();
    });

    test("get / put / remove / entries / prefixScan / numKeys, special keys included", async () => {
      const dir = tempDir();
      const p = factory(dir, OPTS);
      const s = await p.getStore(0);
      const model: Model = new Map();
      // (strings inside values are UTF-8 in files: keep lone surrogates to keys, see docs/state.md)
      SPECIAL_KEYS.forEach((k, i) => {
        s.put(k, row(i, k.replace(/[\ud800-\udfff]/g, "?")));
        model.set(k, row(i, k.replace(/[\ud800-\udfff]/g, "?")));
      });
      assertSame(s, model, "after puts");
      s.put("ab", row(99));
      model.set("ab", row(99));
      s.remove("abc");
      model.delete("abc");
      s.remove("not there");
      assert.equal(s.get("abc"), undefined);
      assertSame(s, model, "after overwrite and removes");
      for (const prefix of ["", "a", "ab", "\u0000", "k", LONG, "日", "zzz"]) {
        const got = new Map(s.prefixScan(prefix));
        const want = new Map([...model].filter(([k]) => k.startsWith(prefix)));
        assert.deepEqual(sorted(got), sorted(want), `prefixScan(${JSON.stringify(prefix.slice(0, 5))}) before commit`);
      }
      assert.equal(await s.commit(), 1);
      const t = await p.getStore(1);
      assertSame(t, model, "after commit");
      for (const prefix of ["", "a", "ab", "\u0000", "k", LONG]) {
        const got = new Map(t.prefixScan(prefix));
        const want = new Map([...model].filter(([k]) => k.startsWith(prefix)));
        assert.deepEqual(sorted(got), sorted(want), `prefixScan(${JSON.stringify(prefix.slice(0, 5))}) after commit`);
      }
      // puts and removes over committed keys are seen by entries/prefixScan/numKeys at once
      t.remove("a");
      t.put("b", row(7));
      t.put("new", row(8));
      model.delete("a");
      model.set("b", row(7));
      model.set("new", row(8));
      assertSame(t, model, "uncommitted changes over committed state");
      const m = t.metrics();
      assert.equal(m.numKeys, model.size);
      assert.equal(m.numUpdatedKeys, 2);
      assert.equal(m.numRemovedKeys, 1);
      assert.equal(typeof m.memoryUsedBytes, "number");
      await t.commit();
      const after = t.metrics();
      assert.equal(after.numUpdatedKeys, 2);
      assert.equal(after.numRemovedKeys, 1);
      assert.equal(after.numKeys, model.size);
      await p.close();
      const q = fromFiles(dir);
      assertSame(await q.getStore(2), model, "reloaded from files");
      await q.close();
    });

    test("values round-trip: structs stay objects, maps stay Maps, binary, bigint, nesting", { skip: options.skip?.values }, async () => {
      const dir = tempDir();
      const p = factory(dir, OPTS);
      const s = await p.getStore(0);
      const values: StateRow = [
        { start: 1_700_000_000_000_000, end: 1_700_000_010_000_000 },
        new Map<unknown, unknown>([
          ["k", 1],
          [2, { a: [1, 2] }],
        ]),
        new Uint8Array([0, 1, 255]),
        2n ** 70n,
        -5n,
        [[1, 2], [], null],
        { nested: { deeper: "x" }, empty: {} },
        "\ud83d\ude00 text",
        Number.NaN,
        1.5,
        true,
        null,
        // -0.0 keeps its sign (msgpack alone writes it as the integer 0), at the top and nested
        -0,
        [0, -0],
        { x: -0 },
        { x: 0 }, // an equal-looking struct beside it: the memory store's interning keeps them apart
        new Map([["z", -0]]),
      ];
      s.put("v", values);
      await s.commit();
      await p.close();
      const q = fromFiles(dir);
      const got = (await q.getStore(1)).get("v")!;
      assert.deepEqual(got, values);
      assert.ok(got[1] instanceof Map && !(got[0] instanceof Map));
      await q.close();
    });

    test("abort restores; a closed store refuses changes; reopening drops an open store", async () => {
      const dir = tempDir();
      const p = factory(dir, OPTS);
      await commitAll(p, 0, (s) => {
        s.put("a", row(1));
        s.put("b", row(2));
      });
      const model: Model = new Map([
        ["a", row(1)],
        ["b", row(2)],
      ]);
      const s = await p.getStore(1);
      s.put("a", row(10));
      s.remove("b");
      s.put("c", row(3));
      s.put("c", row(4));
      s.remove("c");
      s.put("d", row(5));
      s.abort();
      assert.throws(() => s.put("x", row(0)), /aborted/);
      await assert.rejects(s.commit(), /aborted/);
      assertSame(await p.getStore(1), model, "after abort (same provider)");
      // an open store with changes is dropped when the next getStore comes
      const open = await p.getStore(1);
      open.put("zzz", row(9));
      const again = await p.getStore(1);
      assertSame(again, model, "a store left open does not leak into the next one");
      assert.throws(() => open.put("y", row(0)), /aborted/);
      again.put("e", row(6));
      await again.commit();
      assert.throws(() => again.put("y", row(0)), /committed/);
      await assert.rejects(again.commit(), /committed/);
      model.set("e", row(6));
      assertSame(await p.getStore(2), model, "version 2");
      await p.close();
      assertSame(await filesAt(dir, 1), new Map(sorted(model).filter(([k]) => k !== "e")), "version 1 from files");
    });

    test("every retained version loads exactly, in the same provider and from files after close", async () => {
      const dir = tempDir();
      const p = factory(dir, { minDeltasForSnapshot: 2, minBatchesToRetain: 100 });
      const models: Model[] = [new Map()];
      let model: Model = new Map();
      for (let v = 0; v < 9; v++) {
        const s = await p.getStore(v);
        model = new Map(model);
        if (v % 4 !== 3) {
          s.put(`k${v}`, row(v));
          model.set(`k${v}`, row(v));
          if (v > 1) {
            s.remove(`k${v - 2}`);
            model.delete(`k${v - 2}`);
          }
          s.put("shared", row(100 + v));
          model.set("shared", row(100 + v));
        }
        assert.equal(await s.commit(), v + 1);
        models.push(model);
        if (v % 3 === 2) await p.doMaintenance();
      }
      for (const v of [9, 3, 0, 7, 1, 9, 4]) {
        const s = await p.getStore(v);
        assertSame(s, models[v]!, `version ${v} (same provider)`);
        s.abort();
      }
      await p.close();
      assert.ok(
        stateFiles(dir).some((f) => f.endsWith(".snapshot")),
        "maintenance wrote a snapshot",
      );
      for (let v = 0; v <= 9; v++) {
        const q = fromFiles(dir);
        assertSame(await q.getStore(v), models[v]!, `version ${v} from files`);
        await q.close();
      }
    });

    test("maintenance writes its files beside the next batch; the snapshot of a batch that changed nothing is taken at the newest file", async () => {
      const dir = tempDir();
      const fsys = holdingSnapshotFs();
      const p = factory(dir, { minDeltasForSnapshot: 3, minBatchesToRetain: 100, fs: fsys });
      assert.ok(p.startMaintenance, "the provider captures maintenance apart from writing its files");
      const model: Model = new Map();
      for (let v = 0; v < 4; v++) {
        await commitAll(p, v, (s) => s.put(`k${v}`, row(v)));
        model.set(`k${v}`, row(v));
      }
      const idle = await p.getStore(4);
      assert.equal(await idle.commit(), 5, "batch 4 changes nothing: version 5 has no delta");
      const at5 = new Map(model);
      fsys.hold();
      await p.startMaintenance(); // resolves with the snapshot's fdatasync still held
      assert.ok(!existsSync(path.join(dir, "4.snapshot")), "the snapshot is not written yet");
      await commitAll(p, 5, (s) => {
        s.put("k5", row(5));
        s.remove("k0");
      });
      model.set("k5", row(5));
      model.delete("k0");
      fsys.release();
      await p.doMaintenance(); // waits for the files half left in flight
      // Version 6's delta was written before the snapshot existed and continues version 4: a
      // snapshot named 5 would have broken that chain.
      assert.deepEqual(stateFiles(dir), ["1.delta", "2.delta", "3.delta", "4.delta", "4.snapshot", "6.delta"]);
      await p.close();
      rmSync(path.join(dir, "1.delta")); // versions from 4 on need only the snapshot and the delta after it
      assertSame(await filesAt(dir, 6), model, "version 6 from the files");
      assertSame(await filesAt(dir, 5), at5, "version 5 from the files");
    });

    test("a failed files half of maintenance is thrown by the next maintenance, and loses nothing", async () => {
      const dir = tempDir();
      const fsys = failingFs(null);
      const p = factory(dir, { minDeltasForSnapshot: 2, minBatchesToRetain: 100, fs: fsys });
      const model: Model = new Map();
      for (let v = 0; v < 3; v++) {
        await commitAll(p, v, (s) => s.put(`k${v}`, row(v)));
        model.set(`k${v}`, row(v));
      }
      fsys.arm({ op: "rename", match: /3\.snapshot$/ });
      await (p.startMaintenance ?? p.doMaintenance).call(p);
      await commitAll(p, 3, (s) => s.put("k3", row(3)));
      model.set("k3", row(3));
      await assert.rejects(p.doMaintenance(), /injected rename failure/);
      fsys.arm(null);
      await p.doMaintenance();
      await p.close();
      assert.ok(!existsSync(path.join(dir, "3.snapshot")), "no snapshot of the failed write");
      assert.ok(existsSync(path.join(dir, "4.snapshot")), "the next maintenance snapshots");
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith(".tmp")),
        [],
        "no temp file left",
      );
      assertSame(await filesAt(dir, 4), model, "version 4 from the files");
    });

    test("a failed commit leaves no version and the store aborted", async () => {
      const dir = tempDir();
      const fsys = failingFs(null);
      const p = factory(dir, { ...OPTS, fs: fsys });
      await commitAll(p, 0, (s) => s.put("a", row(1)));
      const s = await p.getStore(1);
      s.put("a", row(2));
      s.put("b", row(3));
      fsys.arm({ op: "rename", match: /2\.delta$/ });
      await assert.rejects(s.commit(), /injected rename failure/);
      fsys.arm(null);
      assert.ok(!existsSync(path.join(dir, "2.delta")));
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith(".tmp")),
        [],
        "the temp file is cleaned up",
      );
      const model: Model = new Map([["a", row(1)]]);
      assertSame(await p.getStore(1), model, "same provider after the failure");
      await commitAll(p, 1, (t) => t.put("c", row(4)));
      model.set("c", row(4));
      await p.close();
      assertSame(await filesAt(dir, 2), model, "retry committed");
    });

    test("crash between the delta write and the batch commit: the uncommitted version never shows", async () => {
      const dir = tempDir();
      const p = factory(dir, { minDeltasForSnapshot: 1, minBatchesToRetain: 100 });
      await commitAll(p, 0, (s) => s.put("a", row(1)));
      await commitAll(p, 1, (s) => s.put("b", row(2)));
      // Attempt 1 of batch 2: commits version 3 (delta + snapshot), then a crash before the
      // engine's commit log, and a leftover temp file of an interrupted write.
      await commitAll(p, 2, (s) => {
        s.put("stale", row(9));
        s.remove("a");
      });
      await p.doMaintenance();
      await commitAll(p, 3, (s) => s.put("stale2", row(9)));
      await p.close();
      assert.ok(existsSync(path.join(dir, "3.snapshot")) && existsSync(path.join(dir, "4.delta")));
      writeFileSync(path.join(dir, ".5.delta.0b1c2d3e-0000-4000-8000-000000000000.tmp"), "partial");
      const v2: Model = new Map([
        ["a", row(1)],
        ["b", row(2)],
      ]);
      // Attempt 2 of batch 2 changes nothing: version 3 must equal version 2.
      const q = fromFiles(dir);
      const s = await q.getStore(2);
      assertSame(s, v2, "version 2");
      assert.equal(await s.commit(), 3);
      assertSame(await q.getStore(3), v2, "re-run version 3 (same provider)");
      await q.close();
      for (const f of ["3.delta", "3.snapshot", "4.delta"])
        assert.ok(!existsSync(path.join(dir, f)), `${f} of the abandoned attempt is gone`);
      assertSame(await filesAt(dir, 3), v2, "re-run version 3 from files");
      // Attempt 3 of batch 2 (after another crash) writes different changes.
      const r = fromFiles(dir);
      await commitAll(r, 2, (t) => t.put("c", row(3)));
      await r.doMaintenance();
      await r.close();
      assert.ok(!readdirSync(dir).some((f) => f.endsWith(".tmp")), "maintenance removes leftover temp files");
      assertSame(await filesAt(dir, 3), new Map([...v2, ["c", row(3)]]), "version 3 of the last attempt");
    });

    test("snapshot + delta replay after maintenance equals the live state", async () => {
      const dir = tempDir();
      const p = factory(dir, { minDeltasForSnapshot: 3, minBatchesToRetain: 100 });
      const models: Model[] = [new Map()];
      let model: Model = new Map();
      let seed = 7;
      const rnd = (n: number) => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return seed % n;
      };
      for (let v = 0; v < 25; v++) {
        const s = await p.getStore(v);
        model = new Map(model);
        for (let i = 0; i < 20; i++) {
          const k = `key${rnd(40)}`;
          if (rnd(4) === 0) {
            s.remove(k);
            model.delete(k);
          } else {
            s.put(k, row(rnd(1000)));
            model.set(k, s.get(k)!);
          }
        }
        await s.commit();
        models.push(model);
        await p.doMaintenance();
        assertSame(await p.getStore(v + 1), model, `live version ${v + 1}`);
      }
      await p.close();
      const snaps = stateFiles(dir).filter((f) => f.endsWith(".snapshot"));
      assert.ok(snaps.length >= 5, `snapshots written: ${snaps}`);
      for (let v = 0; v <= 25; v++) {
        const q = fromFiles(dir);
        assertSame(await q.getStore(v), models[v]!, `version ${v} from snapshot + deltas`);
        await q.close();
      }
    });

    test("retention deletes old files but keeps what rebuilds the retained versions", async () => {
      const dir = tempDir();
      const opts = { minDeltasForSnapshot: 2, minBatchesToRetain: 5 };
      const p = factory(dir, opts);
      const models: Model[] = [new Map()];
      let model: Model = new Map();
      for (let v = 0; v < 20; v++) {
        const s = await p.getStore(v);
        model = new Map(model);
        s.put(`k${v % 7}`, row(v));
        model.set(`k${v % 7}`, row(v));
        await s.commit();
        models.push(model);
        await p.doMaintenance();
      }
      await p.close();
      const files = stateFiles(dir);
      const oldest = Math.min(...files.map((f) => Number.parseInt(f, 10)));
      assert.ok(oldest > 1 && oldest <= 15, `old files were deleted (oldest left: ${oldest}; ${files})`);
      assert.ok(existsSync(path.join(dir, `${oldest}.snapshot`)), "the oldest file kept is a snapshot");
      for (let v = 15; v <= 20; v++) {
        const q = fromFiles(dir, opts);
        assertSame(await q.getStore(v), models[v]!, `retained version ${v}`);
        await q.close();
      }
      // A version older than what is kept is an error (its files are gone), not an empty state.
      const q = fromFiles(dir, opts);
      await assert.rejects(q.getStore(oldest - 1), /retention|cannot be rebuilt/);
      await q.close();
    });

    test("damaged files: truncated, corrupt, empty, foreign, future format, wrong name, missing", async () => {
      const build = async () => {
        const dir = tempDir();
        const p = factory(dir, OPTS);
        await commitAll(p, 0, (s) => {
          for (let i = 0; i < 50; i++) s.put(`k${i}`, row(i));
        });
        await commitAll(p, 1, (s) => s.put("k1", row(100)));
        await commitAll(p, 2, (s) => s.remove("k2"));
        await p.close();
        return dir;
      };
      const damaged = async (damage: (file: string, dir: string) => void, pattern: RegExp, file = "2.delta", named = file) => {
        const dir = await build();
        const f = path.join(dir, file);
        damage(f, dir);
        const q = fromFiles(dir);
        await rejectsNaming(q.getStore(3), path.join(dir, named), pattern);
        await q.close();
      };
      await damaged((f) => truncateSync(f, readFileSync(f).length - 5), /truncated/);
      await damaged((f) => truncateSync(f, 20), /truncated/);
      await damaged((f) => {
        const b = readFileSync(f);
        b[b.length - 20]! ^= 0xff;
        writeFileSync(f, b);
      }, /checksum|corrupt/);
      await damaged((f) => writeFileSync(f, ""), /empty/);
      await damaged((f) => writeFileSync(f, "this is not a state file at all, just some text"), /not an arus state file/);
      await damaged((f) => {
        const b = readFileSync(f);
        b.writeUInt16BE(99, 8);
        b.writeUInt32BE(crc32(b.subarray(0, 36)), 36);
        writeFileSync(f, b);
      }, /newer state format \(v99/);
      await damaged((f, dir) => {
        rmSync(f);
        writeFileSync(f, readFileSync(path.join(dir, "1.delta")));
      }, /file name says/);
      await damaged((f) => writeFileSync(f, Buffer.concat([readFileSync(f), Buffer.from([1, 2, 3])])), /unexpected bytes/);
      // a missing delta in the middle of the chain
      await damaged((f) => rmSync(f), /no state file for version 2 exists/, "2.delta", "3.delta");
    });

    test("reads the format-1 files arus wrote before", { skip: options.skip?.format1 }, async () => {
      const dir = tempDir();
      const legacy = new Packr({ moreTypes: true, structuredClone: true });
      writeFileSync(
        path.join(dir, "1.delta"),
        legacy.pack({
          magic: "arus-state",
          format: 1,
          puts: [
            ["a", row(1)],
            ["b", [new Map([["m", 1]])]],
          ],
          removes: [],
        }),
      );
      writeFileSync(path.join(dir, "2.delta"), legacy.pack({ magic: "arus-state", format: 1, puts: [["c", row(3)]], removes: ["a"] }));
      const p = factory(dir, OPTS);
      const s = await p.getStore(2);
      assertSame(
        s,
        new Map<string, StateRow>([
          ["b", [new Map([["m", 1]])]],
          ["c", row(3)],
        ]),
        "legacy",
      );
      s.put("d", row(4));
      await s.commit();
      await p.close();
      assert.equal((await filesAt(dir, 3)).numKeys, 3);
    });

    test("without a checkpoint directory: versions live in memory only", async () => {
      const p = factory(null, OPTS);
      const s = await p.getStore(0);
      s.put("a", row(1));
      assert.equal(await s.commit(), 1);
      const t = await p.getStore(1);
      assert.deepEqual(t.get("a"), row(1));
      t.put("b", row(2));
      t.abort();
      const u = await p.getStore(1);
      assert.equal(u.numKeys, 1);
      u.remove("a");
      await u.commit();
      assert.equal((await p.getStore(2)).numKeys, 0);
      await p.doMaintenance();
      await assert.rejects(p.getStore(1), /not available/);
      await p.close();
    });

    test("property: random ops, commits, aborts, reloads, old versions and maintenance match a Map model", async () => {
      const keyArb = fc.oneof(
        fc.constantFrom(...SPECIAL_KEYS),
        fc.string({ maxLength: 4, unit: "binary" }),
        fc.constantFrom("p1", "p2", "p10", "q"),
      );
      const leaf = fc.oneof(
        fc.integer(),
        fc.double({ noNaN: false }), // -0.0 included: it must come back as -0.0 (codec.ts keepingNegativeZeros)
        fc.string({ maxLength: 6 }),
        fc.constant(null),
        fc.boolean(),
        fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
        fc.uint8Array({ maxLength: 4 }),
      );
      const value = fc.oneof(
        leaf,
        fc.record({ start: fc.integer(), end: fc.integer() }, { noNullPrototype: true }),
        fc.array(leaf, { maxLength: 3 }),
        fc.dictionary(
          fc.string({ maxLength: 3 }).filter((k) => k !== "__proto__"),
          leaf,
          { maxKeys: 3, noNullPrototype: true },
        ),
        fc.array(fc.tuple(leaf, leaf), { maxLength: 2 }).map((es) => new Map(es)),
      );
      const rowArb = options.rowArb ?? fc.array(value, { maxLength: 4 });
      const op = fc.oneof(
        { weight: 6, arbitrary: fc.record({ t: fc.constant("put" as const), k: keyArb, v: rowArb }) },
        { weight: 3, arbitrary: fc.record({ t: fc.constant("remove" as const), k: keyArb }) },
        { weight: 3, arbitrary: fc.record({ t: fc.constant("commit" as const) }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant("abort" as const) }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant("reload" as const), wipe: fc.boolean() }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant("old" as const), back: fc.nat(4) }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant("maintain" as const) }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant("scan" as const), prefix: fc.oneof(keyArb, fc.constant("")) }) },
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
          const dir = tempDir();
          const opts = { minDeltasForSnapshot: 2, minBatchesToRetain: 3 };
          let p = factory(dir, opts);
          // versions[v] = model of committed version v (only the current history)
          const versions: Model[] = [new Map()];
          /** Versions below this may have been deleted by retention. */
          let floor = 0;
          let base = 0;
          let store = await p.getStore(0);
          let work: Model = new Map();
          const reopen = async (v: number) => {
            store = await p.getStore(v);
            base = v;
            work = new Map(versions[v]);
          };
          try {
            for (const o of ops) {
              switch (o.t) {
                case "put":
                  store.put(o.k, o.v);
                  work.set(o.k, o.v);
                  break;
                case "remove":
                  store.remove(o.k);
                  work.delete(o.k);
                  break;
                case "commit": {
                  const v = await store.commit();
                  assert.equal(v, base + 1);
                  versions.length = v; // committing from an older version drops the later ones
                  versions.push(work);
                  await reopen(v);
                  break;
                }
                case "abort":
                  store.abort();
                  await reopen(base);
                  break;
                case "reload": {
                  store.abort();
                  await p.close();
                  if (o.wipe) wipeCaches(dir);
                  p = factory(dir, opts);
                  await reopen(versions.length - 1);
                  break;
                }
                case "old": {
                  // only versions retention keeps are guaranteed loadable
                  const latest = versions.length - 1;
                  const v = Math.max(0, floor, latest - o.back);
                  store.abort();
                  await reopen(v);
                  break;
                }
                case "maintain":
                  store.abort();
                  floor = Math.max(floor, base - opts.minBatchesToRetain);
                  await p.doMaintenance();
                  await reopen(base);
                  break;
                case "scan": {
                  const got = new Map(store.prefixScan(o.prefix));
                  const want = new Map([...work].filter(([k]) => k.startsWith(o.prefix)));
                  assert.deepEqual(sorted(got), sorted(want));
                  break;
                }
              }
              assert.equal(store.numKeys, work.size);
            }
            assertSame(store, work, "end of run");
            store.abort();
            await p.close();
            const latest = versions.length - 1;
            const q = fromFiles(dir, opts);
            assertSame(await q.getStore(latest), versions[latest]!, `latest version ${latest} from files`);
            await q.close();
          } finally {
            await p.close().catch(() => {});
            rmSync(dir, { recursive: true, force: true });
          }
        }),
        { numRuns: Number(process.env.ARUS_STATE_PROPERTY_RUNS ?? 60) },
      );
    });
  });
}
