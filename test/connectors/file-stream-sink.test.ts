import assert from "node:assert/strict";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { FileStreamSource, readCommittedFiles, readCommittedFilesSync } from "../../src/connectors/file-stream/index.js";
import { listInputFiles, readFiles } from "../../src/connectors/files/index.js";
import { lookupSink, type SinkContext } from "../../src/connectors/registry.js";
import type { SinkBatch, StreamSink } from "../../src/connectors/source.js";
import { field, IntegerType, StringType, StructOf } from "../../src/types/datatypes.js";
import { batchOf, rowsOf, tempDir } from "./helpers.js";

const schema = StructOf([field("id", IntegerType), field("cat", StringType)]);

function sinkCtx(path: string | null, extra: Partial<SinkContext> = {}): SinkContext {
  return {
    options: {},
    path,
    queryName: null,
    checkpointDir: null,
    partitionBy: [],
    timeZone: "UTC",
    outputMode: "append",
    ...extra,
  };
}

function data(rows: unknown[][]): SinkBatch {
  return { names: ["id", "cat"], schema, batches: rows.length ? [batchOf(schema, rows)] : [], outputMode: "append", timeZone: "UTC" };
}

async function readBack(dir: string): Promise<unknown[][]> {
  const files = (await readCommittedFiles(dir)) ?? [];
  return rowsOf(await readFiles("json", files, schema, {}, "UTC")).sort((a, b) => Number(a[0]) - Number(b[0]));
}

function sink(fmt: string, ctx: SinkContext): StreamSink {
  return lookupSink(fmt).create(ctx);
}

describe("file stream sink", () => {
  it("commits each batch in _spark_metadata and skips a replayed batch id", async () => {
    const dir = join(await tempDir(), "out");
    const s = sink("json", sinkCtx(dir));
    assert.equal(s.description, `FileSink[${dir}]`);
    assert.equal(s.reportsOutputRows, false);

    await s.addBatch(
      0,
      data([
        [1, "a"],
        [2, "b"],
      ]),
    );
    await s.addBatch(
      0,
      data([
        [1, "a"],
        [2, "b"],
      ]),
    ); // replay after a crash before commits/0
    await s.addBatch(1, data([])); // a no-data batch still commits (an empty list)
    await s.addBatch(2, data([[3, "c"]]));
    // A restarted query re-runs batch 2: a new sink object, same directory.
    await sink("json", sinkCtx(dir)).addBatch(2, data([[3, "c"]]));

    assert.deepEqual(await readBack(dir), [
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
    const dataFiles = (await readdir(dir)).filter((f) => !f.startsWith("_")).sort();
    assert.equal(dataFiles.length, 2, "one data file per non-empty batch, none for replays");
    for (const f of dataFiles) assert.match(f, /^part-00000-[0-9a-f-]{36}-c000\.json$/);
    assert.deepEqual((await readdir(join(dir, "_spark_metadata"))).sort(), ["0", "1", "2"]);
    assert.ok(!(await readdir(dir)).includes("_SUCCESS"));
  });

  it("writes Spark's SinkFileStatus lines", async () => {
    const dir = await tempDir();
    await sink("json", sinkCtx(dir)).addBatch(0, data([[1, "a"]]));
    const text = await readFile(join(dir, "_spark_metadata", "0"), "utf8");
    const [version, line, ...rest] = text.split("\n");
    assert.equal(version, "v1");
    assert.equal(rest.length, 0, "no trailing newline");
    const entry = JSON.parse(line!);
    const file = (await readCommittedFiles(dir))![0]!;
    const st = await stat(file);
    assert.deepEqual(Object.keys(entry), ["path", "size", "isDir", "modificationTime", "blockReplication", "blockSize", "action"]);
    assert.deepEqual(entry, {
      path: pathToFileURL(file).href,
      size: st.size,
      isDir: false,
      modificationTime: Math.floor(st.mtimeMs),
      blockReplication: 1,
      blockSize: 33554432,
      action: "add",
    });
  });

  it("orphan files of a failed attempt stay invisible to manifest readers", async () => {
    const dir = await tempDir();
    await sink("json", sinkCtx(dir)).addBatch(0, data([[1, "a"]]));
    await writeFile(join(dir, "part-00000-orphan-c000.json"), '{"id":9,"cat":"x"}\n');
    assert.equal((await listInputFiles(dir)).length, 2);
    assert.deepEqual(readCommittedFilesSync(dir), await readCommittedFiles(dir));
    assert.deepEqual(await readBack(dir), [[1, "a"]]);
    assert.equal(await readCommittedFiles(await tempDir()), null, "not a sink's output");

    // A streaming file source over the sink's output goes through the manifest too.
    const src = new FileStreamSource("json", { path: dir }, schema, { metadataDir: null, timeZone: "UTC", now: Date.now });
    const end = await src.latestOffset(null, { kind: "all" });
    assert.deepEqual(rowsOf(await src.getBatch(null, end!)), [[1, "a"]]);
  });

  it("compacts every compactInterval batches into N.compact", async () => {
    const dir = await tempDir();
    const s = sink("json", sinkCtx(dir, { options: { "spark.sql.streaming.fileSink.log.compactInterval": "3" } }));
    for (let b = 0; b < 7; b++) await s.addBatch(b, data([[b, "x"]]));
    const names = (await readdir(join(dir, "_spark_metadata"))).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
    assert.deepEqual(names, ["0", "1", "2.compact", "3", "4", "5.compact", "6"]);
    const compact = (await readFile(join(dir, "_spark_metadata", "5.compact"), "utf8")).split("\n");
    assert.equal(compact.length, 1 + 6, "all live entries of batches 0..5");
    assert.deepEqual(
      (await readBack(dir)).map((r) => r[0]),
      [0, 1, 2, 3, 4, 5, 6],
    );
    await s.addBatch(5, data([[5, "x"]]));
    assert.equal((await readBack(dir)).length, 7, "an id covered by a compact file is skipped too");
  });

  it("partitionBy writes col=value directories listed in the manifest", async () => {
    const dir = await tempDir();
    await sink("json", sinkCtx(dir, { partitionBy: ["cat"] })).addBatch(
      0,
      data([
        [1, "a"],
        [2, "b"],
        [3, "a"],
      ]),
    );
    const files = (await readCommittedFiles(dir))!.map((f) => relative(dir, f).split("/")[0]).sort();
    assert.deepEqual(files, ["cat=a", "cat=b"]);
    const rows = rowsOf(await readFiles("json", (await readCommittedFiles(dir))!, schema, { basePath: dir }, "UTC"));
    assert.deepEqual(
      rows.sort((a, b) => Number(a[0]) - Number(b[0])),
      [
        [1, "a"],
        [2, "b"],
        [3, "a"],
      ],
    );
  });

  it("needs a path", () => {
    assert.throws(() => sink("parquet", sinkCtx(null)), /'path' is not specified/);
  });
});
