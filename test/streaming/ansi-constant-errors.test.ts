/**
 * Regression: under ANSI mode (Spark 4's default) an expression over constants that errors —
 * `1 / 0`, `cast('a' as int)` — must fail the query, as it does in Spark. Constant folding used
 * to evaluate it in non-ANSI mode and plan a NULL literal instead.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, checkAnswer, expectFailure, testStream } from "../../src/testing/index.js";
import { utcSession } from "./helpers.js";

const session = utcSession();

describe("ANSI errors in constant expressions", () => {
  it("fail a streaming query in ANSI mode and give NULL without it", async () => {
    const ms = session.memoryStream("v INT");
    const df = ms.toDF().select("v", F.expr("1 / 0").alias("x"), F.expr("cast('a' as int)").alias("y"));
    await testStream(df, "append", [addData(ms, [{ v: 1 }]), expectFailure("DIVIDE_BY_ZERO")]);
    const ms2 = session.memoryStream("v INT");
    const df2 = ms2.toDF().select("v", F.expr("1 / 0").alias("x"), F.expr("cast('a' as int)").alias("y"));
    await testStream(df2, "append", [addData(ms2, [{ v: 1 }]), checkAnswer([{ v: 1, x: null, y: null }])], {
      conf: { "spark.sql.ansi.enabled": false },
    });
  });

  it("fail a batch query in ANSI mode; foldable constants that do not depend on the mode still fold", async () => {
    await assert.rejects(session.range(1).select(F.expr("cast('a' as int)").alias("y")).collect(), /CAST_INVALID_INPUT/);
    assert.deepEqual(await session.range(1).select(F.expr("1 + 2").alias("z"), F.expr("cast('7' as int)").alias("w")).collect(), [
      { z: 3, w: 7 },
    ]);
    assert.match(
      session.range(1).select(F.expr("1 + 2").alias("z")).explainString(true),
      /== Optimized Logical Plan ==\nProject \[3 AS z#/,
    );
  });
});
