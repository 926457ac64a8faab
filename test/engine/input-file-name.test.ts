/**
 * input_file_name(): the URL-encoded URI of the row's file in the scan's stage (select, filter,
 * SQL, a streaming file source, with and without the decode threads; in an aggregation's keys
 * and arguments, a sort's keys and beside or in window functions, which Spark's analyzer moves
 * into a projection under them), "" after an aggregation.
 * Expected values from PySpark 4.3.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { functions as F, Session, Window } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const tempDir = tempDirs("arus-input-file-");

async function files(): Promise<{ dir: string; one: string; two: string }> {
  const dir = await tempDir();
  await writeFile(join(dir, "one.json"), '{"a":1}\n{"a":2}\n');
  await writeFile(join(dir, "two words.json"), '{"a":3}\n');
  return { dir, one: pathToFileURL(join(dir, "one.json")).href, two: pathToFileURL(join(dir, "two words.json")).href };
}

describe("input_file_name()", () => {
  after(() => setScanThreads(1));

  it("names each row's file in a batch read, in SQL, and in a filter", async () => {
    const { dir, one, two } = await files();
    assert.ok(two.endsWith("two%20words.json"));
    const df = session.read.schema("a INT").json(dir);
    const named = df.select("a", F.input_file_name()).orderBy("a");
    assert.deepEqual(named.columns, ["a", "input_file_name()"]);
    assert.deepEqual(await named.toArray(), [
      [1, one],
      [2, one],
      [3, two],
    ]);
    assert.deepEqual(await df.filter(F.input_file_name().contains("two")).toArray(), [[3]]);
    assert.deepEqual(await session.sql(`SELECT a, input_file_name() AS f FROM json.\`${dir}\` ORDER BY a`).toArray(), [
      [1, one],
      [2, one],
      [3, two],
    ]);
    assert.deepEqual(await df.groupBy().count().select(F.input_file_name()).toArray(), [[""]]);
  });

  it("names the file in an aggregation's keys and arguments", async () => {
    const { dir, one, two } = await files();
    const df = session.read.schema("a INT").json(dir);
    const perFile = df
      .groupBy(F.input_file_name().alias("f"))
      .agg(F.count("*").alias("n"), F.max(F.length(F.input_file_name())).alias("len"));
    assert.deepEqual(await perFile.orderBy("f").toArray(), [
      [one, 2, one.length],
      [two, 1, two.length],
    ]);
    assert.deepEqual(
      await session.sql(`SELECT input_file_name() AS f, sum(a) FROM json.\`${dir}\` GROUP BY input_file_name() ORDER BY f`).toArray(),
      [
        [one, 3],
        [two, 3],
      ],
    );
  });

  it("orders and partitions by the file, and keeps it beside a window function", async () => {
    const { dir, one, two } = await files();
    const df = session.read.schema("a INT").json(dir);
    const sorted = df.orderBy(F.input_file_name().desc(), "a");
    assert.deepEqual(sorted.columns, ["a"]);
    assert.deepEqual(await sorted.toArray(), [[3], [1], [2]]);
    assert.deepEqual(await session.sql(`SELECT a FROM json.\`${dir}\` ORDER BY input_file_name(), a DESC`).toArray(), [[2], [1], [3]]);
    const perFile = df.select("a", F.count("*").over(Window.partitionBy(F.input_file_name())).alias("n")).orderBy("a");
    assert.deepEqual(await perFile.toArray(), [
      [1, 2],
      [2, 2],
      [3, 1],
    ]);
    const beside = df.select("a", F.input_file_name().alias("f"), F.count("*").over(Window.partitionBy("a")).alias("n")).orderBy("a");
    assert.deepEqual(await beside.toArray(), [
      [1, one, 1],
      [2, one, 1],
      [3, two, 1],
    ]);
  });

  for (const [threads, partial] of [
    [1, "false"],
    [2, "true"],
  ] as const) {
    it(`names the file in a streaming aggregation's keys (${threads} decode thread${threads > 1 ? "s" : ""}, partial aggregation ${partial})`, async () => {
      setScanThreads(threads);
      const { dir, one, two } = await files();
      const name = `input_file_agg_${threads}`;
      const s = session;
      s.conf.set("arus.exec.partialAggregation", partial);
      const q = await s.readStream
        .schema("a INT")
        .json(dir)
        .groupBy(F.input_file_name().alias("f"))
        .agg(F.sum("a").alias("total"))
        .writeStream.format("memory")
        .outputMode("complete")
        .queryName(name)
        .start();
      await q.processAllAvailable();
      await q.stop();
      s.conf.unset("arus.exec.partialAggregation");
      assert.deepEqual(await s.sql(`SELECT * FROM ${name} ORDER BY f`).toArray(), [
        [one, 3],
        [two, 3],
      ]);
    });
  }

  for (const threads of [1, 2]) {
    it(`names the file in a streaming file source (${threads} decode thread${threads > 1 ? "s" : ""})`, async () => {
      setScanThreads(threads);
      const { dir, one, two } = await files();
      const name = `input_file_stream_${threads}`;
      const q = await session.readStream
        .schema("a INT")
        .json(dir)
        .filter(F.col("a").gt(0))
        .withColumn("f", F.input_file_name())
        .writeStream.format("memory")
        .queryName(name)
        .start();
      await q.processAllAvailable();
      await q.stop();
      assert.deepEqual(await session.sql(`SELECT * FROM ${name} ORDER BY a`).toArray(), [
        [1, one],
        [2, one],
        [3, two],
      ]);
    });
  }
});
