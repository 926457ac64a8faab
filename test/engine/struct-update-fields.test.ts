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
    assert.throws(() => F.col("s").withField("a.b", F.lit(1)), /nested field/);
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
