/**
 * A seeded random function written twice in one query draws two streams, each from its own seed
 * (Spark's expressions each hold their generator): `rand(42) AS a, rand(42) AS b` are equal row
 * by row, as PySpark 4.3.0 gives them; arus drew the second from where the first had stopped.
 * Also the error classes of two refusals PySpark names differently from what arus said.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const spark = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

describe("seeded random functions, one generator per call", () => {
  it("rand(42) twice: PySpark's values in both columns; randn beside them unchanged", async () => {
    const rows = await spark.sql("SELECT rand(42) AS a, rand(42) AS b, randn(42) AS c FROM range(3)").toArray();
    assert.deepEqual(rows, [
      [0.619189370225301, 0.619189370225301, 2.384479054241165],
      [0.5096018842446481, 0.5096018842446481, 0.1920934041293524],
      [0.8325259388871524, 0.8325259388871524, 0.7337336533286575],
    ]);
  });

  it("uuid(5) = uuid(5), uniform and randstr with the same seed twice are equal", async () => {
    const rows = await spark
      .sql("SELECT uuid(5) = uuid(5), uniform(0, 10, 3) AS a, uniform(0, 10, 3) AS b, randstr(5, 1) AS c, randstr(5, 1) AS d FROM range(3)")
      .toArray();
    assert.deepEqual(rows, [
      [true, 2, 2, "fYxVf", "fYxVf"],
      [true, 6, 6, "Arnv7", "Arnv7"],
      [true, 9, 9, "iSIv0", "iSIv0"],
    ]);
  });

  it("a datetime pattern Spark 3 reads differently: INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION", async () => {
    await assert.rejects(
      () => spark.sql("SELECT to_timestamp('1709622489', 'ssss')").toArray(),
      (e: Error & { errorClass?: string }) => e.errorClass === "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION",
    );
  });

  it("two different time windows in one SELECT: _LEGACY_ERROR_TEMP_1039", async () => {
    await assert.rejects(
      async () =>
        spark.sql("SELECT window(ts, '1 hour'), window(ts, '2 hours') FROM VALUES (TIMESTAMP'2024-01-01 00:00:00') AS t(ts)").toArray(),
      (e: Error & { errorClass?: string }) => e.errorClass === "_LEGACY_ERROR_TEMP_1039",
    );
  });
});
