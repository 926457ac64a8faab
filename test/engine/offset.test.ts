/**
 * SQL OFFSET (with or without LIMIT) and DataFrame.offset: rows, order of limit and offset,
 * the errors Spark gives (negative, not a constant, not an integer, on a stream). Expected from
 * PySpark 4.3.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DataFrame } from "../../src/index.js";
import { Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const ids = async (df: DataFrame) => (await df.toArray()).map((r) => Number(r[0]));

describe("OFFSET", () => {
  it("skips rows before LIMIT takes them, in SQL and on DataFrames", async () => {
    assert.deepEqual(await ids(session.sql("SELECT id FROM range(10) ORDER BY id LIMIT 3 OFFSET 2")), [2, 3, 4]);
    assert.deepEqual(await ids(session.sql("SELECT id FROM range(10) ORDER BY id OFFSET 7")), [7, 8, 9]);
    assert.deepEqual(await ids(session.range(10).offset(8)), [8, 9]);
    assert.deepEqual(await ids(session.range(10).limit(3).offset(2)), [2]);
    assert.deepEqual(await ids(session.range(10).offset(2).limit(3)), [2, 3, 4]);
    assert.deepEqual(await ids(session.range(3).offset(5)), []);
  });

  it("refuses what Spark refuses", async () => {
    assert.throws(
      () => session.sql("SELECT id FROM range(10) OFFSET -1"),
      /\[INVALID_LIMIT_LIKE_EXPRESSION\.IS_NEGATIVE\] The limit like expression "-1" is invalid\. The offset expression must be equal to or greater than 0, but got -1\./,
    );
    assert.throws(
      () => session.sql("SELECT id FROM range(10) OFFSET id"),
      /\[INVALID_LIMIT_LIKE_EXPRESSION\.IS_UNFOLDABLE\] The limit like expression "id" is invalid\. The offset expression must evaluate to a constant value\./,
    );
    assert.throws(
      () => session.sql("SELECT id FROM range(10) LIMIT 1.5"),
      /\[INVALID_LIMIT_LIKE_EXPRESSION\.DATA_TYPE\].*must be integer type, but got "DECIMAL\(2,1\)"/,
    );
    await assert.rejects(
      session.readStream.format("rate").load().offset(2).writeStream.format("memory").queryName("offset_stream").start(),
      /Offset is not supported on streaming DataFrames\/Datasets/,
    );
  });
});
