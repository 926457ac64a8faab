/**
 * CSV columns are positional: a query reading some of them gets the right ones (the optimizer
 * pruned a CSV scan to the columns a query used, and the reader then read the file's first
 * columns under their names: `select("city")` gave the names), and `enforceSchema=false` checks
 * each file's header against the schema with Spark's messages (PySpark 4.3's).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tempDir = tempDirsSync("arus-csv-columns-");
const session = Session.builder().getOrCreate();

function csv(text: string): string {
  const p = join(tempDir(), "h.csv");
  writeFileSync(p, text);
  return p;
}

describe("CSV columns by position", () => {
  const file = csv("name,city,n\nJose,Berlin,1\nAna,Lisbon,2\n");

  it("a query of some columns reads those columns", async () => {
    const df = session.read.option("header", "true").schema("name STRING, city STRING, n INT").csv(file);
    assert.deepEqual(await df.select("city").collect(), [{ city: "Berlin" }, { city: "Lisbon" }]);
    assert.deepEqual(await df.select("n", "city").collect(), [
      { n: 1, city: "Berlin" },
      { n: 2, city: "Lisbon" },
    ]);
    assert.deepEqual(await df.filter("n = 2").select("name").collect(), [{ name: "Ana" }]);
    assert.equal(await df.select("city").count(), 2);
    const inferred = session.read.option("header", "true").option("inferSchema", "true").csv(file);
    assert.deepEqual(await inferred.groupBy("city").sum("n").orderBy("city").collect(), [
      { city: "Berlin", "sum(n)": 1 },
      { city: "Lisbon", "sum(n)": 2 },
    ]);
    assert.deepEqual(await session.read.csv(file).select("_c2").collect(), [{ _c2: "n" }, { _c2: "1" }, { _c2: "2" }]);
    assert.deepEqual(await session.sql(`SELECT _c1 FROM csv.\`${file}\` WHERE _c0 = 'Ana'`).collect(), [{ _c1: "Lisbon" }]);
  });
});

describe("enforceSchema=false (PySpark 4.3's messages)", () => {
  const file = csv("name,city\nJose,Berlin\n");
  const uri = `file://${file}`;
  const read = (schema: string) => session.read.options({ header: "true", enforceSchema: "false" }).schema(schema).csv(file).collect();

  it("reads a file whose header names the schema's columns, in any case", async () => {
    assert.deepEqual(await read("NAME STRING, city STRING"), [{ NAME: "Jose", city: "Berlin" }]);
    assert.deepEqual(
      await session.read
        .options({ header: "true", enforceSchema: "false" })
        .schema("name STRING, city STRING")
        .csv(file)
        .select("city")
        .collect(),
      [{ city: "Berlin" }],
    );
  });

  it("refuses a header that does not", async () => {
    await assert.rejects(read("x STRING, y STRING"), {
      message: `CSV header does not conform to the schema.\n Header: name, city\n Schema: x, y\nExpected: x but found: name\nCSV file: ${uri}`,
    });
    await assert.rejects(read("name STRING"), {
      message: `Number of column in CSV header is not equal to number of fields in the schema:\n Header length: 2, schema size: 1\nCSV file: ${uri}`,
    });
  });

  it("by default takes the schema by position, header names aside (Spark's enforceSchema=true)", async () => {
    assert.deepEqual(await session.read.option("header", "true").schema("x STRING, y STRING").csv(file).collect(), [
      { x: "Jose", y: "Berlin" },
    ]);
  });
});
