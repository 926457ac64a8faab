import assert from "node:assert/strict";
import { readFile as fsReadFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { MalformedInputException } from "../../src/common/errors.js";
import { inferFileSchema, readFile, readFiles, writeFiles } from "../../src/connectors/files/index.js";
import {
  ArrayOf,
  BooleanType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  StringType,
  StructOf,
  simpleString,
  TimestampType,
} from "../../src/types/datatypes.js";
import { batchOf, rowsOf, tempDir, tempFile, utcMicros } from "./helpers.js";

const jsonFile = (lines: string): Promise<string> => tempFile("a.json", lines);

describe("json: schema inference", () => {
  it("follows Spark's rules: bigint, double, string, boolean, struct, array, sorted fields", async () => {
    const f = await jsonFile(
      [
        '{"name":"a","n":1,"x":1.0,"ok":true,"tags":["p","q"],"loc":{"lon":1,"lat":2.5},"ts":"2026-01-01T00:00:00Z"}',
        '{"name":"b","n":2,"x":3,"ok":false,"tags":[],"loc":{"lat":1},"extra":null,"e":{}}',
        "",
        '{"n":3.5,"mixed":1}',
        '{"mixed":"s"}',
      ].join("\n"),
    );
    const s = await inferFileSchema("json", [f], {}, "UTC");
    assert.equal(
      simpleString(s),
      "struct<extra:string,loc:struct<lat:double,lon:bigint>,mixed:string,n:double,name:string,ok:boolean,tags:array<string>,ts:string,x:double>",
    );
  });

  it("adds _corrupt_record for malformed lines in PERMISSIVE, drops them otherwise, FAILFAST names file and line", async () => {
    const f = await jsonFile('{"b":1}\n{"a": oops\n{"a":2}\n');
    assert.equal(simpleString(await inferFileSchema("json", [f], {}, "UTC")), "struct<_corrupt_record:string,a:bigint,b:bigint>");
    assert.equal(simpleString(await inferFileSchema("json", [f], { mode: "DROPMALFORMED" }, "UTC")), "struct<a:bigint,b:bigint>");
    await assert.rejects(inferFileSchema("json", [f], { mode: "failfast" }, "UTC"), (e: unknown) => {
      assert.ok(e instanceof MalformedInputException);
      assert.match(e.message, new RegExp(`^Malformed record in ${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} at line 2: \\{"a": oops`));
      return true;
    });
  });

  it("reads a top-level array as one row per element", async () => {
    const f = await jsonFile('[{"a":1},{"a":2}]\n{"a":3}\n');
    const s = await inferFileSchema("json", [f], {}, "UTC");
    assert.deepStrictEqual(rowsOf(await readFile("json", f, s, {}, "UTC")), [[1], [2], [3]]);
  });
});

describe("json: reading with a schema", () => {
  const schema = StructOf([
    field("id", IntegerType),
    field("ts", TimestampType),
    field("d", DateType),
    field("v", DoubleType),
    field("s", StringType),
    field("_corrupt_record", StringType),
  ]);

  it("parses timestamps in the session zone and keeps the rest", async () => {
    const f = await jsonFile(
      [
        '{"id":1,"ts":"2026-10-16T14:02:30.123456Z","d":"2026-10-16","v":1,"s":"x"}',
        '{"id":2,"ts":"2026-10-16 16:02:30","v":"NaN","s":{"k":[1,2]}}',
        '{"id":3,"ts":1700000000}',
      ].join("\n"),
    );
    const rows = rowsOf(await readFile("json", f, schema, {}, "Europe/Berlin"));
    assert.deepStrictEqual(rows[0], [1, utcMicros(2026, 10, 16, 14, 2, 30, 123456), 20742, 1, "x", null]);
    // 16:02:30 in Berlin (CEST, +02:00) is 14:02:30 UTC.
    assert.deepStrictEqual(rows[1], [2, utcMicros(2026, 10, 16, 14, 2, 30), null, Number.NaN, '{"k":[1,2]}', null]);
    assert.deepStrictEqual(rows[2], [3, 1700000000 * 1_000_000, null, null, null, null]);
  });

  const bad = [
    '{"id":1,"s":"ok"}',
    '{"id":"abc","s":"partial"}',
    "not json at all",
    '{"id":3000000000}',
    '{"id":4,"ts":"yesterday-ish"}',
    '{"id":5}',
  ].join("\n");

  it("PERMISSIVE: malformed values become null, the raw line goes to _corrupt_record", async () => {
    const f = await jsonFile(bad);
    const rows = rowsOf(await readFile("json", f, schema, {}, "UTC"));
    assert.deepStrictEqual(
      rows.map((r) => [r[0], r[4], r[5]]),
      [
        [1, "ok", null],
        [null, "partial", '{"id":"abc","s":"partial"}'],
        [null, null, "not json at all"],
        [null, null, '{"id":3000000000}'],
        [4, null, '{"id":4,"ts":"yesterday-ish"}'],
        [5, null, null],
      ],
    );
  });

  it("honours columnNameOfCorruptRecord, and works without a corrupt column", async () => {
    const f = await jsonFile(bad);
    const s2 = StructOf([field("id", IntegerType), field("bad", StringType)]);
    const rows = rowsOf(await readFile("json", f, s2, { columnNameOfCorruptRecord: "bad" }, "UTC"));
    assert.deepStrictEqual(rows[2], [null, "not json at all"]);
    const s3 = StructOf([field("id", IntegerType)]);
    assert.deepStrictEqual(rowsOf(await readFile("json", f, s3, {}, "UTC")), [[1], [null], [null], [null], [4], [5]]);
  });

  it("DROPMALFORMED skips bad records", async () => {
    const f = await jsonFile(bad);
    const rows = rowsOf(await readFile("json", f, schema, { mode: "DROPMALFORMED" }, "UTC"));
    assert.deepStrictEqual(
      rows.map((r) => r[0]),
      [1, 5],
    );
  });

  it("FAILFAST throws MalformedInputException naming path, 1-based line and record", async () => {
    const f = await jsonFile(bad);
    await assert.rejects(readFile("json", f, schema, { mode: "FAILFAST" }, "UTC"), (e: unknown) => {
      assert.ok(e instanceof MalformedInputException);
      assert.equal(e.file, f);
      assert.equal(e.line, 2);
      assert.ok(e.message.startsWith(`Malformed record in ${f} at line 2: {"id":"abc","s":"partial"}`), e.message);
      return true;
    });
  });
});

describe("json: writing", () => {
  const schema = StructOf([
    field("id", LongType),
    field("name", StringType),
    field("ts", TimestampType),
    field("v", DoubleType),
    field("ok", BooleanType),
    field("d", DateType),
    field("tags", ArrayOf(StringType)),
    field("p", StructOf([field("x", IntegerType), field("y", StringType)])),
  ]);
  const t = utcMicros(2026, 10, 16, 14, 2, 30, 123456);
  const rows = [
    [1, "plain", t, 1, 1, 20742, ["a", null], { x: 1, y: null }],
    [2, 'ünï "quoted" \\ \n new line 😀', null, 1e20, 0, null, [], null],
    [3, null, -1, -0.5, null, -1, null, { x: null, y: "z" }],
  ];

  it("writes Spark-style JSON lines (nulls omitted, ISO timestamps in the session zone)", async () => {
    const dir = join(await tempDir(), "out");
    const files = await writeFiles("json", dir, schema, [batchOf(schema, rows)], {}, "error", "UTC");
    assert.equal(files.length, 1);
    assert.match(files[0]!, /\/part-00000-[0-9a-f-]{36}-c000\.json$/);
    assert.ok((await readdir(dir)).includes("_SUCCESS"));
    const text = await fsReadFile(files[0]!, "utf8");
    const lines = text.split("\n");
    assert.equal(
      lines[0],
      '{"id":1,"name":"plain","ts":"2026-10-16T14:02:30.123Z","v":1.0,"ok":true,"d":"2026-10-16","tags":["a",null],"p":{"x":1}}',
    );
    assert.equal(lines[1], '{"id":2,"name":"ünï \\"quoted\\" \\\\ \\n new line 😀","v":1.0E20,"ok":false,"tags":[]}');
    assert.equal(lines[2], '{"id":3,"ts":"1969-12-31T23:59:59.999Z","v":-0.5,"d":"1969-12-31","p":{"y":"z"}}');
    // Other zones print their offset.
    const dir2 = join(await tempDir(), "out");
    const [f2] = await writeFiles("json", dir2, schema, [batchOf(schema, rows.slice(0, 1))], {}, "error", "Asia/Kolkata");
    assert.match(await fsReadFile(f2!, "utf8"), /"ts":"2026-10-16T19:32:30\.123\+05:30"/);
  });

  it("round-trips through the reader (unicode, nulls; timestamps at the millisecond precision Spark writes)", async () => {
    const dir = join(await tempDir(), "out");
    await writeFiles("json", dir, schema, [batchOf(schema, rows)], {}, "overwrite", "UTC");
    const { listInputFiles } = await import("../../src/connectors/files/index.js");
    const files = await listInputFiles(dir);
    assert.equal(files.length, 1);
    const back = rowsOf(await readFiles("json", files, schema, {}, "UTC"));
    // JSON text carries milliseconds (Spark's format), so compare timestamps at that precision.
    const expected = rows.map((r) => r.map((v, i) => (i === 2 && typeof v === "number" ? Math.floor(v / 1000) * 1000 : v)));
    assert.deepStrictEqual(back, expected);
  });
});
