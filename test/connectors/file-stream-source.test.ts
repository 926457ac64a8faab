import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { SPARE_NAME_RE } from "../../src/checkpoint/spare-files.js";
import "../../src/connectors/file-stream/index.js";
import { FileStreamSource, fileStreamSchema } from "../../src/connectors/file-stream/index.js";
import { lookupSink, lookupSource } from "../../src/connectors/registry.js";
import type { Offset, ReadLimit, SourceContext } from "../../src/connectors/source.js";
import { field, LongType, StringType, StructOf } from "../../src/types/datatypes.js";
import { rowsOf, tempDir } from "./helpers.js";

const schema = StructOf([field("id", LongType), field("name", StringType)]);
const ALL: ReadLimit = { kind: "all" };

function ctx(metadataDir: string | null): SourceContext {
  return { metadataDir, timeZone: "UTC", now: () => Date.now() };
}

/** Writes a JSON-lines file with a chosen mtime (seconds) so listing order is deterministic. */
async function put(dir: string, name: string, ids: number[], mtimeSec: number): Promise<string> {
  const p = join(dir, name);
  await mkdir(join(p, ".."), { recursive: true });
  await writeFile(p, ids.map((id) => JSON.stringify({ id, name: `n${id}` })).join("\n") + "\n");
  await utimes(p, mtimeSec, mtimeSec);
  return p;
}

function source(dir: string, metadataDir: string | null, extra: Record<string, string> = {}): FileStreamSource {
  return new FileStreamSource("json", { path: dir, ...extra }, schema, ctx(metadataDir));
}

/** One trigger: offset, then the rows in (start, end]. */
async function trigger(src: FileStreamSource, start: Offset | null, limit: ReadLimit = src.defaultReadLimit()) {
  const end = await src.latestOffset(start, limit);
  if (end === null || JSON.stringify(end) === JSON.stringify(start)) return { end: start, ids: null };
  const ids = rowsOf(await src.getBatch(start, end)).map((r) => r[0]);
  return { end, ids };
}

describe("file stream source: discovery", () => {
  it("finds new files across triggers, each exactly once, oldest first", async () => {
    const root = await tempDir();
    const dir = join(root, "in");
    await mkdir(dir);
    const src = source(dir, null);
    assert.equal(src.description, `FileStreamSource[file:${dir}]`);
    assert.equal(await src.latestOffset(null, ALL), null, "nothing yet");

    await put(dir, "b.json", [2], 1000);
    await put(dir, "a.json", [1], 2000);
    const t1 = await trigger(src, null);
    assert.deepEqual(t1.end, { logOffset: 0 });
    assert.deepEqual(t1.ids, [2, 1], "by modification time, not by name");

    const t2 = await trigger(src, t1.end);
    assert.equal(t2.ids, null, "no new files: same offset");

    await put(dir, "c.json", [3, 4], 3000);
    await put(dir, "p=1/d.json", [5], 3000);
    await writeFile(join(dir, "_ignored.json"), '{"id":99}\n');
    await writeFile(join(dir, ".hidden.json"), '{"id":98}\n');
    const t3 = await trigger(src, t2.end);
    assert.deepEqual(t3.end, { logOffset: 1 });
    // (a subdirectory is read as a k=v partition; one that is not, without one, is not: file-listing-as-spark.test.ts)
    assert.deepEqual(t3.ids, [3, 4, 5], "same mtime: by path; hidden names skipped");
  });

  it("maxFilesPerTrigger caps each batch; latestFirst takes the newest first", async () => {
    const dir = await tempDir();
    for (let i = 0; i < 5; i++) await put(dir, `f${i}.json`, [i], 1000 + i);

    const src = source(dir, null, { maxFilesPerTrigger: "2" });
    assert.deepEqual(src.defaultReadLimit(), { kind: "maxFiles", max: 2 });
    const got: unknown[][] = [];
    let start: Offset | null = null;
    for (;;) {
      const t = await trigger(src, start);
      if (t.ids === null) break;
      got.push(t.ids);
      start = t.end;
    }
    assert.deepEqual(got, [[0, 1], [2, 3], [4]]);

    const latest = source(dir, null, { maxFilesPerTrigger: "2", latestFirst: "true" });
    assert.deepEqual((await trigger(latest, null)).ids, [4, 3]);
  });

  it("fileNameOnly dedupes on the file name", async () => {
    const dir = await tempDir();
    await put(dir, "x=1/same.json", [1], 1000);
    await put(dir, "x=2/same.json", [2], 2000);
    const src = source(dir, null, { fileNameOnly: "true" });
    assert.deepEqual((await trigger(src, null)).ids, [1]);
  });

  it("validates its options with Spark's messages", async () => {
    const dir = await tempDir();
    assert.throws(
      () => source(dir, null, { maxFilesPerTrigger: "0" }),
      /Invalid value '0' for option 'maxFilesPerTrigger', must be a positive integer/,
    );
    assert.throws(
      () => source(dir, null, { latestFirst: "yes" }),
      /Invalid value 'yes' for option 'latestFirst', must be 'true' or 'false'/,
    );
    assert.throws(
      () => source(dir, null, { cleanSource: "move" }),
      /Invalid mode for clean source option Some\(move\)\. Must be one of ARCHIVE,DELETE,OFF/,
    );
    assert.throws(() => source(dir, null, { cleanSource: "archive" }), /Archive mode must be used with 'sourceArchiveDir' option\./);
    assert.throws(
      () => source(dir, null, { cleanSource: "archive", sourceArchiveDir: join(dir, "done") }),
      /Base archive path cannot be set/,
    );
    assert.throws(() => new FileStreamSource("json", {}, schema, ctx(null)), /'path' is not specified/);
  });
});

