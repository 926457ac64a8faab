import assert from "node:assert/strict";
import { readFile as fsReadFile, mkdir, readdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { AnalysisException } from "../../src/common/errors.js";
import { inferFileSchema, listInputFiles, readFile, readFiles, writeFiles } from "../../src/connectors/files/index.js";
import { DateType, field, IntegerType, LongType, StringType, StructOf, simpleString, TimestampType } from "../../src/types/datatypes.js";
import { batchOf, rowsOf, tempDir, utcMicros } from "./helpers.js";

describe("listing input files", () => {
  it("walks directories in name order, skipping _ and . names but not _k=v partitions", async () => {
    const root = await tempDir();
    await mkdir(join(root, "sub"), { recursive: true });
    await mkdir(join(root, "_spark_metadata"));
    await mkdir(join(root, "_k=1"));
    for (const f of ["b.json", "a.json", "_SUCCESS", ".a.json.crc", "sub/c.json", "_spark_metadata/0", "_k=1/d.json", "x._COPYING_"]) {
      await writeFile(join(root, f), "");
    }
    const files = await listInputFiles(root);
    assert.deepStrictEqual(
      files.map((f) => relative(root, f)),
      ["_k=1/d.json", "a.json", "b.json", "sub/c.json"],
    );
    assert.deepStrictEqual(await listInputFiles(join(root, "a.json")), [join(root, "a.json")]);
  });

  it("reports a missing path like Spark", async () => {
    const missing = join(await tempDir(), "nope");
    await assert.rejects(listInputFiles(missing), (e: unknown) => {
      assert.ok(e instanceof AnalysisException);
      assert.equal(e.message, `[PATH_NOT_FOUND] Path does not exist: file:${missing}.`);
      return true;
    });
  });
});

describe("save modes", () => {
  const schema = StructOf([field("value", StringType)]);
  const one = (v: string) => [batchOf(schema, [[v]])];

  it("error / errorifexists refuse a non-empty path, ignore skips, append adds, overwrite replaces", async () => {
    const dir = join(await tempDir(), "out");
    await writeFiles("text", dir, schema, one("first"), {}, "error", "UTC");
    for (const mode of ["error", "errorifexists"]) {
      await assert.rejects(writeFiles("text", dir, schema, one("x"), {}, mode, "UTC"), (e: unknown) => {
        assert.ok(e instanceof AnalysisException);
        assert.ok(e.message.startsWith(`[PATH_ALREADY_EXISTS] Path file:${dir} already exists.`), e.message);
        return true;
      });
    }
    assert.deepStrictEqual(await writeFiles("text", dir, schema, one("ignored"), {}, "ignore", "UTC"), []);
    await writeFiles("text", dir, schema, one("second"), {}, "append", "UTC");
    const read = async () =>
      rowsOf(await readFiles("text", await listInputFiles(dir), schema, {}, "UTC"))
        .map((r) => r[0])
        .sort();
    assert.deepStrictEqual(await read(), ["first", "second"]);
    await writeFiles("text", dir, schema, one("third"), {}, "overwrite", "UTC");
    assert.deepStrictEqual(await read(), ["third"]);
    // An existing but empty directory is fine for "error".
    const empty = join(await tempDir(), "empty");
    await mkdir(empty);
    await writeFiles("text", empty, schema, one("ok"), {}, "error", "UTC");
  });

  it("writes one part file per non-empty batch, all with the job's uuid, plus _SUCCESS", async () => {
    const dir = join(await tempDir(), "out");
    const files = await writeFiles("json", dir, schema, [...one("a"), batchOf(schema, []), ...one("b")], {}, "error", "UTC");
    const names = files.map((f) => relative(dir, f));
    assert.equal(names.length, 2);
    assert.match(names[0]!, /^part-00000-([0-9a-f-]{36})-c000\.json$/);
    assert.match(names[1]!, /^part-00002-([0-9a-f-]{36})-c000\.json$/);
    assert.equal(names[0]!.slice(11, 47), names[1]!.slice(11, 47));
    assert.deepStrictEqual((await readdir(dir)).sort(), [...names, "_SUCCESS"].sort());
  });

  it("skips _SUCCESS when mapreduce.fileoutputcommitter.marksuccessfuljobs is false", async () => {
    const dir = join(await tempDir(), "out");
    const files = await writeFiles(
      "json",
      dir,
      schema,
      one("a"),
      { "mapreduce.fileoutputcommitter.marksuccessfuljobs": "false" },
      "error",
      "UTC",
    );
    assert.deepStrictEqual(
      await readdir(dir),
      files.map((f) => relative(dir, f)),
    );
  });

  it("rejects columns the format cannot hold, before touching the path", async () => {
    const dir = join(await tempDir(), "out");
    const two = StructOf([field("a", StringType), field("b", StringType)]);
    await assert.rejects(
      writeFiles("text", dir, two, [], {}, "error", "UTC"),
      /Text data source supports only a single column, and you have 2 columns/,
    );
    const arr = StructOf([field("a", StructOf([field("x", IntegerType)]))]);
    await assert.rejects(
      writeFiles("csv", dir, arr, [], {}, "error", "UTC"),
      /UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE\] The CSV datasource doesn't support the column `a`/,
    );
    await assert.rejects(readdir(dir));
  });
});

