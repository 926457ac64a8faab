/**
 * JSON `inferTimestamp` as PySpark 4.3.0 infers it (arus ignored the option): a field whose
 * every string reads as a timestamp — by `timestampFormat` when set, else by the cast rules — is
 * TIMESTAMP, nested and in arrays too; one other string makes it STRING. Expected schemas and
 * values are PySpark's for the same files.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";
import { tempDirsSync } from "../temp-dirs.js";

const dirs = tempDirsSync("arus-json-infer-ts-");
const spark = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

function file(lines: string[]): string {
  const path = join(dirs(), "in.json");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("JSON inferTimestamp as PySpark", () => {
  const values = [
    "2024-01-01",
    "123",
    "2024-01-01 10:00",
    "abc",
    "2024-01-01T00:00:00Z",
    "2024-01-01T00:00:00.123+02:00",
    "2024",
    " 2024-01-01",
    "2024-01-01T25:00:00",
  ];
  const path = file(values.map((v, i) => JSON.stringify({ [`c${i}`]: v })));

  it("by the cast rules without a timestampFormat", () => {
    assert.equal(
      simpleString(spark.read.option("inferTimestamp", true).json(path).schema),
      "struct<c0:timestamp,c1:string,c2:timestamp,c3:string,c4:timestamp,c5:timestamp,c6:timestamp,c7:timestamp,c8:string>",
    );
  });

  it("by the timestampFormat when one is set; off by default", () => {
    assert.equal(
      simpleString(spark.read.option("inferTimestamp", true).option("timestampFormat", "yyyy-MM-dd").json(path).schema),
      "struct<c0:timestamp,c1:string,c2:string,c3:string,c4:string,c5:string,c6:string,c7:string,c8:string>",
    );
    assert.ok(spark.read.json(path).schema.fields.every((f) => f.type.kind === "string"));
  });

  it("nested fields and array elements; a field with another string is STRING", async () => {
    const mixed = file([
      '{"a": "2024-01-01", "b": "2024-01-01 10:00", "n": {"t": "2024-05-05T01:02:03Z"}, "arr": ["2024-01-01"]}',
      '{"a": "abc", "b": null, "n": {"t": "2024-05-06"}, "arr": ["2024-02-02", null]}',
    ]);
    const df = spark.read.option("inferTimestamp", true).json(mixed);
    assert.equal(simpleString(df.schema), "struct<a:string,arr:array<timestamp>,b:timestamp,n:struct<t:timestamp>>");
    const rows = await df.select("a", "b", "n.t").toArray();
    assert.deepEqual(
      rows.map((r) => r.map((x) => (x instanceof Date ? x.toISOString() : x))),
      [
        ["2024-01-01", "2024-01-01T10:00:00.000Z", "2024-05-05T01:02:03.000Z"],
        ["abc", null, "2024-05-06T00:00:00.000Z"],
      ],
    );
  });
});