describe("file stream source: durable log", () => {
  it("writes Spark's FileStreamSourceLog and replays identical batches after a restart", async () => {
    const root = await tempDir();
    const dir = join(root, "in");
    const meta = join(root, "ckpt", "sources", "0");
    await mkdir(dir);
    const a = await put(dir, "a.json", [1, 2], 1000);
    const b = await put(dir, "b.json", [3], 2000);

    const first = source(dir, meta, { maxFilesPerTrigger: "1" });
    const t0 = await trigger(first, null);
    const t1 = await trigger(first, t0.end);
    assert.deepEqual([t0.ids, t1.ids], [[1, 2], [3]]);

    const log0 = await readFile(join(meta, "0"), "utf8");
    assert.equal(log0, `v1\n{"path":"${pathToFileURL(a).href}","timestamp":1000000,"batchId":0}`);
    assert.equal(await readFile(join(meta, "1"), "utf8"), `v1\n{"path":"${pathToFileURL(b).href}","timestamp":2000000,"batchId":1}`);
    // (a spare file made ahead for the next entry is not a write's leftover: spare-files.ts)
    const written = (await readdir(meta)).filter((f) => !SPARE_NAME_RE.test(f));
    assert.deepEqual(written.sort(), ["0", "1"], "no temp files left behind");

    // New files arrive while the query is down; the restarted source replays batch 1 as before.
    await put(dir, "c.json", [4], 3000);
    const again = source(dir, meta, { maxFilesPerTrigger: "1" });
    assert.deepEqual(
      rowsOf(await again.getBatch(t0.end, t1.end!)).map((r) => r[0]),
      [3],
    );
    assert.deepEqual(
      rowsOf(await again.getBatch(null, t0.end!)).map((r) => r[0]),
      [1, 2],
    );
    const t2 = await trigger(again, t1.end);
    assert.deepEqual(t2, { end: { logOffset: 2 }, ids: [4] }, "seen files are not read again");
  });

  it("a batch spanning two log offsets reads both (log written, offsets not, then restart)", async () => {
    const root = await tempDir();
    const meta = join(root, "meta");
    await put(root, "in/a.json", [1], 1000);
    const s1 = source(join(root, "in"), meta);
    await s1.latestOffset(null, ALL); // log offset 0 written; pretend the engine died here
    await put(root, "in/b.json", [2], 2000);
    const s2 = source(join(root, "in"), meta);
    const t = await trigger(s2, null);
    assert.deepEqual(t, { end: { logOffset: 1 }, ids: [1, 2] });
  });
});

describe("file stream source: AvailableNow and cleanSource", () => {
  it("AvailableNow never goes past the files present at start", async () => {
    const dir = await tempDir();
    await put(dir, "a.json", [1], 1000);
    await put(dir, "b.json", [2], 2000);
    const src = source(dir, null, { maxFilesPerTrigger: "1" });
    await src.prepareForAvailableNow();
    await put(dir, "c.json", [3], 500);
    const t0 = await trigger(src, null);
    const t1 = await trigger(src, t0.end);
    const t2 = await trigger(src, t1.end);
    assert.deepEqual([t0.ids, t1.ids, t2.ids], [[1], [2], null]);
  });

  it("cleanSource=delete removes the files of committed batches", async () => {
    const dir = await tempDir();
    const a = await put(dir, "a.json", [1], 1000);
    const src = source(dir, null, { cleanSource: "delete" });
    const t0 = await trigger(src, null);
    assert.ok(existsSync(a), "not before commit");
    await src.commit(t0.end!);
    assert.ok(!existsSync(a));
    await src.commit(t0.end!); // a replayed commit is harmless
  });

  it("cleanSource=archive moves files under sourceArchiveDir + their full path", async () => {
    const root = await tempDir();
    const dir = join(root, "in");
    const archive = join(root, "archive");
    const a = await put(dir, "p=1/a.json", [1], 1000);
    const b = await put(dir, "b.json", [2], 2000);
    const src = source(dir, null, { cleanSource: "archive", sourceArchiveDir: archive, maxFilesPerTrigger: "1" });
    const t0 = await trigger(src, null);
    const t1 = await trigger(src, t0.end);
    await src.commit(t0.end!);
    assert.ok(!existsSync(a) && existsSync(b), "only the committed batch's file moves");
    assert.ok(existsSync(join(archive, a)));
    await src.commit(t1.end!);
    assert.ok(!existsSync(b) && existsSync(join(archive, b)));
  });
});

