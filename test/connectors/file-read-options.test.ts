/**
 * Read options Spark has that arus ignored, held to PySpark 4.3's answers: `encoding` / `charset`
 * (a Latin-1 CSV read as UTF-8 gave U+FFFD for every accented letter; Spark's names only, its
 * INVALID_PARAMETER_VALUE.CHARSET otherwise, and for JSON lines its lineSep and denyList
 * requirements), JSON inference's `primitivesAsString` and `dropFieldIfAllNull`. A UTF-16 or
 * UTF-32 CSV file is read as its text says (Spark splits its lines on the raw bytes first and
 * mangles it: docs/differences.md).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type DataFrame, Session } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";
import { tempDirsSync } from "../temp-dirs.js";

const tempDir = tempDirsSync("arus-read-options-");
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

function file(name: string, bytes: Uint8Array | string): string {
  const p = join(tempDir(), name);
  writeFileSync(p, bytes);
  return p;
}

async function read(df: DataFrame): Promise<[string, string[]]> {
  return [
    simpleString(df.schema),
    ((await df.toJSON().collect()) as unknown[]).map((x) => (typeof x === "string" ? x : (x as { value: string }).value)),
  ];
}

const latin1Csv = Buffer.from("name,city\nJos\xe9,M\xfcnchen\n", "latin1");
const latin1Json = Buffer.from('{"a": "Jos\xe9"}\n{"a": "\xfc"}\n', "latin1");
const utf16leJson = Buffer.from('{"a": "José"}\n{"a": "ü"}\n', "utf16le");

describe("encoding / charset (PySpark 4.3's answers)", () => {
  it("reads a CSV file in ISO-8859-1 or US-ASCII", async () => {
    const csv = file("l1.csv", latin1Csv);
    const expected: [string, string[]] = ["struct<name:string,city:string>", ['{"name":"José","city":"München"}']];
    assert.deepEqual(await read(session.read.option("header", "true").option("encoding", "ISO-8859-1").csv(csv)), expected);
    assert.deepEqual(await read(session.read.option("header", "true").option("charset", "iso-8859-1").csv(csv)), expected);
    const ascii = file("a.csv", Buffer.from("name\nJos\xe9\n", "latin1"));
    assert.deepEqual(await read(session.read.option("header", "true").option("encoding", "US-ASCII").csv(ascii)), [
      "struct<name:string>",
      ['{"name":"Jos\ufffd"}'],
    ]);
  });

  it("reads JSON lines in ISO-8859-1 or UTF-16LE with lineSep, and a UTF-16LE document with multiLine", async () => {
    const expected: [string, string[]] = ["struct<a:string>", ['{"a":"José"}', '{"a":"ü"}']];
    const l1 = file("l1.json", latin1Json);
    assert.deepEqual(await read(session.read.options({ encoding: "ISO-8859-1", lineSep: "\n" }).json(l1)), expected);
    const u16 = file("u16.json", utf16leJson);
    assert.deepEqual(await read(session.read.options({ encoding: "UTF-16LE", lineSep: "\n" }).json(u16)), expected);
    assert.deepEqual(await read(session.read.options({ encoding: "UTF-16LE", multiLine: "true" }).json(u16)), [
      "struct<a:string>",
      ['{"a":"José"}'],
    ]);
  });

  it("refuses what Spark refuses", () => {
    const csv = file("l1.csv", latin1Csv);
    for (const name of ["bogus", "utf8", "latin1"])
      assert.throws(
        () => session.read.option("header", "true").option("encoding", name).csv(csv),
        (e: Error) =>
          e.message ===
          `[INVALID_PARAMETER_VALUE.CHARSET] The value of parameter(s) \`charset\` in \`CSVOptions\` is invalid: expects one of the iso-8859-1, us-ascii, utf-16, utf-16be, utf-16le, utf-32, utf-8, but got ${name}.`,
      );
    const json = file("l1.json", latin1Json);
    assert.throws(() => session.read.option("encoding", "bogus").json(json), /INVALID_PARAMETER_VALUE.CHARSET.*JSONOptionsInRead/);
    assert.throws(
      () => session.read.option("encoding", "UTF-16LE").json(json),
      /The lineSep option must be specified for the UTF-16LE encoding/,
    );
    assert.throws(
      () => session.read.options({ encoding: "UTF-16", lineSep: "\n" }).json(json),
      /The UTF-16 encoding must not be included in the denyList/,
    );
  });

  it("reads a UTF-16 or UTF-32 CSV file as its text says", async () => {
    const expected: [string, string[]] = ["struct<name:string,city:string>", ['{"name":"José","city":"München"}']];
    const text = "name,city\nJosé,München\n";
    const be = file("be.csv", Buffer.from(text, "utf16le").swap16());
    assert.deepEqual(await read(session.read.option("header", "true").option("encoding", "UTF-16BE").csv(be)), expected);
    const bom = file("bom.csv", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    assert.deepEqual(await read(session.read.option("header", "true").option("encoding", "UTF-16").csv(bom)), expected);
    const u32 = Buffer.alloc(4 * (text.length + 1));
    u32.writeUInt32BE(0xfeff, 0);
    [...text].forEach((c, i) => {
      u32.writeUInt32BE(c.codePointAt(0)!, 4 * (i + 1));
    });
    assert.deepEqual(await read(session.read.option("header", "true").option("encoding", "UTF-32").csv(file("u32.csv", u32))), expected);
  });

  it("streams a Latin-1 CSV directory", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "0.csv"), latin1Csv);
    const df = session.readStream.schema("name STRING, city STRING").option("header", "true").option("encoding", "ISO-8859-1").csv(dir);
    const q = await df.writeStream.format("memory").queryName("latin1_stream").trigger({ availableNow: true }).start();
    await q.awaitTermination();
    assert.deepEqual(await session.sql("SELECT * FROM latin1_stream").collect(), [{ name: "José", city: "München" }]);
  });
});

describe("JSON inference options (PySpark 4.3's answers)", () => {
  const text = '{"a": 1, "b": 1.5, "c": true, "d": null, "e": {"f": null}, "g": [null], "h": "x"}\n{"a": 2, "d": null}\n';

  it("primitivesAsString infers numbers and booleans as STRING, read as their text", async () => {
    assert.deepEqual(await read(session.read.option("primitivesAsString", "true").json(file("p.json", text))), [
      "struct<a:string,b:string,c:string,d:string,e:struct<f:string>,g:array<string>,h:string>",
      ['{"a":"1","b":"1.5","c":"true","e":{},"g":[null],"h":"x"}', '{"a":"2"}'],
    ]);
  });

  it("dropFieldIfAllNull leaves out fields never seen with a value", async () => {
    assert.deepEqual(await read(session.read.option("dropFieldIfAllNull", "true").json(file("p.json", text))), [
      "struct<a:bigint,b:double,c:boolean,h:string>",
      ['{"a":1,"b":1.5,"c":true,"h":"x"}', '{"a":2}'],
    ]);
  });
});
