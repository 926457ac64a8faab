/**
 * CSV column pruning, held to PySpark 4.3's answers (the expected rows below are its output for
 * the same files and queries): a batch CSV scan converts only the columns the query reads, so a
 * record is malformed only for a read column that does not parse, its token count no longer
 * matters, and `count()` converts nothing — unless every data column is read, then the whole
 * record is checked. A query of nothing but the corrupt-record column is refused.
 * arus used to convert every column (DROPMALFORMED then dropped records for columns the query
 * never read, and `count()` counted only clean records).
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type DataFrame, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const session = Session.builder().getOrCreate();
const dir = tempDirsSync("arus-csv-pruning-")();

const DATA = join(dir, "d.csv");
writeFileSync(DATA, "a,b,c\n1,2,3\nx,2,3\n1,2\n1,2,3,4\n5,y,6\n");
const FAILS = join(dir, "f.csv");
writeFileSync(FAILS, "a,b\n1,x\n2,3\n");

const read = (mode: string, schema = "a INT, b INT, c INT", file = DATA): DataFrame =>
  session.read.option("header", true).option("mode", mode).schema(schema).csv(file);
const rows = async (df: DataFrame) => (await df.collect()).map((r) => Object.values(r));

describe("CSV column pruning, as PySpark 4.3", () => {
  it("DROPMALFORMED drops a record only for the columns read", async () => {
    const df = read("DROPMALFORMED");
    assert.deepEqual(await rows(df), [[1, 2, 3]]);
    assert.deepEqual(await rows(df.select("b")), [[2], [2], [2], [2]]);
    assert.deepEqual(await rows(df.select("c")), [[3], [3], [null], [3], [6]]);
    assert.deepEqual(await rows(df.select("a")), [[1], [1], [1], [5]]);
    assert.equal(await df.count(), 5);
    assert.equal(await df.filter("b = 2").count(), 4);
  });

  it("PERMISSIVE gives NULL for a read column that does not parse, or is missing", async () => {
    const df = read("PERMISSIVE");
    assert.deepEqual(await rows(df), [
      [1, 2, 3],
      [null, 2, 3],
      [1, 2, null],
      [1, 2, 3],
      [5, null, 6],
    ]);
    assert.deepEqual(await rows(df.select("a")), [[1], [null], [1], [1], [5]]);
    assert.equal(await df.count(), 5);
  });

  it("the corrupt-record column holds the records whose read columns failed", async () => {
    const df = read("PERMISSIVE", "a INT, b INT, c INT, _corrupt_record STRING");
    assert.deepEqual(await rows(df), [
      [1, 2, 3, null],
      [null, 2, 3, "x,2,3"],
      [1, 2, null, "1,2"],
      [1, 2, 3, "1,2,3,4"],
      [5, null, 6, "5,y,6"],
    ]);
    assert.deepEqual(await rows(df.select("b", "_corrupt_record")), [
      [2, null],
      [2, null],
      [2, null],
      [2, null],
      [null, "5,y,6"],
    ]);
    assert.deepEqual(await rows(df.select("_corrupt_record", "a")), [
      [null, 1],
      ["x,2,3", null],
      [null, 1],
      [null, 1],
      [null, 5],
    ]);
    assert.equal(await df.select("_corrupt_record").count(), 5);
  });

  it("FAILFAST fails only for a read column", async () => {
    const df = read("FAILFAST", "a INT, b INT", FAILS);
    assert.deepEqual(await rows(df.select("a")), [[1], [2]]);
    assert.equal(await df.count(), 2);
    assert.deepEqual(await rows(df.groupBy("a").count().orderBy("a")), [
      [1, 1],
      [2, 1],
    ]);
    await assert.rejects(df.collect(), /Malformed record in .*f\.csv at line 2: 1,x/);
    assert.deepEqual(await rows(read("DROPMALFORMED", "a INT, b INT", FAILS).selectExpr("a + 1 AS x")), [[2], [3]]);
  });
});

describe("a query of only the corrupt-record column", () => {
  const JSON_FILE = join(dir, "d.json");
  writeFileSync(JSON_FILE, '{"a":1}\n{"a":\n');
  for (const [format, file, schema] of [
    ["csv", DATA, "a INT, b INT, c INT, _corrupt_record STRING"],
    ["json", JSON_FILE, "a INT, _corrupt_record STRING"],
  ] as const) {
    it(`is refused for ${format}, as Spark`, async () => {
      const df = session.read.option("header", true).schema(schema).format(format).load(file);
      for (const q of [() => df.select("_corrupt_record").collect(), () => df.filter("_corrupt_record IS NOT NULL").count()]) {
        await assert.rejects(q(), (e: Error) => {
          assert.match(
            e.message,
            /^\[UNSUPPORTED_FEATURE\.QUERY_ONLY_CORRUPT_RECORD_COLUMN\] The feature is not supported: Queries from raw JSON\/CSV\/XML files are disallowed when the\nreferenced columns only include the internal corrupt record column/,
          );
          return true;
        });
      }
    });
  }
});

describe("a streaming CSV source converts only the columns read, as PySpark 4.3's", () => {
  const streamDir = join(dir, "in");
  mkdirSync(streamDir);
  writeFileSync(join(streamDir, "0.csv"), readFileSync(DATA));
  const stream = () =>
    session.readStream.schema("a INT, b INT, c INT").option("header", "true").option("mode", "DROPMALFORMED").csv(streamDir);
  const run = async (name: string, df: DataFrame, mode: "append" | "complete" = "append") => {
    const q = await df.writeStream.format("memory").queryName(name).outputMode(mode).trigger({ availableNow: true }).start();
    await q.awaitTermination();
    return (await session.sql(`SELECT * FROM ${name}`).collect()).map((r) => Object.values(r));
  };
  it("select, all columns, an aggregate", async () => {
    assert.deepEqual(await run("csv_prune_b", stream().select("b")), [[2], [2], [2], [2]]);
    assert.deepEqual(await run("csv_prune_c", stream().select("c")), [[3], [3], [null], [3], [6]]);
    assert.deepEqual(await run("csv_prune_all", stream()), [[1, 2, 3]]);
    assert.deepEqual(await run("csv_prune_agg", stream().groupBy("b").count(), "complete"), [[2, 4]]);
  });
});

describe("JSON count() reads no field, as PySpark 4.3's", () => {
  it("a syntax error is a malformed record, a field of the wrong type is not", async () => {
    const file = join(dir, "m.json");
    writeFileSync(file, '{"a":1,"b":2}\n{"a":"x","b":3}\n{"a":\n{"a":4,"b":"y"}\n');
    const json = (mode: string) => session.read.option("mode", mode).schema("a INT, b INT").json(file);
    assert.equal(await json("DROPMALFORMED").count(), 3);
    assert.deepEqual(await rows(json("DROPMALFORMED")), [[1, 2]]);
    assert.deepEqual(await rows(json("DROPMALFORMED").select("b")), [[2], [3]]);
    assert.equal(await json("PERMISSIVE").count(), 4);
  });
});

describe("Parquet count() reads no column", () => {
  it("counts rows of plain, partitioned and empty directories", async () => {
    const df = session.range(0, 1000).selectExpr("id", "id % 3 AS p", "CAST(id AS STRING) AS s");
    await df.write.mode("overwrite").parquet(join(dir, "pq"));
    await df.write.mode("overwrite").partitionBy("p").parquet(join(dir, "pq-part"));
    await session.range(0, 0).write.mode("overwrite").parquet(join(dir, "pq-empty"));
    assert.equal(await session.read.parquet(join(dir, "pq")).count(), 1000);
    const part = session.read.parquet(join(dir, "pq-part"));
    assert.equal(await part.count(), 1000);
    assert.equal(await part.filter("p = 1").count(), 333);
    assert.equal(await session.read.parquet(join(dir, "pq-empty")).count(), 0);
  });
});

describe("CSV column pruning's edges, as PySpark 4.3's", () => {
  const short = join(dir, "short.csv");
  writeFileSync(short, "a,b,c\n1,2\n1,2,3,4\n5,6,7\n");
  const hdr = join(dir, "hdr.csv");
  writeFileSync(hdr, "a,X,c\n1,2,3\n");

  it("in multiLine mode a record of too few or too many tokens stays malformed", async () => {
    const ml = (mode: string, schema = "a INT, b STRING, c INT") =>
      session.read.option("header", true).option("multiLine", true).option("mode", mode).schema(schema).csv(short);
    assert.deepEqual(await rows(ml("DROPMALFORMED").select("c")), [[7]]);
    assert.equal(await ml("DROPMALFORMED").count(), 1);
    assert.deepEqual(await rows(ml("PERMISSIVE", "a INT, b STRING, c INT, _corrupt_record STRING").select("a", "_corrupt_record")), [
      [1, "1,2"],
      [1, "1,2,3,4"],
      [5, null],
    ]);
    // single-line, the same file: the token count does not matter
    const sl = session.read.option("header", true).option("mode", "DROPMALFORMED").schema("a INT, b STRING, c INT").csv(short);
    assert.deepEqual(await rows(sl.select("c")), [[null], [3], [7]]);
    assert.equal(await sl.count(), 3);
  });

  it("enforceSchema=false checks only the header names of the columns read", async () => {
    const df = session.read.option("header", true).option("enforceSchema", false).schema("a INT, b INT, c INT").csv(hdr);
    assert.deepEqual(await rows(df.select("a")), [[1]]);
    assert.deepEqual(await rows(df.select("c")), [[3]]);
    assert.equal(await df.count(), 1);
    await assert.rejects(
      df.select("b").collect(),
      /CSV header does not conform to the schema\.\n Header: X\n Schema: b\nExpected: b but found: X/,
    );
  });

  it("a query of only the corrupt-record column and partition columns is refused", async () => {
    const partDir = join(dir, "part", "p=1");
    mkdirSync(partDir, { recursive: true });
    writeFileSync(join(partDir, "f.csv"), "a,b\n1,x\n2,3\n");
    const df = session.read.option("header", true).schema("a INT, b INT, _corrupt_record STRING, p INT").csv(join(dir, "part"));
    for (const q of [() => df.select("_corrupt_record", "p").collect(), () => df.filter("p = 1").select("_corrupt_record").collect()]) {
      await assert.rejects(q(), /UNSUPPORTED_FEATURE\.QUERY_ONLY_CORRUPT_RECORD_COLUMN/);
    }
    assert.deepEqual(await rows(df.select("a", "_corrupt_record", "p")), [
      [1, null, 1],
      [2, null, 1],
    ]);
  });
});