describe("text", () => {
  it("reads one row per line (empty lines kept), wholetext reads one row per file", async () => {
    const dir = await tempDir();
    const f = join(dir, "t.txt");
    await writeFile(f, "héllo\r\n\nwörld 😀\n");
    const s = await inferFileSchema("text", [f], {}, "UTC");
    assert.equal(simpleString(s), "struct<value:string>");
    assert.deepStrictEqual(rowsOf(await readFile("text", f, s, {}, "UTC")), [["héllo"], [""], ["wörld 😀"]]);
    assert.deepStrictEqual(rowsOf(await readFile("text", f, s, { wholetext: "true" }, "UTC")), [["héllo\r\n\nwörld 😀\n"]]);
  });

  it("round-trips, NULL written as an empty line; gzip by option and by extension", async () => {
    const s = StructOf([field("value", StringType)]);
    const dir = join(await tempDir(), "t");
    const [f] = await writeFiles("text", dir, s, [batchOf(s, [["a"], [null], ["ü ✓"]])], { compression: "gzip" }, "error", "UTC");
    assert.match(f!, /-c000\.txt\.gz$/);
    assert.deepStrictEqual(rowsOf(await readFile("text", f!, s, {}, "UTC")), [["a"], [""], ["ü ✓"]]);
  });
});

describe("partitionBy", () => {
  const schema = StructOf([field("id", LongType), field("ts", TimestampType), field("country", StringType), field("year", IntegerType)]);
  const t = utcMicros(2026, 10, 16, 14, 2, 30, 123000);
  const rows = [
    [1, t, "ID", 2026],
    [2, t + 1000, "a/b=c", 2026],
    [3, null, "ID", 2025],
    [4, t, null, 2025],
  ];

  for (const format of ["json", "csv", "parquet"]) {
    it(`${format}: writes col=value directories and reads them back as trailing columns`, async () => {
      const dir = join(await tempDir(), "out");
      const opts: Record<string, string> = format === "csv" ? { header: "true" } : {};
      const files = await writeFiles(format, dir, schema, [batchOf(schema, rows)], opts, "error", "UTC", ["year", "country"]);
      const dirs = files.map((f) => relative(dir, f).split("/").slice(0, -1).join("/")).sort();
      assert.deepStrictEqual(dirs, [
        "year=2025/country=ID",
        "year=2025/country=__HIVE_DEFAULT_PARTITION__",
        "year=2026/country=ID",
        "year=2026/country=a%2Fb%3Dc",
      ]);
      const listed = await listInputFiles(dir);
      const inferOpts: Record<string, string> = format === "csv" ? { header: "true", inferSchema: "true" } : {};
      const inferred = await inferFileSchema(format, listed, inferOpts, "UTC");
      const expectedData = format === "csv" ? "id:int,ts:timestamp" : format === "json" ? "id:bigint,ts:string" : "id:bigint,ts:timestamp";
      assert.equal(simpleString(inferred), `struct<${expectedData},year:int,country:string>`);
      const readSchema = StructOf([
        field("id", LongType),
        field("ts", TimestampType),
        field("year", IntegerType),
        field("country", StringType),
      ]);
      const back = rowsOf(await readFiles(format, listed, readSchema, opts, "UTC")).sort((a, b) => (a[0] as number) - (b[0] as number));
      assert.deepStrictEqual(back, [
        [1, t, 2026, "ID"],
        [2, t + 1000, 2026, "a/b=c"],
        [3, null, 2025, "ID"],
        [4, t, 2025, null],
      ]);
      if (format === "json") {
        const f = listed.find((p) => p.includes("country=ID") && p.includes("year=2025"))!;
        assert.equal((await fsReadFile(f, "utf8")).trim(), '{"id":3}');
      }
    });
  }

  it("reads a single partitioned file (the streaming source's path) and types partition values from the schema", async () => {
    const root = await tempDir();
    const d = join(root, "day=2026-10-16", "hour=07");
    await mkdir(d, { recursive: true });
    const f = join(d, "x.json");
    await writeFile(f, '{"v":1}\n');
    const inferred = await inferFileSchema("json", [f], {}, "UTC");
    assert.equal(simpleString(inferred), "struct<v:bigint,day:date,hour:int>");
    assert.deepStrictEqual(rowsOf(await readFile("json", f, inferred, {}, "UTC")), [[1, 20742, 7]]);
    const asText = StructOf([field("day", StringType), field("v", LongType)]);
    assert.deepStrictEqual(rowsOf(await readFile("json", f, asText, {}, "UTC")), [["2026-10-16", 1]]);
    // basePath stops discovery at the given directory.
    const only = await inferFileSchema("json", [f], { basePath: join(root, "day=2026-10-16") }, "UTC");
    assert.equal(simpleString(only), "struct<v:bigint,hour:int>");
  });

  it("rejects unknown and all-column partitioning", async () => {
    const dir = join(await tempDir(), "out");
    await assert.rejects(writeFiles("json", dir, schema, [], {}, "error", "UTC", ["nope"]), /COLUMN_NOT_FOUND/);
    const s1 = StructOf([field("a", DateType)]);
    await assert.rejects(writeFiles("json", dir, s1, [], {}, "error", "UTC", ["a"]), /Cannot use all columns for partition columns/);
  });
});
