/**
 * JSON `multiLine=true` (each file one JSON document), held to PySpark 4.3's answers: an object
 * is a row, an array a row per element, text after the first value ignored, an empty file no
 * rows; a malformed file is one corrupt record holding the whole text; an element that is not an
 * object makes the whole file one corrupt record, an element whose field does not convert makes
 * every row of the file corrupt (the good fields kept). The array rules hold for JSON lines too.
 * Read in a batch, inferred, and in a streaming query (whose decode threads leave such files to
 * the main thread).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { partialCounters } from "../../src/execution/partial/partial-read.js";
import { type DataFrame, F, Session } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";
import { tempDirsSync } from "../temp-dirs.js";

const tempDir = tempDirsSync("arus-json-multiline-");
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

type Row = { a: number | null; s: string | null; _corrupt_record: string | null };
const row = (a: number | null, s: string | null = null, corrupt: string | null = null): Row => ({ a, s, _corrupt_record: corrupt });

/** A file's text and PySpark 4.3.0's rows under `a INT, s STRING, _corrupt_record STRING` (PERMISSIVE; DROPMALFORMED keeps the good ones; FAILFAST fails when any is corrupt). */
const FILES: [string, string, Row[]][] = [
  ["array", '[{"a":1},{"a":2}]', [row(1), row(2)]],
  ["pretty object", '{\n  "a": 1,\n  "s": "x"\n}\n', [row(1, "x")]],
  ["two objects: the first read", '{"a":1}\n{"a":2}\n', [row(1)]],
  ["an element's field fails", '[{"a":1},{"a":"x"}]', [row(1, null, '[{"a":1},{"a":"x"}]'), row(null, null, '[{"a":1},{"a":"x"}]')]],
  ["an element that is no object", '[{"a":1}, 2]', [row(null, null, '[{"a":1}, 2]')]],
  ["malformed", '{"a":1', [row(null, null, '{"a":1')]],
  ["empty array", "[]", []],
  ["a string", '"str"', [row(null, null, '"str"')]],
  ["empty file", "", []],
  ["trailing text", '{"a": 3} garbage', [row(3)]],
  ["a STRING column keeps the source text", '{"a": 4, "s": {\n  "x" : 1.0\n}}', [row(4, '{\n  "x" : 1.0\n}')]],
  ["blank", "  \n  ", []],
  ["pretty array", '[{"a":5},\n {"a":6, "s": [1, 2]}]\n', [row(5), row(6, "[1, 2]")]],
  ["a raw line break in a string", '{"a":"q\nr"}', [row(null, null, '{"a":"q\nr"}')]],
  ["NaN as a field name", "{'a': 7, NaN: 1}", [row(null, null, "{'a': 7, NaN: 1}")]],
  ["a bad element", '[{"a":8}, {"a":9, "b":}]', [row(null, null, '[{"a":8}, {"a":9, "b":}]')]],
  ["nested arrays", '[[{"a":10}]]', [row(null, null, '[[{"a":10}]]')]],
  ["a comment after the document", '{"a": 11}\n// trailing\n', [row(11)]],
  ["a byte-order mark", '\ufeff{"a": 12}', [row(12)]],
];

const SCHEMA = "a INT, s STRING, _corrupt_record STRING";

async function read(path: string, mode: string, multiLine = true): Promise<Row[]> {
  const df = session.read.option("multiLine", String(multiLine)).option("mode", mode).schema(SCHEMA).json(path);
  return ((await df.collect()) as Row[]).map((r) => row(r.a, r.s, r._corrupt_record));
}