describe("file stream source: schema and errors", () => {
  it("requires a schema unless spark.sql.streaming.schemaInference, then infers from files present; text has a fixed one", async () => {
    const dir = await tempDir();
    const empty = await tempDir();
    for (const inference of [false, true]) {
      assert.throws(
        () => fileStreamSchema("json", { path: empty }, null, "UTC", inference),
        /^IllegalArgumentException: Schema must be specified when creating a streaming source DataFrame/,
      );
    }
    assert.deepEqual(fileStreamSchema("text", { path: empty }, null, "UTC"), StructOf([field("value", StringType, true)]));
    await put(dir, "a.json", [1], 1000);
    // As Spark: files present or not, no inference unless the conf says so (text excepted).
    for (const fmt of ["json", "csv", "parquet"]) {
      assert.throws(
        () => fileStreamSchema(fmt, { path: dir }, null, "UTC"),
        /Schema must be specified.*spark\.sql\.streaming\.schemaInference/,
      );
    }
    assert.deepEqual(
      fileStreamSchema("json", { path: dir }, null, "UTC", true).fields.map((f) => [f.name, f.type.kind]),
      [
        ["id", "bigint"],
        ["name", "string"],
      ],
    );
    assert.throws(() => fileStreamSchema("json", { path: join(dir, "nope") }, schema, "UTC"), /PATH_NOT_FOUND/);
  });

  it("a file that cannot be parsed fails with an error naming it", async () => {
    const dir = await tempDir();
    const bad = join(dir, "bad.json");
    await writeFile(bad, "{not json\n");
    const src = source(dir, null, { mode: "FAILFAST" });
    const end = await src.latestOffset(null, ALL);
    await assert.rejects(src.getBatch(null, end!), (e: Error) => e.message.includes(bad));
  });

  it("reading ahead changes nothing: a rewritten next file is read fresh, a bad one fails its own batch", async () => {
    const dir = await tempDir();
    for (let i = 0; i < 3; i++) await put(dir, `f${i}.json`, [i], 1000 + i);
    const src = source(dir, null, { maxFilesPerTrigger: "1", mode: "FAILFAST" });
    const t0 = await trigger(src, null);
    assert.deepEqual(t0.ids, [0]);
    // f1 was decoded ahead during batch 0; it changes before batch 1 lists it.
    await put(dir, "f1.json", [10, 11], 1500);
    const t1 = await trigger(src, t0.end);
    assert.deepEqual(t1.ids, [10, 11]);
    // f2 (read ahead during batch 1) turns malformed: only batch 2 fails, naming it.
    const bad = join(dir, "f2.json");
    await writeFile(bad, "{not json\n");
    await utimes(bad, 2000, 2000);
    const end = await src.latestOffset(t1.end, src.defaultReadLimit());
    await assert.rejects(src.getBatch(t1.end, end!), (e: Error) => e.message.includes(bad));
  });

  it("queues the next trigger's file behind a batch's own read-ahead file, never ahead of a batch's fresh read", async () => {
    const dir = await tempDir();
    for (let i = 0; i < 4; i++) await put(dir, `f${i}.json`, [i], 1000 + i);
    const src = source(dir, null, { maxFilesPerTrigger: "1" });
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    src.useFileTask((file, read) => {
      started.push(file.slice(dir.length + 1));
      return new Promise((res) => finish.set(file.slice(dir.length + 1), () => res({ inputRows: 1, value: read })));
    });
    const settle = () => new Promise((r) => setTimeout(r, 20));
    // Batch 0: f0 read fresh; f1 starts only once f0 is done.
    const e0 = (await src.latestOffset(null, src.defaultReadLimit()))!;
    const b0 = src.getPrepared(null, e0);
    await settle();
    assert.deepEqual(started, ["f0.json"]);
    finish.get("f0.json")!();
    await b0;
    await settle();
    assert.deepEqual(started, ["f0.json", "f1.json"]);
    // Batch 1: f1 is being read ahead, so f2 is queued behind it before f1 is done.
    const e1 = (await src.latestOffset(e0, src.defaultReadLimit()))!;
    const b1 = src.getPrepared(e0, e1);
    await settle();
    assert.deepEqual(started, ["f0.json", "f1.json", "f2.json"]);
    finish.get("f1.json")!();
    assert.equal((await b1).length, 1);
    // Batch 2 takes f2's read started ahead (no second read of it).
    const e2 = (await src.latestOffset(e1, src.defaultReadLimit()))!;
    const b2 = src.getPrepared(e1, e2);
    await settle();
    finish.get("f2.json")!();
    assert.equal((await b2).length, 1);
    assert.deepEqual(started, ["f0.json", "f1.json", "f2.json", "f3.json"]);
  });

  it("is registered for json, csv, parquet and text", () => {
    for (const f of ["json", "csv", "parquet", "text"]) {
      assert.ok(lookupSource(f));
      assert.deepEqual(lookupSink(f).outputModes, ["append"]);
    }
  });
});
