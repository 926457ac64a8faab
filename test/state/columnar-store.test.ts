/**
 * The columnar aggregation state store (src/state/columnar/) on its own: versions N -> N+1,
 * abort, reload from delta and snapshot files in a fresh provider, retention, a crash between
 * the delta write and the batch commit, a failed write, damaged and foreign files named in the
 * error, memory accounting, and a fast-check model test (random puts, removes, commits, aborts,
 * reloads, old-version loads and maintenance against a Map, over 1-3 partitions).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import { type CheckpointFs, nodeFs } from "../../src/checkpoint/atomic-file.js";
import { getValue, type Vector, vectorFromValues } from "../../src/columnar/vector.js";
import { crc32 } from "../../src/state/codec.js";
import { ColumnarStateProvider, type ColumnarStateStore, columnarSchemaOf } from "../../src/state/columnar/index.js";
import { MemoryStateStoreProvider } from "../../src/state/memory-provider.js";
import type { ProviderOptions } from "../../src/state/provider-base.js";
import { DoubleType, LongType, StringType, TimestampType, WindowStructType } from "../../src/types/datatypes.js";

const roots: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), "arus-columnar-test-"));
  roots.push(d);
  return d;
}
after(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

// State shaped like `groupBy(window(ts), user).agg(sum(v), ...)`: keys (window, user), buffers (sum?, count).
const SCHEMA = columnarSchemaOf(
  [WindowStructType, StringType],
  [
    { type: DoubleType, nullable: true },
    { type: LongType, nullable: false },
  ],
)!;
const OPTS: ProviderOptions = { minDeltasForSnapshot: 3, minBatchesToRetain: 100 };

type Win = { start: number; end: number } | null;
type Key = readonly [Win, string | null];
type Val = readonly [number | null, number];
type Model = Map<string, Val>;

const kstr = (k: Key) => JSON.stringify(k);
const win = (i: number): Win => ({ start: i * 10_000_000, end: (i + 1) * 10_000_000 });

function keyVectors(keys: readonly Key[]): Vector[] {
  return [
    vectorFromValues(
      WindowStructType,
      keys.map((k) => k[0]),
    ),
    vectorFromValues(
      StringType,
      keys.map((k) => k[1]),
    ),
  ];
}

function put(s: ColumnarStateStore, key: Key, val: Val): void {
  const [id] = s.lookupOrInsert(keyVectors([key]), 1);
  const t = s.table;
  t.bv[0]![id!] = val[0] ?? 0;
  t.bvalid[0]![id!] = val[0] === null ? 0 : 1;
  t.bv[1]![id!] = val[1];
}

function remove(s: ColumnarStateStore, key: Key): void {
  const [id] = s.table.lookup(keyVectors([key]), 1);
  if (id! >= 0) s.remove([id!]);
}

function contents(s: ColumnarStateStore): Model {
  const t = s.table;
  const ids = t.liveIds();
  const keys = t.keyVectors(ids);
  const bufs = t.bufferVectors(ids);
  const m: Model = new Map();
  for (let i = 0; i < ids.length; i++) {
    const k = kstr([getValue(keys[0]!, i) as Win, getValue(keys[1]!, i) as string | null]);
    assert.ok(!m.has(k), `key ${k} is live twice`);
    m.set(k, [getValue(bufs[0]!, i) as number | null, getValue(bufs[1]!, i) as number]);
  }
  return m;
}

function assertSame(s: ColumnarStateStore, model: Model, context: string): void {
  assert.equal(s.numKeys, model.size, `${context}: numKeys`);
  const sorted = (m: Model) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  assert.deepEqual(sorted(contents(s)), sorted(model), `${context}: entries`);
  // every key is found through the index
  for (const k of model.keys()) {
    const key = JSON.parse(k) as Key;
    assert.ok(s.table.lookup(keyVectors([key]), 1)[0]! >= 0, `${context}: lookup(${k})`);
  }
}

const dirsOf = (dir: string | null, parts: number) => Array.from({ length: parts }, (_, p) => (dir ? path.join(dir, String(p)) : null));
const provider = (dir: string | null, parts = 2, opts: ProviderOptions = OPTS) =>
  new ColumnarStateProvider(dirsOf(dir, parts), SCHEMA, opts);

/** Version v read from the files by a fresh provider. */
async function filesAt(dir: string, v: number, parts = 2): Promise<Model> {
  const p = provider(dir, parts);
  try {
    const s = await p.getStore(v);
    const m = contents(s);
    s.abort();
    return m;
  } finally {
    await p.close();
  }
}

function stateFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => /^\d+\.(delta|snapshot)$/.test(f)) : [];
}

describe("columnar aggregation state store", () => {
  test("version 0 is empty; commit gives N+1; every version reloads from the files", async () => {
    const dir = tempDir();
    const p = provider(dir);
    const models: Model[] = [new Map()];
    let model: Model = new Map();
    for (let v = 0; v < 6; v++) {
      const s = await p.getStore(v);
      assert.equal(s.version, v);
      assertSame(s, model, `open ${v}`);
      model = new Map(model);
      for (let i = 0; i < 5; i++) {
        const key: Key = [win(v % 3), `user_${(v + i) % 7}`];
        const old = model.get(kstr(key)) ?? [null, 0];
        const val: Val = [(old[0] ?? 0) + i, old[1] + 1];
        put(s, key, val);
        model.set(kstr(key), val);
      }
      if (v === 3) {
        remove(s, [win(0), "user_3"]);
        model.delete(kstr([win(0), "user_3"]));
      }
      assertSame(s, model, `before commit ${v}`);
      assert.equal(await s.commit(), v + 1);
      models.push(model);
    }
    const s = await p.getStore(6);
    assert.equal(await s.commit(), 7, "a commit without changes still makes a version");
    models.push(model);
    await p.close();
    for (let v = 0; v <= 7; v++) assert.deepEqual(await filesAt(dir, v), models[v], `version ${v} from files`);
    // unchanged partitions and the unchanged version wrote no file
    assert.ok(!existsSync(path.join(dir, "0", "7.delta")) && !existsSync(path.join(dir, "1", "7.delta")));
  });

  test("abort restores updated values, drops inserts and puts removed entries back", async () => {
    const dir = tempDir();
    const p = provider(dir);
    const s = await p.getStore(0);
    for (let i = 0; i < 2000; i++) put(s, [win(i % 4), `u${i}`], [i, 1]);
    await s.commit();
    const before = contents(await p.getStore(1));
    const t = await p.getStore(1);
    for (let i = 0; i < 2000; i += 3) put(t, [win(i % 4), `u${i}`], [-1, 99]);
    for (let i = 0; i < 500; i++) put(t, [win(7), `new${i}`], [1, 1]);
    remove(t, [win(7), "new3"]); // inserted, then removed
    const expired = t.table.expired(0, win(1)!.end);
    t.remove(expired); // a big removal (index rebuilt)
    remove(t, [win(2), "u2"]);
    put(t, [win(2), "u2"], [5, 5]); // removed, then inserted again
    t.abort();
    const u = await p.getStore(1);
    assertSame(u, before, "after abort");
    u.abort();
    await p.close();
    assert.deepEqual(await filesAt(dir, 1), before);
  });

  test("a key removed and put again in one batch, and NULL keys, round-trip through files", async () => {
    const dir = tempDir();
    const p = provider(dir, 3);
    const s = await p.getStore(0);
    const keys: Key[] = [
      [win(1), "a"],
      [null, "a"],
      [win(1), null],
      [null, null],
      [win(2), ""],
      [win(2), "\ud800x"],
      [win(2), "日本"],
      [{ start: Number.NaN, end: 5 }, "nan"],
    ];
    for (const [i, k] of keys.entries()) put(s, k, [i === 3 ? null : i, i]);
    await s.commit();
    const t = await p.getStore(1);
    remove(t, [win(1), "a"]);
    put(t, [win(1), "a"], [42, 1]);
    await t.commit();
    await p.close();
    const m = await filesAt(dir, 2, 3);
    assert.equal(m.size, keys.length);
    assert.deepEqual(m.get(kstr([win(1), "a"])), [42, 1]);
    assert.deepEqual(m.get(kstr([null, null])), [null, 3]);
    assert.deepEqual(m.get(kstr([win(2), "\ud800x"])), [5, 5], "a lone surrogate in a key survives the file");
    assert.ok(m.has(kstr([{ start: Number.NaN, end: 5 }, "nan"])));
  });

  test("without a checkpoint directory: versions live in memory only", async () => {
    const p = provider(null);
    const s = await p.getStore(0);
    put(s, [win(1), "a"], [1, 1]);
    assert.equal(await s.commit(), 1);
    const t = await p.getStore(1);
    put(t, [win(1), "b"], [2, 1]);
    t.abort();
    const u = await p.getStore(1);
    assert.equal(u.numKeys, 1);
    await u.commit();
    await assert.rejects(p.getStore(1), /no checkpoint location/);
    await p.close();
  });

  test("a store refuses changes after commit or abort; getStore aborts a store still open", async () => {
    const p = provider(null);
    const s = await p.getStore(0);
    put(s, [win(1), "a"], [1, 1]);
    await s.commit();
    assert.throws(() => put(s, [win(1), "b"], [1, 1]), /already committed/);
    const t = await p.getStore(1);
    put(t, [win(1), "b"], [1, 1]);
    const u = await p.getStore(1); // aborts t
    assert.throws(() => put(t, [win(1), "c"], [1, 1]), /already aborted/);
    assert.equal(u.numKeys, 1);
    u.abort();
    await p.close();
  });

  test("maintenance snapshots, reload from snapshot + deltas, retention keeps what it must", async () => {
    const dir = tempDir();
    const opts = { minDeltasForSnapshot: 2, minBatchesToRetain: 5 };
    const p = provider(dir, 2, opts);
    const models: Model[] = [new Map()];
    let model: Model = new Map();
    for (let v = 0; v < 20; v++) {
      const s = await p.getStore(v);
      model = new Map(model);
      const key: Key = [win(v % 3), `k${v % 7}`];
      put(s, key, [v, v]);
      model.set(kstr(key), [v, v]);
      if (v % 5 === 4) {
        const gone: Key = [win((v + 1) % 3), `k${(v + 2) % 7}`];
        remove(s, gone);
        model.delete(kstr(gone));
      }
      await s.commit();
      models.push(model);
      await p.doMaintenance();
    }
    await p.close();
    for (const part of ["0", "1"]) {
      const files = stateFiles(path.join(dir, part));
      assert.ok(
        files.some((f) => f.endsWith(".snapshot")),
        `partition ${part} has a snapshot: ${files}`,
      );
      const oldest = Math.min(...files.map((f) => Number.parseInt(f, 10)));
      assert.ok(oldest > 1, `old files of partition ${part} were deleted (${files})`);
      for (const f of files) assert.equal(readFileSync(path.join(dir, part, f)).readUInt16BE(8), 3, `${f} is format 3`);
    }
    for (let v = 15; v <= 20; v++) assert.deepEqual(await filesAt(dir, v), models[v], `retained version ${v}`);
    const q = provider(dir);
    await assert.rejects(q.getStore(2), /retention|cannot be rebuilt/);
    await q.close();
  });

  test("a crash between the delta write and the batch commit: the re-run supersedes the stale delta", async () => {
    const dir = tempDir();
    const p = provider(dir, 1);
    const s = await p.getStore(0);
    put(s, [win(1), "a"], [1, 1]);
    await s.commit();
    const t = await p.getStore(1);
    put(t, [win(1), "stale"], [9, 9]);
    await t.commit(); // 2.delta written, but the batch never reached the commit log
    await p.close();
    const q = provider(dir, 1);
    const r = await q.getStore(1); // the re-run of batch 1 changes other keys
    put(r, [win(1), "b"], [2, 2]);
    await r.commit();
    await q.close();
    assert.deepEqual([...(await filesAt(dir, 2, 1)).keys()].sort(), [kstr([win(1), "a"]), kstr([win(1), "b"])]);
  });

  test("a commit whose file write fails leaves the table at the old version", async () => {
    const dir = tempDir();
    let fail = false;
    const fs: CheckpointFs = {
      ...nodeFs,
      rename: (from, to, overwrite) => (fail ? Promise.reject(new Error("injected rename failure")) : nodeFs.rename(from, to, overwrite)),
    };
    const p = provider(dir, 2, { ...OPTS, fs });
    const s = await p.getStore(0);
    put(s, [win(1), "a"], [1, 1]);
    await s.commit();
    const t = await p.getStore(1);
    put(t, [win(1), "a"], [5, 5]);
    put(t, [win(1), "b"], [2, 2]);
    fail = true;
    await assert.rejects(t.commit(), /injected rename failure/);
    fail = false;
    const u = await p.getStore(1);
    assertSame(u, new Map([[kstr([win(1), "a"]), [1, 1]]]), "after the failed commit");
    u.abort();
    await p.close();
  });

  test("damaged, foreign and misplaced files are errors naming the file", async () => {
    const build = async () => {
      const dir = tempDir();
      const p = provider(dir, 1);
      const s0 = await p.getStore(0);
      for (let i = 0; i < 50; i++) put(s0, [win(i % 2), `k${i}`], [i, i]);
      await s0.commit();
      const s1 = await p.getStore(1);
      put(s1, [win(1), "k1"], [100, 1]);
      await s1.commit();
      const s2 = await p.getStore(2);
      remove(s2, [win(0), "k2"]);
      await s2.commit();
      await p.close();
      return path.join(dir, "0");
    };
    const damaged = async (damage: (file: string, dir: string) => void, pattern: RegExp, file = "2.delta", named = file) => {
      const dir = await build();
      damage(path.join(dir, file), dir);
      const q = new ColumnarStateProvider([dir], SCHEMA, OPTS);
      await assert.rejects(q.getStore(3), (e: Error) => {
        assert.ok(e.message.includes(path.join(dir, named)), `error should name ${named}: ${e.message}`);
        assert.match(e.message, pattern);
        return true;
      });
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
    await damaged((f) => writeFileSync(f, "this is not a state file at all, just some text"), /not an arus/);
    await damaged((f) => {
      const b = readFileSync(f);
      b.writeUInt16BE(99, 8);
      b.writeUInt32BE(crc32(b.subarray(0, 36)), 36);
      writeFileSync(f, b);
    }, /newer state format \(v99; this arus reads up to v5\)/);
    await damaged((f, dir) => {
      rmSync(f);
      writeFileSync(f, readFileSync(path.join(dir, "1.delta")));
    }, /file name says/);
    await damaged((f) => writeFileSync(f, Buffer.concat([readFileSync(f), Buffer.from([1, 2, 3])])), /unexpected bytes/);
    await damaged((f) => {
      const b = readFileSync(f); // the end marker's record count (its low 32 bits end the file)
      b.writeUInt32BE(b.readUInt32BE(b.length - 4) + 1, b.length - 4);
      writeFileSync(f, b);
    }, /should hold \d+ records but holds \d+/);
    await damaged((f) => rmSync(f), /no state file for version 2 exists/, "2.delta", "3.delta");
    // a row-format (v2) file where columnar state is expected, and the other way round
    // a row-format (v2) file where columnar state is expected, and the other way round
    const dir = await build();
    const rowDir = tempDir();
    const rp = new MemoryStateStoreProvider(rowDir, OPTS);
    const rs = await rp.getStore(0);
    rs.put("k", [1]);
    await rs.commit();
    await rp.close();
    rmSync(path.join(dir, "1.delta"));
    writeFileSync(path.join(dir, "1.delta"), readFileSync(path.join(rowDir, "1.delta")));
    const q = new ColumnarStateProvider([dir], SCHEMA, OPTS);
    await assert.rejects(
      q.getStore(1),
      (e: Error) => e.message.includes(path.join(dir, "1.delta")) && /row state \(format v2\)/.test(e.message),
    );
    await q.close();
    const dir2 = await build();
    const rp2 = new MemoryStateStoreProvider(dir2, OPTS);
    await assert.rejects(
      rp2.getStore(1),
      (e: Error) => e.message.includes(path.join(dir2, "1.delta")) && /columnar aggregation state \(format v3/.test(e.message),
    );
    await rp2.close();
    // state of another shape (other key or buffer types)
    const other = columnarSchemaOf([TimestampType], [{ type: LongType, nullable: false }])!;
    const dir3 = await build();
    const q3 = new ColumnarStateProvider([dir3], other, OPTS);
    await assert.rejects(q3.getStore(1), (e: Error) => e.message.includes(path.join(dir3, "1.delta")) && /another shape/.test(e.message));
    await q3.close();
  });

  test("lookupOrInsert hands out batch-local ids: dense, in first-touch order, across calls and growth", async () => {
    const p = provider(null, 1);
    const s0 = await p.getStore(0);
    for (let i = 0; i < 3000; i += 2) put(s0, [win(1), `k${i}`], [i, 1]);
    await s0.commit();
    const s = await p.getStore(1);
    const seen = new Map<number, number>(); // entry -> ordinal
    for (let call = 0; call < 4; call++) {
      const keys: Key[] = Array.from({ length: 1500 }, (_, i) => [win(1), `k${(i * 7 + call * 1000) % 4000}`]);
      const ids = new Int32Array(keys.length);
      const ord = new Int32Array(keys.length);
      s.lookupOrInsert(keyVectors(keys), keys.length, ids, ord);
      for (let i = 0; i < keys.length; i++) {
        const known = seen.get(ids[i]!);
        if (known === undefined) {
          assert.equal(ord[i], seen.size, "a first touch gets the next ordinal");
          seen.set(ids[i]!, ord[i]!);
        } else assert.equal(ord[i], known, "a touched entry keeps its ordinal");
      }
    }
    const touched = s.table.touchedIds();
    assert.equal(touched.length, seen.size);
    for (const [e, o] of seen) assert.equal(touched[o], e);
    s.abort();
    await p.close();
  });

  test("memoryUsedBytes is the exact size of the typed arrays and dictionaries", async () => {
    const p = provider(null, 1);
    const s = await p.getStore(0);
    const n = 100_000;
    const keys: Key[] = Array.from({ length: n }, (_, i) => [win(i % 10), `user_${Math.floor(i / 10)}`]);
    const ids = s.lookupOrInsert(keyVectors(keys), n);
    for (let i = 0; i < n; i++) s.table.bv[1]![ids[i]!] = 1;
    await s.commit();
    const bytes = s.memoryUsedBytes();
    assert.ok(bytes / n > 20 && bytes / n < 64, `bytes per entry: ${bytes / n}`);
    assert.equal(s.metrics().numKeys, n);
    await p.close();
  });
});

// ------------------------------------------------------------------------------ model test

const keyArb: fc.Arbitrary<Key> = fc.tuple(
  fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 3 }).map(win)),
  fc.oneof(fc.constant(null), fc.constantFrom("a", "b", "", "é", "\ud800", "user_1", "user_2", "user_3")),
);
const valArb: fc.Arbitrary<Val> = fc.tuple(fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 5 })), fc.integer({ min: 0, max: 9 }));
const opArb = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant("put" as const), key: keyArb, val: valArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("remove" as const), key: keyArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("evict" as const), end: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("commit" as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("abort" as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reload" as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("maintain" as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("old" as const), back: fc.integer({ min: 0, max: 5 }) }) },
);

describe("columnar aggregation state store: model test", () => {
  test("random puts, removes, evictions, commits, aborts, reloads and maintenance match a Map", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(opArb, { minLength: 1, maxLength: 60 }), async (parts, ops) => {
        const dir = tempDir();
        const opts = { minDeltasForSnapshot: 2, minBatchesToRetain: 100 };
        let p = provider(dir, parts, opts);
        const committed: Model[] = [new Map()];
        let version = 0;
        let model: Model = new Map();
        let s = await p.getStore(0);
        try {
          for (const o of ops) {
            switch (o.op) {
              case "put":
                put(s, o.key, o.val);
                model.set(kstr(o.key), o.val);
                break;
              case "remove":
                remove(s, o.key);
                model.delete(kstr(o.key));
                break;
              case "evict": {
                const end = o.end * 10_000_000;
                s.remove(s.table.expired(0, end));
                for (const k of [...model.keys()]) {
                  const w = (JSON.parse(k) as Key)[0];
                  if (w !== null && w.end <= end) model.delete(k); // a NULL window is never expired
                }
                break;
              }
              case "commit":
                version = await s.commit();
                committed[version] = model;
                model = new Map(model);
                s = await p.getStore(version);
                break;
              case "abort":
                s.abort();
                model = new Map(committed[version]);
                s = await p.getStore(version);
                break;
              case "reload":
                s.abort();
                await p.close();
                p = provider(dir, parts, opts);
                model = new Map(committed[version]);
                s = await p.getStore(version);
                break;
              case "maintain":
                s.abort();
                model = new Map(committed[version]);
                await p.doMaintenance();
                s = await p.getStore(version);
                break;
              case "old": {
                const v = Math.max(0, version - o.back);
                assert.deepEqual(await filesAt(dir, v, parts), committed[v], `old version ${v}`);
                break;
              }
            }
            assertSame(s, model, `after ${o.op}`);
          }
        } finally {
          s.abort();
          await p.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
