/**
 * A star among a function's arguments expands into the input's columns in place, as Spark's
 * ResolveReferences does (`to_json(struct(*))`, the usual way to write a row as a Kafka value,
 * failed with INVALID_USAGE_OF_STAR_OR_REGEX); `count(*)` stays count(1) and `count(DISTINCT *)`
 * counts distinct rows. Names and values are PySpark 4.3's.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().getOrCreate();

describe("a star among a function's arguments", () => {
  it("expands into the columns: struct(*), to_json(struct(*)), hash(*), array(*), concat_ws(',', *), coalesce(*), struct(t.*)", async () => {
    const df = session.sql(
      "SELECT struct(*), to_json(struct(*)) AS j, hash(*), array(*), concat_ws(',', *), coalesce(*), struct(t.*) FROM VALUES (1, 2) AS t(k, v)",
    );
    assert.deepEqual(df.columns, [
      "struct(k, v)",
      "j",
      "hash(k, v)",
      "array(k, v)",
      "concat_ws(,, k, v)",
      "coalesce(k, v)",
      "struct(k, v)",
    ]);
    assert.deepEqual(await df.toArray(), [[{ k: 1, v: 2 }, '{"k":1,"v":2}', -222940379, [1, 2], "1,2", 1, { k: 1, v: 2 }]]);
  });

  it("count(*) is count(1); count(DISTINCT *) counts the distinct rows without a NULL", async () => {
    const df = session.sql("SELECT count(*), count(DISTINCT *) FROM VALUES (1, 2), (3, 4), (1, 2), (NULL, 1) AS t(k, v)");
    assert.deepEqual(df.columns, ["count(1)", "count(DISTINCT k, v)"]);
    assert.deepEqual(await df.toArray(), [[4, 2]]);
  });

  it("in the DataFrame API and on a stream (a row written as JSON for a sink)", async () => {
    const df = session.createDataFrame([{ k: 1, v: "a" }], "k INT, v STRING");
    assert.deepEqual(await df.select(F.to_json(F.struct("*")).alias("value")).toArray(), [['{"k":1,"v":"a"}']]);
    const stream = session.memoryStream("k INT, v STRING");
    const q = await stream
      .toDF()
      .selectExpr("to_json(struct(*)) AS value")
      .writeStream.format("memory")
      .queryName("star_rows")
      .outputMode("append")
      .start();
    stream.addData([
      { k: 1, v: "a" },
      { k: 2, v: null },
    ]);
    await q.processAllAvailable();
    await q.stop();
    assert.deepEqual(
      (await session.sql("SELECT value FROM star_rows ORDER BY value").toArray()).map((r) => r[0]),
      ['{"k":1,"v":"a"}', '{"k":2}'],
    );
  });
});
