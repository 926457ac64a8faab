// Which files a file read takes, and its partition columns, as Spark 4.3's file index decides
// (every expected value is what PySpark 4.3.0 gave on the same tree): glob load paths,
// subdirectories read only when they are `k=v` partitions or with recursiveFileLookup,
// pathGlobFilter, partition columns added to (and moved to the end of) a user's schema, and the
// streaming source's maxBytesPerTrigger. Before, arus read every file below a directory, took a
// glob for a missing path, ignored pathGlobFilter and maxBytesPerTrigger, and dropped partition
// columns a user's schema left out.
import assert from "node:assert/strict";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { type DataFrame, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tmp = tempDirsSync("arus-file-listing-");
const s = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const T = 1_700_000_000;

/** The test tree (a file per entry: its rows' k values, and its modification time offset). */
function tree(): string {
  const root = tmp();
  const put = (rel: string, ks: number[], dt: number) => {
    const f = path.join(root, rel);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, ks.map((k) => `${JSON.stringify({ k, v: `v${k}` })}\n`).join(""));
    utimesSync(f, T + dt, T + dt);
  };
  for (let i = 0; i < 4; i++) put(`flat/part-${i}.json`, [i, i], i * 100);
  put("flat/_ignored.json", [99], 50);
  put("flat/.hidden.json", [98], 60);
  put("flat/notes.txt", [97], 70);
  put("nested/a/part-0.json", [10], 0);
  put("nested/a/b/part-1.json", [11], 100);
  put("nested/top.json", [12], 200);
  put("part/date=2024-01-01/part-0.json", [20], 0);
  put("part/date=2024-01-02/part-1.json", [21], 100);
  put("part/date=2024-01-02/part-2.json", [22], 200);
  // 21-byte files, days apart
  for (let i = 0; i < 4; i++) {
    const f = path.join(root, `sized/part-${i}.json`);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, `{"k": ${30 + i}, "v": "o${i}"}\n`);
    utimesSync(f, T + i * 259_200, T + i * 259_200);
  }
  return root;
}

/** A one-row file `{"k": k}` at `root/rel`. */
function putK(root: string, rel: string, k: number): void {
  const f = path.join(root, rel);
  mkdirSync(path.dirname(f), { recursive: true });
  writeFileSync(f, `{"k": ${k}}\n`);
}

const ks = async (df: DataFrame) => (await df.collect()).map((r) => r.k as number).sort((a, b) => a - b);
const read = (opts: Record<string, string> = {}) => s.read.schema("k INT, v STRING").options(opts);

/** Each micro-batch's k values (sorted) of a stream over `dir`. */
async function batches(dir: string, opts: Record<string, string>, schema = "k INT, v STRING"): Promise<number[][]> {
  const out: number[][] = [];
  const q = await s.readStream
    .schema(schema)
    .options(opts)
    .json(dir)
    .writeStream.foreachBatch(async (b) => {
      out.push(await ks(b));
    })
    .option("checkpointLocation", tmp())
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  return out;
}

