import assert from "node:assert/strict";
import { readFile as fsReadFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { MalformedInputException } from "../../src/common/errors.js";
import { inferFileSchema, listInputFiles, readFile, readFiles, writeFiles } from "../../src/connectors/files/index.js";
import {
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

const csvFile = (text: string, name = "a.csv"): Promise<string> => tempFile(name, text);

describe("csv: parsing", () => {
  it("handles quotes, embedded separators, newlines and escaped quotes", async () => {
    const f = await csvFile(
      ["id,text,note", '1,"a, b","line1', 'line2"', '2,"say \\"hi\\"","RFC ""double"" quotes"', '3,,""', "", "4,plain,trailing,"].join(
        "\r\n",
      ),
    );
    const schema = StructOf([
      field("id", IntegerType),
      field("text", StringType),
      field("note", StringType),
      field("_corrupt_record", StringType),
    ]);
    const rows = rowsOf(await readFile("csv", f, schema, { header: "true", multiLine: "true" }, "UTC"));
    assert.deepStrictEqual(rows, [
      // PySpark 4.3: a line break inside quotes reads as \n; with the default escape (\) RFC 4180's
      // doubled quotes are not an escape: the value is its text from the opening quote on.
      [1, "a, b", "line1\nline2", null],
      [2, 'say "hi"', '"RFC ""double"" quotes"', null],
      // Spark: an empty token and, with the default nullValue "", a quoted "" are both NULL.
      [3, null, null, null],
      [4, "plain", "trailing", "4,plain,trailing,"], // 4 tokens for 3 columns: malformed
    ]);
  });

  it("honours sep, quote, escape and nullValue", async () => {
    const f = await csvFile("a;'x;y';NA\nb;'it''s';q\nc;'o\\'k';\n");
    const schema = StructOf([field("k", StringType), field("v", StringType), field("w", StringType)]);
    const rows = rowsOf(await readFile("csv", f, schema, { sep: ";", quote: "'", nullValue: "NA" }, "UTC"));
    assert.deepStrictEqual(rows, [
      ["a", "x;y", null],
      ["b", "'it''s'", "q"], // PySpark 4.3: a doubled quote is not an escape by default
      ["c", "o'k", null],
    ]);
    const tabs = await csvFile("1\tx\n");
    assert.deepStrictEqual(
      rowsOf(await readFile("csv", tabs, StructOf([field("a", IntegerType), field("b", StringType)]), { delimiter: "\t" }, "UTC")),
      [[1, "x"]],
    );
  });

  it("names columns _c0.. without a header", async () => {
    const f = await csvFile("1,x\n2,y\n");
    const s = await inferFileSchema("csv", [f], {}, "UTC");
    assert.equal(simpleString(s), "struct<_c0:string,_c1:string>");
    assert.deepStrictEqual(rowsOf(await readFile("csv", f, s, {}, "UTC")), [
      ["1", "x"],
      ["2", "y"],
    ]);
  });
});

describe("csv: schema inference", () => {
  it("infers int, bigint, double, boolean, date, timestamp and string like Spark", async () => {
    const f = await csvFile(
      [
        "i,l,d,b,dt,ts,s,mix,empty,dup,dup",
        "1,3000000000,1.5,true,2026-01-02,2026-01-02 10:00:00,x,1,,a,b",
        "2,4,2,FALSE,2026-02-03,2026-01-02T10:00:00Z,y,true,,c,d",
        "-3,,1e3,,,,z,,,e,f",
      ].join("\n"),
    );
    const s = await inferFileSchema("csv", [f], { header: "true", inferSchema: "true" }, "UTC");
    assert.equal(
      simpleString(s),
      "struct<i:int,l:bigint,d:double,b:boolean,dt:date,ts:timestamp,s:string,mix:string,empty:string,dup9:string,dup10:string>",
    );
    const rows = rowsOf(await readFile("csv", f, s, { header: "true" }, "UTC"));
    assert.deepStrictEqual(rows[0]!.slice(0, 6), [1, 3000000000, 1.5, 1, 20455, utcMicros(2026, 1, 2, 10)]);
    assert.deepStrictEqual(rows[2]!.slice(0, 4), [-3, null, 1000, null]);
    const plain = await inferFileSchema("csv", [f], { header: "true" }, "UTC");
    assert.ok(plain.fields.every((x) => x.type.kind === "string"));
  });
});

describe("csv: read modes", () => {
  const text = "1,a\nx,b\n3\n4,d\n";
  const schema = StructOf([field("n", IntegerType), field("s", StringType), field("_corrupt_record", StringType)]);

  it("PERMISSIVE keeps parsed tokens and the raw record", async () => {
    const f = await csvFile(text);
    assert.deepStrictEqual(rowsOf(await readFile("csv", f, schema, {}, "UTC")), [
      [1, "a", null],
      [null, "b", "x,b"],
      [3, null, "3"],
      [4, "d", null],
    ]);
  });

  it("DROPMALFORMED drops them", async () => {
    const f = await csvFile(text);
    assert.deepStrictEqual(rowsOf(await readFile("csv", f, schema, { mode: "DROPMALFORMED" }, "UTC")), [
      [1, "a", null],
      [4, "d", null],
    ]);
  });

  it("FAILFAST names the file and the record's first line", async () => {
    const f = await csvFile('h1,h2\n1,"multi\nline"\nbad,x\n');
    const s = StructOf([field("n", IntegerType), field("s", StringType)]);
    await assert.rejects(readFile("csv", f, s, { header: "true", mode: "FAILFAST", multiLine: "true" }, "UTC"), (e: unknown) => {
      assert.ok(e instanceof MalformedInputException);
      assert.equal(e.line, 4);
      assert.ok(e.message.startsWith(`Malformed record in ${f} at line 4: bad,x`), e.message);
      return true;
    });
  });
});

describe("csv: writing", () => {
  const schema = StructOf([
    field("id", LongType),
    field("name", StringType),
    field("ts", TimestampType),
    field("v", DoubleType),
    field("ok", BooleanType),
    field("d", DateType),
  ]);
  const t = utcMicros(2026, 10, 16, 14, 2, 30, 123000);
  const rows = [
    [1, "plain", t, 1.5, 1, 20742],
    [2, 'comma, "quote" and\nnewline ✓', null, 1e-5, 0, null],
    [3, "", t, null, null, 0],
    [4, null, 0, -2, 1, -365],
    [5, "back\\slash, here", 1000, 0, 0, 1],
  ];

  it("quotes only what needs it, escapes quotes with backslash, writes a header on request", async () => {
    const dir = join(await tempDir(), "out");
    const [f] = await writeFiles("csv", dir, schema, [batchOf(schema, rows)], { header: "true" }, "error", "UTC");
    assert.match(f!, /part-00000-.*-c000\.csv$/);
    const lines = (await fsReadFile(f!, "utf8")).split("\n");
    assert.equal(lines[0], "id,name,ts,v,ok,d");
    assert.equal(lines[1], "1,plain,2026-10-16T14:02:30.123Z,1.5,true,2026-10-16");
    assert.equal(lines[2], '2,"comma, \\"quote\\" and');
    assert.equal(lines[3], 'newline ✓",,1.0E-5,false,');
    assert.equal(lines[4], '3,"",2026-10-16T14:02:30.123Z,,,1970-01-01');
  });

  it("round-trips (empty strings read back as NULL, as in Spark)", async () => {
    const dir = join(await tempDir(), "out");
    await writeFiles(
      "csv",
      dir,
      schema,
      [batchOf(schema, rows.slice(0, 3)), batchOf(schema, rows.slice(3))],
      { header: "true" },
      "error",
      "UTC",
    );
    const files = await listInputFiles(dir);
    assert.equal(files.length, 2);
    const back = rowsOf(await readFiles("csv", files, schema, { header: "true", multiLine: "true" }, "UTC"));
    const expected = rows.map((r) => r.map((v) => (v === "" ? null : v)));
    assert.deepStrictEqual(back, expected);
    const inferred = await inferFileSchema("csv", files, { header: "true", inferSchema: "true", multiLine: "true" }, "UTC");
    assert.equal(simpleString(inferred), "struct<id:int,name:string,ts:timestamp,v:double,ok:boolean,d:date>");
  });
});
