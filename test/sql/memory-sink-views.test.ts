/**
 * A memory sink's table is a temp view named after the query, as Spark registers it: SHOW TABLES
 * and SHOW VIEWS list it, DROP VIEW drops it (PySpark 4.3.0: `counts` beside `v1`, gone after
 * DROP VIEW counts, then TABLE_OR_VIEW_NOT_FOUND).
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const dirs = tempDirs("arus-memview-");
const spark = new Session({ "spark.sql.shuffle.partitions": "1", "spark.sql.session.timeZone": "UTC" });
after(() => spark.stop());

describe("memory-sink tables as temp views", () => {
  it("are listed, read and dropped like the session's other temp views", async () => {
    spark.range(1).createOrReplaceTempView("v1");
    const input = spark.memoryStream("n INT");
    const q = await input
      .toDF()
      .writeStream.format("memory")
      .queryName("Counts")
      .option("checkpointLocation", await dirs())
      .start();
    await input.addData([{ n: 1 }, { n: 2 }]);
    await q.processAllAvailable();
    const names = async (sql: string, col: string) => (await spark.sql(sql).collect()).map((r) => [r[col], r.isTemporary]);
    assert.deepEqual(await names("SHOW TABLES", "tableName"), [
      ["counts", true],
      ["v1", true],
    ]);
    assert.deepEqual(await names("SHOW VIEWS", "viewName"), [
      ["counts", true],
      ["v1", true],
    ]);
    assert.deepEqual((await spark.table("counts").collect()).map((r) => r.n).sort(), [1, 2]);
    await q.stop();
    await spark.sql("DROP VIEW counts").collect();
    assert.deepEqual(await names("SHOW TABLES", "tableName"), [["v1", true]]);
    assert.throws(() => spark.table("counts"), /TABLE_OR_VIEW_NOT_FOUND/);
  });
});