describe("file listing as Spark's file index (expected values from PySpark 4.3.0)", () => {
  it("a directory's subdirectories are read only as k=v partitions or with recursiveFileLookup", async () => {
    const root = tree();
    assert.deepEqual(await ks(read().json(path.join(root, "nested"))), [12]);
    assert.deepEqual(await ks(read({ recursiveFileLookup: "true" }).json(path.join(root, "nested"))), [10, 11, 12]);
    // recursiveFileLookup turns partition inference off
    const flatParts = read({ recursiveFileLookup: "true" }).json(path.join(root, "part"));
    assert.deepEqual(flatParts.columns, ["k", "v"]);
    assert.deepEqual(await ks(flatParts), [20, 21, 22]);
  });

  it("glob load paths: * ? [..] {..} per segment, hidden names skipped, PATH_NOT_FOUND when nothing matches", async () => {
    const root = tree();
    assert.deepEqual(await ks(read().json(path.join(root, "flat/*.json"))), [0, 0, 1, 1, 2, 2, 3, 3]);
    assert.deepEqual(await ks(read().json(path.join(root, "flat/part-[0-2].json"))), [0, 0, 1, 1, 2, 2]);
    assert.deepEqual(await ks(read().json(path.join(root, "{flat,sized}/part-[13].json"))), [1, 1, 3, 3, 31, 33]);
    assert.deepEqual(await ks(read().json(path.join(root, "*/part-0.json"))), [0, 0, 30]);
    // a partition directory matched by a glob is a root: no partition column
    const parts = read().json(path.join(root, "part/date=*"));
    assert.deepEqual(parts.columns, ["k", "v"]);
    assert.deepEqual(await ks(parts), [20, 21, 22]);
    assert.throws(
      () => read().json(path.join(root, "nomatch*")),
      (e: Error) => e.message === `[PATH_NOT_FOUND] Path does not exist: file:${path.join(root, "nomatch*")}.`,
    );
  });

  it("escaped glob characters, a wildcard over files and dirs, hidden names (review against PySpark 4.3.0)", async () => {
    const root = tmp();
    const put = (rel: string, k: number) => putK(root, rel, k);
    put("esc/a[1].json", 1);
    put("crash/a.json", 1);
    put("crash/d/z.json", 2);
    put("hid/.h/a.json", 1);
    put("hid/.f.json", 2);
    const k = (p: string) => ks(s.read.schema("k INT").json(path.join(root, p)));
    assert.deepEqual(await k("esc/a\\[1\\].json"), [1]);
    assert.deepEqual(await k("crash/*/z.json"), [2]);
    assert.deepEqual(await k("hid/.h*"), [1], "a hidden directory a glob matches is read");
    assert.deepEqual(await k("hid/.f*"), [], "a hidden file is no data file");
    assert.deepEqual(await k("hid/.f.json"), [], "not even named directly");
  });

  it("partition directories: a plain directory below one is in it; the root's own files are left out", async () => {
    const root = tmp();
    const put = (rel: string, k: number) => putK(root, rel, k);
    put("nest/p=1/sub/a.json", 1);
    put("nest/p=2/b.json", 2);
    put("root/a.json", 0);
    put("root/p=1/b.json", 1);
    const rows = async (p: string) => {
      const df = s.read.schema("k INT").json(path.join(root, p));
      return { columns: df.columns, rows: (await df.collect()).map((r) => `${r.k}:${r.p}`).sort() };
    };
    assert.deepEqual(await rows("nest"), { columns: ["k", "p"], rows: ["1:1", "2:2"] });
    assert.deepEqual(await rows("root"), { columns: ["k", "p"], rows: ["1:1"] });
    // a stream over a glob of partition directories: they are its roots (no partition column)
    assert.deepEqual(s.readStream.schema("k INT").json(path.join(root, "nest/p=*")).columns, ["k"]);
  });

  it("pathGlobFilter keeps the files whose name matches", async () => {
    const root = tree();
    assert.deepEqual(await ks(read({ pathGlobFilter: "*-[12].json" }).json(path.join(root, "flat"))), [1, 1, 2, 2]);
    assert.deepEqual(await batches(path.join(root, "flat"), { pathGlobFilter: "*-[12].json", maxFilesPerTrigger: "1" }), [
      [1, 1],
      [2, 2],
    ]);
  });

  it("partition columns a user's schema leaves out are added; named ones move to the end with the user's type", async () => {
    const root = tree();
    const missing = read().json(path.join(root, "part"));
    assert.deepEqual(missing.columns, ["k", "v", "date"]);
    assert.equal(missing.schema.fields[2]!.type.kind, "date");
    const first = s.read.schema("date STRING, k INT, v STRING").json(path.join(root, "part"));
    assert.deepEqual(first.columns, ["k", "v", "date"]);
    assert.deepEqual((await first.collect()).map((r) => `${r.k}:${r.date}`).sort(), ["20:2024-01-01", "21:2024-01-02", "22:2024-01-02"]);
    const stream = s.readStream.schema("k INT, v STRING").json(path.join(root, "part"));
    assert.deepEqual(stream.columns, ["k", "v", "date"]);
  });

  it("a stream over a glob path", async () => {
    const root = tree();
    assert.deepEqual(await batches(path.join(root, "flat/part-[0-2].json"), { maxFilesPerTrigger: "2" }), [
      [0, 0, 1, 1],
      [2, 2],
    ]);
  });

  it("maxBytesPerTrigger: files while their sizes add up to at most the limit, at least one", async () => {
    const root = tree();
    const dir = path.join(root, "sized");
    assert.deepEqual(await batches(dir, { maxBytesPerTrigger: "10" }), [[30], [31], [32], [33]]);
    assert.deepEqual(await batches(dir, { maxBytesPerTrigger: "62" }), [
      [30, 31],
      [32, 33],
    ]);
    assert.deepEqual(await batches(dir, { maxBytesPerTrigger: "63" }), [[30, 31, 32], [33]]);
    await assert.rejects(batches(dir, { maxBytesPerTrigger: "30", maxFilesPerTrigger: "1" }), {
      message: "Options 'maxFilesPerTrigger' and 'maxBytesPerTrigger' can't be both set at the same time",
    });
    await assert.rejects(batches(dir, { maxBytesPerTrigger: "1k" }), {
      message: "Invalid value '1k' for option 'maxBytesPerTrigger', must be a positive integer",
    });
  });
});
