import assert from "node:assert/strict";
import { readFile as fsReadFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { inferFileSchemaSync, listInputFilesSync, readFile, writeFiles } from "../../src/connectors/files/index.js";
import { DateType, field, IntegerType, StringType, StructOf, simpleString, TimestampType } from "../../src/types/datatypes.js";
import { batchOf, rowsOf, tempDir, utcMicros } from "./helpers.js";

describe("file options", () => {
  it("timestampFormat / dateFormat apply to reading, writing and CSV inference", async () => {
    const schema = StructOf([field("ts", TimestampType), field("d", DateType)]);
    const opts = { timestampFormat: "dd/MM/yyyy HH:mm", dateFormat: "yyyyMMdd" };
    const dir = join(await tempDir(), "out");
    const t = utcMicros(2026, 10, 16, 14, 2);
    const [f] = await writeFiles("csv", dir, schema, [batchOf(schema, [[t, 20742]])], opts, "error", "UTC");
    assert.equal(await fsReadFile(f!, "utf8"), "16/10/2026 14:02,20261016\n");
    assert.deepStrictEqual(rowsOf(await readFile("csv", f!, schema, opts, "UTC")), [[t, 20742]]);
    const inferred = inferFileSchemaSync("csv", [f!], { ...opts, inferSchema: "true" }, "UTC");
    assert.equal(simpleString(inferred), "struct<_c0:timestamp,_c1:int>");
  });

  it("the timeZone option overrides the session zone", async () => {
    const schema = StructOf([field("ts", TimestampType)]);
    const dir = join(await tempDir(), "out");
    const [f] = await writeFiles("json", dir, schema, [batchOf(schema, [[0]])], { timeZone: "America/New_York" }, "error", "UTC");
    assert.equal((await fsReadFile(f!, "utf8")).trim(), '{"ts":"1969-12-31T19:00:00.000-05:00"}');
  });

  it("ignoreNullFields=false writes nulls; gzip files are read by extension", async () => {
    const schema = StructOf([field("a", IntegerType), field("b", StringType)]);
    const dir = join(await tempDir(), "out");
    const [f] = await writeFiles(
      "json",
      dir,
      schema,
      [batchOf(schema, [[1, null]])],
      { ignoreNullFields: "false", compression: "gzip" },
      "error",
      "UTC",
    );
    assert.match(f!, /\.json\.gz$/);
    assert.deepStrictEqual(rowsOf(await readFile("json", f!, schema, {}, "UTC")), [[1, null]]);
    const plain = join(await tempDir(), "x.json.gz");
    await writeFile(plain, gzipSync('{"a":5,"b":null}\n'));
    assert.deepStrictEqual(rowsOf(await readFile("json", plain, schema, {}, "UTC")), [[5, null]]);
  });

  it("JSON lineSep separates the written rows (as PySpark 4.3 writes them; was always \\n)", async () => {
    const schema = StructOf([field("a", IntegerType), field("b", StringType)]);
    const dir = join(await tempDir(), "out");
    const [f] = await writeFiles(
      "json",
      dir,
      schema,
      [
        batchOf(schema, [
          [1, "x"],
          [2, null],
        ]),
      ],
      { lineSep: "\r\n" },
      "error",
      "UTC",
    );
    assert.equal(await fsReadFile(f!, "utf8"), '{"a":1,"b":"x"}\r\n{"a":2}\r\n');
  });

  it("sync listing and inference (what DataFrameReader.load uses)", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "a.json"), '{"x":1}\n');
    const files = listInputFilesSync(dir);
    assert.equal(simpleString(inferFileSchemaSync("json", files, {}, "UTC")), "struct<x:bigint>");
    assert.throws(
      () => inferFileSchemaSync("json", [], {}, "UTC"),
      /\[UNABLE_TO_INFER_SCHEMA\] Unable to infer schema for JSON\. It must be specified manually\./,
    );
    assert.throws(() => listInputFilesSync(join(dir, "missing")), /\[PATH_NOT_FOUND\]/);
  });

  it("rejects a corrupt-record column that is not a string", async () => {
    const dir = await tempDir();
    const f = join(dir, "a.json");
    await writeFile(f, "{}\n");
    const bad = StructOf([field("_corrupt_record", IntegerType)]);
    await assert.rejects(
      readFile("json", f, bad, {}, "UTC"),
      /\[INVALID_CORRUPT_RECORD_TYPE\] The column `_corrupt_record` for corrupt records must have the nullable STRING type, but got INT\./,
    );
  });

  it("splits large files into several batches", async () => {
    const dir = await tempDir();
    const f = join(dir, "big.txt");
    await writeFile(f, "x\n".repeat(40_000));
    const batches = await readFile("text", f, StructOf([field("value", StringType)]), {}, "UTC");
    assert.ok(batches.length >= 2);
    assert.equal(
      batches.reduce((n, b) => n + b.numRows, 0),
      40_000,
    );
  });
});
