/**
 * input_file_name(): the URL-encoded URI of the row's file in the scan's stage (select, filter,
 * SQL, a streaming file source, with and without the decode threads), "" after an aggregation.
 * Expected values from PySpark 4.3.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { functions as F, Session } from "../../src/index.js";
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