describe("JSON multiLine (PySpark 4.3's answers)", () => {
  const dir = tempDir();
  const fileOf = (i: number) => join(dir, `f${String(i).padStart(2, "0")}.json`);
  for (let i = 0; i < FILES.length; i++) writeFileSync(fileOf(i), FILES[i]![1]);

  it("reads each file as one document in every parse mode", async () => {
    for (let i = 0; i < FILES.length; i++) {
      const [name, , expected] = FILES[i]!;
      assert.deepEqual(await read(fileOf(i), "PERMISSIVE"), expected, `${name}: PERMISSIVE`);
      const anyBad = expected.some((r) => r._corrupt_record !== null);
      assert.deepEqual(await read(fileOf(i), "DROPMALFORMED"), anyBad ? [] : expected, `${name}: DROPMALFORMED`);
      if (anyBad) await assert.rejects(read(fileOf(i), "FAILFAST"), /Malformed record/, `${name}: FAILFAST`);
      else assert.deepEqual(await read(fileOf(i), "FAILFAST"), expected, `${name}: FAILFAST`);
    }
  });

  it("infers each file's schema from its one document", () => {
    const INFERRED: [number, string][] = [
      [0, "struct<a:bigint>"],
      [1, "struct<a:bigint,s:string>"],
      [2, "struct<a:bigint>"],
      [3, "struct<a:string>"],
      [4, "struct<_corrupt_record:string>"],
      [6, "struct<>"],
      [8, "struct<>"],
      [10, "struct<a:bigint,s:struct<x:double>>"],
      [12, "struct<a:bigint,s:array<bigint>>"],
      [16, "struct<a:bigint>"], // Spark's inference unwraps nested arrays
      [17, "struct<a:bigint>"],
    ];
    for (const [i, expected] of INFERRED)
      assert.equal(simpleString(session.read.option("multiLine", "true").json(fileOf(i)).schema), expected, FILES[i]![0]);
    const all = session.read.option("multiLine", "true").json(dir);
    assert.equal(simpleString(all.schema), "struct<_corrupt_record:string,a:string,s:string>");
  });

  it("counts a directory's rows as Spark does", async () => {
    assert.equal(await session.read.option("multiLine", "true").json(dir).count(), 19);
  });

  it("takes the option in any case, and false reads JSON lines", async () => {
    const file = join(tempDir(), "p.json");
    writeFileSync(file, '[\n {"a": 1},\n {"a": 2}\n]\n');
    const a = async (df: DataFrame) => ((await df.collect()) as { a: number | null }[]).map((r) => r.a);
    assert.deepEqual(await a(session.read.option("multiline", "true").json(file)), [1, 2]);
    assert.deepEqual(await a(session.read.option("multiLine", "false").schema("a INT").json(file)), [null, 1, 2, null]);
  });

  it("holds the array rules for JSON lines too", async () => {
    for (const i of [3, 4, 16]) assert.deepEqual(await read(fileOf(i), "PERMISSIVE", false), FILES[i]![2], FILES[i]![0]);
    const lines = join(tempDir(), "lines.json");
    writeFileSync(lines, '[{"a":1},{"a":"x"}]\n{"a":2}\n');
    assert.deepEqual(await read(lines, "DROPMALFORMED", false), [row(2)]);
  });
});

describe("JSON multiLine in a streaming query", () => {
  setScanThreads(2);
  after(() => setScanThreads(1));

  it("reads each new file as one document, also where stage A would run on the decode threads", async () => {
    const dir = tempDir();
    const events = (from: number) =>
      Array.from({ length: 3 }, (_, k) => ({ ts: `2024-01-01T00:00:${String(from + k).padStart(2, "0")}Z`, key: "k", v: from + k }));
    writeFileSync(join(dir, "0.json"), JSON.stringify(events(0), null, 2));
    writeFileSync(join(dir, "1.json"), JSON.stringify(events(10), null, 2));
    const before = partialCounters.mainThreadFiles;
    const s = session;
    s.conf.set("arus.exec.partialAggregation", "true");
    after(() => s.conf.unset("arus.exec.partialAggregation"));
    const df = s.readStream
      .format("json")
      .schema("ts TIMESTAMP, key STRING, v INT")
      .option("multiLine", "true")
      .option("maxFilesPerTrigger", 1)
      .load(dir)
      .groupBy(F.window("ts", "10 seconds"), F.col("key"))
      .agg(F.sum("v").alias("total"), F.count("*").alias("n"));
    const q = await df.writeStream
      .format("memory")
      .queryName("json_multiline_agg")
      .outputMode("complete")
      .trigger({ availableNow: true })
      .start();
    await q.awaitTermination();
    const rows = (await s.sql("SELECT window.start AS start, total, n FROM json_multiline_agg ORDER BY start").collect()) as {
      total: number;
      n: number;
    }[];
    assert.deepEqual(
      rows.map((r) => [r.total, r.n]),
      [
        [3, 3],
        [33, 3],
      ],
    );
    assert.equal(partialCounters.mainThreadFiles - before, 2, "both files read whole on the main thread");
  });
});
