/**
 * Column.withField / dropFields (Spark's UpdateFields): names, types, values (a NULL struct stays
 * NULL), chaining, CANNOT_DROP_ALL_FIELDS; also on a stream whose projection runs on the decode
 * threads. Expected from PySpark 4.3.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { functions as F, Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const tempDir = tempDirs("arus-update-fields-");

describe("withField / dropFields", () => {
  after(() => setScanThreads(1));

  it("sets, adds and drops struct fields with Spark's names and types", async () => {
    const df = session.sql("SELECT named_struct('a', 1, 'b', 'x') AS s UNION ALL SELECT NULL");
    const out = df.select(
      F.col("s").withField("c", F.lit(2.5)),
      F.col("s").withField("a", F.lit("z")),
      F.col("s").dropFields("b"),
      F.col("s").withField("b", F.lit(null)).dropFields("a"),
    );
    assert.deepEqual(out.dtypes, [
      ["update_fields(s, WithField(2.5))", "struct<a:int,b:string,c:double>"],
      ["update_fields(s, WithField(z))", "struct<a:string,b:string>"],
      ["update_fields(s, dropfield())", "struct<a:int>"],
      ["update_fields(s, WithField(NULL), dropfield())", "struct<b:void>"],
    ]);
    assert.deepEqual(await out.toArray(), [
      [{ a: 1, b: "x", c: 2.5 }, { a: "z", b: "x" }, { a: 1 }, { b: null }],
      [null, null, null, null],
    ]);
    assert.deepEqual(await df.select(F.col("s").dropFields("zz")).toArray(), [[{ a: 1, b: "x" }], [null]]);
    assert.throws(
      () => df.select(F.col("s").dropFields("a", "b")),
      /\[DATATYPE_MISMATCH\.CANNOT_DROP_ALL_FIELDS\] Cannot resolve "update_fields\(s, dropfield\(\), dropfield\(\)\)"/,
    );
  });

  it("sets and drops nested fields through their parents, as Spark's updateFieldsHelper", async () => {
    const df = session.sql(
      "SELECT named_struct('a', named_struct('b', 1, 'c', 2), 'd', 3) AS s UNION ALL SELECT named_struct('a', CAST(NULL AS STRUCT<b: INT, c: INT>), 'd', 4) UNION ALL SELECT CAST(NULL AS STRUCT<a: STRUCT<b: INT, c: INT>, d: INT>)",
    );
    const out = df.select(
      F.col("s").withField("a.b", F.lit(10)),
      F.col("s").withField("a.e", F.lit("x")),
      F.col("s").dropFields("a.c", "d"),
      F.col("s").withField("a.b", F.lit(10)).withField("d", F.lit(5)),
      F.col("s").withField("`a.b`", F.lit(10)),
    );
    assert.deepEqual(out.dtypes, [
      ["update_fields(s, WithField(update_fields(s.a, WithField(10))))", "struct<a:struct<b:int,c:int>,d:int>"],
      ["update_fields(s, WithField(update_fields(s.a, WithField(x))))", "struct<a:struct<b:int,c:int,e:string>,d:int>"],
      ["update_fields(s, WithField(update_fields(s.a, dropfield())), dropfield())", "struct<a:struct<b:int>>"],
      ["update_fields(s, WithField(update_fields(s.a, WithField(10))), WithField(5))", "struct<a:struct<b:int,c:int>,d:int>"],
      ["update_fields(s, WithField(10))", "struct<a:struct<b:int,c:int>,d:int,a.b:int>"],
    ]);
    // a NULL inner struct stays NULL, as a NULL outer one
    assert.deepEqual(await out.toArray(), [
      [
        { a: { b: 10, c: 2 }, d: 3 },
        { a: { b: 1, c: 2, e: "x" }, d: 3 },
        { a: { b: 1 } },
        { a: { b: 10, c: 2 }, d: 5 },
        { a: { b: 1, c: 2 }, d: 3, "a.b": 10 },
      ],
      [{ a: null, d: 4 }, { a: null, d: 4 }, { a: null }, { a: null, d: 5 }, { a: null, d: 4, "a.b": 10 }],
      [null, null, null, null, null],
    ]);
    assert.throws(() => df.select(F.col("s").withField("x.b", F.lit(1))), /FIELD_NOT_FOUND.*`x`/);
    assert.throws(() => df.select(F.col("s").withField("d.b", F.lit(1))), /requires the "STRUCT" type, however "s\.d" has the type "INT"/);
    assert.throws(() => df.select(F.col("s").dropFields("a.b", "a.c")), /CANNOT_DROP_ALL_FIELDS/);
  });

  it("names a struct field inside an expression s.a, a column path standing alone by its last part (PySpark 4.3)", async () => {
    const df = session.sql("SELECT named_struct('a', 'x', 'b', 2) AS s, map('k', 1) AS m");
    const out = df.select(
      F.col("s").getField("a"),
      F.col("s").getItem("b"),
      F.col("m").getItem("k"),
      F.col("s.a"),
      F.upper(F.col("s.a")),
      F.expr("s.b + 1"),
    );
    assert.deepEqual(out.columns, ["s.a", "s.b", "m[k]", "a", "upper(s.a)", "(s.b + 1)"]);
    assert.deepEqual(await out.toArray(), [["x", 2, 1, "x", "X", 3]]);
    df.createOrReplaceTempView("named_paths");
    assert.deepEqual(session.sql("SELECT s.a, upper(s.a), s['b'], s['a'] || 'y', m['k'] FROM named_paths").columns, [
      "a",
      "upper(s.a)",
      "s.b",
      "concat(s.a, y)",
      "m[k]",
    ]);
  });

  it("works on a stream, its projection on the decode threads", async () => {
    setScanThreads(2);
    const dir = await tempDir();
    await writeFile(join(dir, "a.json"), '{"s":{"a":1,"b":"x"},"v":7}\n{"s":null,"v":8}\n');
    const q = await session.readStream
      .schema("s STRUCT<a: INT, b: STRING>, v INT")
      .json(dir)
      .select(F.col("s").withField("v", F.col("v")).dropFields("a").alias("t"))
      .writeStream.format("memory")
      .queryName("update_fields_stream")
      .start();
    await q.processAllAvailable();
    await q.stop();
    assert.deepEqual(await session.sql("SELECT t FROM update_fields_stream").toArray(), [[{ b: "x", v: 7 }], [null]]);
  });
});
