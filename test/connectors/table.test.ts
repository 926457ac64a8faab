import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { FileStreamSource } from "../../src/connectors/file-stream/index.js";
import { lookupSink, lookupSource, type SinkContext } from "../../src/connectors/registry.js";
import type { SinkBatch, SourceContext } from "../../src/connectors/source.js";
import {
  appendToTable,
  createTable,
  dropTable,
  readTable,
  saveAsTable,
  schemaFromJson,
  tableExists,
  tableFilesSync,
  tableSchema,
  typeToJson,
  warehouseDir,
} from "../../src/connectors/table/index.js";
import {
  ArrayOf,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  StringType,
  StructOf,
  TimestampType,
} from "../../src/types/datatypes.js";
import { batchOf, rowsOf, tempDir } from "./helpers.js";

const schema = StructOf([field("id", LongType), field("cat", StringType)]);
const data = (rows: unknown[][], s = schema) => ({ schema: s, batches: [batchOf(s, rows)], timeZone: "UTC" });
const sorted = (rows: unknown[][]) => rows.sort((a, b) => Number(a[0]) - Number(b[0]));
const srcCtx = (metadataDir: string | null): SourceContext => ({ metadataDir, timeZone: "UTC", now: Date.now });

describe("tables: layout and batch round trip", () => {
  it("creates <warehouse>/<name> with _arus_table.json and reads appends back", async () => {
    const wh = await tempDir();
    const t = await createTable(wh, "Events", schema);
    assert.equal(t.dir, join(wh, "events"));
    const meta = JSON.parse(await readFile(join(wh, "events", "_arus_table.json"), "utf8"));
    assert.deepEqual(meta.formatVersion, 1);
    assert.equal(meta.format, "parquet");
    assert.deepEqual(meta.schema, {
      type: "struct",
      fields: [
        { name: "id", type: "long", nullable: true, metadata: {} },
        { name: "cat", type: "string", nullable: true, metadata: {} },
      ],
    });
    assert.ok(tableExists(wh, "default.events") && tableExists(wh, "spark_catalog.default.EVENTS"));
    assert.deepEqual(await tableSchema(wh, "events"), schema);
    await assert.rejects(createTable(wh, "events", schema), /TABLE_OR_VIEW_ALREADY_EXISTS.*`spark_catalog`.`default`.`events`/);

    const r0 = await appendToTable(
      wh,
      "events",
      data([
        [1, "a"],
        [2, "b"],
      ]),
    );
    // Columns are matched by name; INT widens to the table's BIGINT.
    const swapped = StructOf([field("cat", StringType), field("id", IntegerType)]);
    const r1 = await appendToTable(wh, "events", data([["c", 3]], swapped));
    assert.deepEqual([r0.version, r1.version], [0, 1]);
    assert.deepEqual(sorted(rowsOf(await readTable(wh, "events", "UTC"))), [
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
    assert.deepEqual((await readdir(join(t.dir, "_spark_metadata"))).sort(), ["0", "1"]);

    // Stray files in the table directory are not part of the table.
    await writeFile(join(t.dir, "part-99999-stray-c000.snappy.parquet"), "junk");
    assert.equal(tableFilesSync(wh, "events").length, 2);

    await assert.rejects(appendToTable(wh, "events", data([["x"]], StructOf([field("cat", StringType)]))), /CANNOT_FIND_DATA.*`id`/);
    await assert.rejects(
      appendToTable(wh, "events", data([[1, 1.5]], StructOf([field("id", LongType), field("cat", DoubleType)]))),
      /CANNOT_SAFELY_CAST/,
    );
    await assert.rejects(readTable(wh, "nope", "UTC"), /TABLE_OR_VIEW_NOT_FOUND.*`nope`/);
    assert.equal(warehouseDir(), join(process.cwd(), "spark-warehouse"));
    assert.equal(warehouseDir({ "spark.sql.warehouse.dir": wh }), wh);
  });

  it("saveAsTable honours save modes and partitionBy (partition columns go last)", async () => {
    const wh = await tempDir();
    const s = StructOf([field("cat", StringType), field("id", LongType)]);
    await saveAsTable(
      wh,
      "p",
      data(
        [
          ["a", 1],
          ["b", 2],
        ],
        s,
      ),
      "errorifexists",
      ["cat"],
    );
    assert.deepEqual(await tableSchema(wh, "p"), StructOf([field("id", LongType), field("cat", StringType)]));
    const dirs = tableFilesSync(wh, "p")
      .map((f) => relative(join(wh, "p"), f).split("/")[0])
      .sort();
    assert.deepEqual(dirs, ["cat=a", "cat=b"]);
    await assert.rejects(saveAsTable(wh, "p", data([["c", 3]], s)), /TABLE_OR_VIEW_ALREADY_EXISTS/);
    assert.equal((await saveAsTable(wh, "p", data([["c", 3]], s), "ignore")).version, null);
    await saveAsTable(wh, "p", data([["c", 3]], s), "append");
    assert.deepEqual(sorted(rowsOf(await readTable(wh, "p", "UTC"))), [
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
    await assert.rejects(saveAsTable(wh, "p", data([["c", 3]], s), "append", ["id"]), /Specified partitioning does not match/);

    const before = tableFilesSync(wh, "p");
    await saveAsTable(wh, "p", data([[9, "z"]]), "overwrite");
    assert.deepEqual(rowsOf(await readTable(wh, "p", "UTC")), [[9, "z"]]);
    for (const f of before) await assert.rejects(readFile(f), "replaced files are removed");
    assert.ok(await dropTable(wh, "p"));
    assert.ok(!tableExists(wh, "p"));
  });

  it("schema JSON round-trips nested types", () => {
    const s = StructOf([
      field("a", ArrayOf(IntegerType, false), false),
      field("m", MapOf(StringType, StructOf([field("t", TimestampType)]))),
    ]);
    assert.deepEqual(schemaFromJson(JSON.parse(JSON.stringify(typeToJson(s)))), s);
  });
});

describe("tables: streaming", () => {
  function sinkCtx(wh: string, checkpointDir: string | null): SinkContext {
    return {
      options: { table: "t", warehouse: wh },
      path: null,
      queryName: null,
      checkpointDir,
      partitionBy: [],
      timeZone: "UTC",
      outputMode: "append",
    };
  }
  const batch = (rows: unknown[][]): SinkBatch => ({
    names: ["id", "cat"],
    schema,
    batches: [batchOf(schema, rows)],
    outputMode: "append",
    timeZone: "UTC",
  });

  it("toTable creates the table and appends each batch once, across restarts", async () => {
    const wh = await tempDir();
    const ckpt = join(wh, "ckpt");
    const sink = lookupSink("arus-table").create(sinkCtx(wh, ckpt));
    assert.equal(sink.description, `FileSink[file:${join(wh, "t")}]`);
    await sink.addBatch(0, batch([[1, "a"]]));
    await sink.addBatch(0, batch([[1, "a"]]));
    // Someone else appends in between: table versions and query batch ids are independent.
    await appendToTable(wh, "t", data([[100, "batch"]]));
    const restarted = lookupSink("arus-table").create(sinkCtx(wh, ckpt));
    await restarted.addBatch(0, batch([[1, "a"]]));
    await restarted.addBatch(1, batch([[2, "b"]]));
    // A different query (checkpoint) has its own batch ids.
    await lookupSink("arus-table")
      .create(sinkCtx(wh, join(wh, "other")))
      .addBatch(0, batch([[3, "c"]]));
    assert.deepEqual(sorted(rowsOf(await readTable(wh, "t", "UTC"))), [
      [1, "a"],
      [2, "b"],
      [3, "c"],
      [100, "batch"],
    ]);
  });

  it("readStream.table discovers newly committed versions", async () => {
    const wh = await tempDir();
    await createTable(wh, "t", schema);
    const provider = lookupSource("arus-table");
    const opts = { table: "t", warehouse: wh, maxFilesPerTrigger: "1" };
    assert.deepEqual(provider.schema(opts, null, "UTC"), schema);
    assert.throws(() => provider.schema({ table: "missing", warehouse: wh }, null, "UTC"), /TABLE_OR_VIEW_NOT_FOUND/);
    const src = provider.create(opts, schema, srcCtx(join(wh, "ckpt", "sources", "0")));
    assert.ok(src instanceof FileStreamSource);
    assert.equal(src.description, `FileStreamSource[file:${join(wh, "t")}]`);
    assert.equal(await src.latestOffset(null, src.defaultReadLimit()), null);

    await appendToTable(wh, "t", data([[1, "a"]]));
    await appendToTable(wh, "t", data([[2, "b"]]));
    const e0 = await src.latestOffset(null, src.defaultReadLimit());
    assert.deepEqual(rowsOf(await src.getBatch(null, e0!)), [[1, "a"]]);
    await appendToTable(wh, "t", data([[3, "c"]]));
    const e1 = await src.latestOffset(e0, src.defaultReadLimit());
    const e2 = await src.latestOffset(e1, src.defaultReadLimit());
    assert.deepEqual(rowsOf(await src.getBatch(e0, e2!)), [
      [2, "b"],
      [3, "c"],
    ]);
    assert.deepEqual(e2, { logOffset: 2 });
  });
});
