/**
 * `spark.sql("CREATE [OR REPLACE] TEMP VIEW ...")` and `DROP VIEW`: expected values and messages
 * from PySpark 4.3.0 (the same statements run there).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const s = Session.builder().getOrCreate();

const fails = (text: string, message: RegExp) => assert.throws(() => s.sql(text), message);

describe("temp views from SQL statements", () => {
  it("create, refuse a second create, replace with a column list, drop", async () => {
    const created = s.sql("CREATE TEMP VIEW tv_a AS SELECT 1 AS a, 'x' AS b");
    assert.deepEqual(created.columns, []);
    assert.deepEqual(await created.collect(), []);
    assert.deepEqual(await s.sql("SELECT * FROM tv_a").collect(), [{ a: 1, b: "x" }]);
    fails(
      "CREATE TEMP VIEW tv_a AS SELECT 2 AS a",
      /\[TEMP_TABLE_OR_VIEW_ALREADY_EXISTS\] Cannot create the temporary view `tv_a` because it already exists\.$/,
    );
    fails("CREATE TEMP VIEW IF NOT EXISTS tv_a AS SELECT 2 AS a", /It is not allowed to define a TEMPORARY view with IF NOT EXISTS\./);
    fails(
      "CREATE OR REPLACE TEMP VIEW IF NOT EXISTS tv_a AS SELECT 1",
      /\[CREATE_VIEW_WITH_IF_NOT_EXISTS_AND_REPLACE\] CREATE VIEW tv_a with both IF NOT EXISTS and REPLACE is not allowed/,
    );
    s.sql("CREATE OR REPLACE TEMPORARY VIEW tv_a (x, y) AS SELECT 3, 4;");
    assert.deepEqual(await s.sql("SELECT * FROM tv_a").collect(), [{ x: 3, y: 4 }]);
    assert.deepEqual(await s.table("tv_a").collect(), [{ x: 3, y: 4 }]);
    s.sql("DROP VIEW tv_a");
    fails("SELECT * FROM tv_a", /TABLE_OR_VIEW_NOT_FOUND/);
    s.sql("DROP VIEW IF EXISTS tv_a");
    fails("DROP VIEW tv_a", /\[TABLE_OR_VIEW_NOT_FOUND\] The table or view `spark_catalog`\.`default`\.`tv_a` cannot be found\./);
  });

  it("a column list of the wrong length is CREATE_VIEW_COLUMN_ARITY_MISMATCH", () => {
    fails(
      "CREATE OR REPLACE TEMP VIEW tv_w (x) AS SELECT 3, 4",
      /\[CREATE_VIEW_COLUMN_ARITY_MISMATCH\.TOO_MANY_DATA_COLUMNS\] Cannot create view `tv_w`, the reason is too many data columns:\nView columns: `x`\.\nData columns: `3`, `4`\./,
    );
    fails("CREATE OR REPLACE TEMP VIEW tv_w (x, y, z) AS SELECT 3, 4", /CREATE_VIEW_COLUMN_ARITY_MISMATCH\.NOT_ENOUGH_DATA_COLUMNS/);
  });

  it("a view over a stream is a stream", async () => {
    const ms = s.memoryStream("k STRING");
    ms.toDF().createOrReplaceTempView("tv_events");
    s.sql("CREATE OR REPLACE TEMP VIEW tv_counts AS SELECT k, count(*) AS n FROM tv_events GROUP BY k");
    const counts = s.sql("SELECT * FROM tv_counts");
    assert.equal(counts.isStreaming, true);
    const q = await counts.writeStream.outputMode("complete").format("memory").queryName("tv_counts_out").start();
    ms.addData([{ k: "a" }, { k: "a" }, { k: "b" }]);
    await q.processAllAvailable();
    assert.deepEqual(await s.sql("SELECT * FROM tv_counts_out ORDER BY k").collect(), [
      { k: "a", n: 2 },
      { k: "b", n: 1 },
    ]);
    await q.stop();
  });
});
