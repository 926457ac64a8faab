/**
 * Aggregate FILTER (WHERE ...) (Spark's FunctionResolution rules; PySpark compared in
 * conformance/cases/aggregates/filter-clause-*): the rows a condition does not keep never reach
 * that aggregate, in batch queries, window aggregates and streaming aggregations over JSON files
 * on the decode and state threads (local[*]), where the answer equals the same query written
 * with CASE WHEN by hand.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false").getOrCreate();
after(() => session.stop());
const temp = tempDirsSync("arus-agg-filter-");

const rows = [
  { k: "a", v: 1, tag: "x" },
  { k: "a", v: 5, tag: "y" },
  { k: "b", v: null, tag: "x" },
  { k: "b", v: 7, tag: "y" },
  { k: "a", v: 9, tag: "x" },
  { k: "c", v: 0, tag: null },
];

describe("aggregate FILTER (WHERE ...)", () => {
  it("feeds each aggregate only the rows its condition keeps, named as Spark names it", async () => {
    session.createDataFrame(rows, "k string, v int, tag string").createOrReplaceTempView("fa");
    const df = session.sql(
      "SELECT k, count(*) FILTER (WHERE v > 1), sum(v) FILTER (WHERE tag = 'x') AS sx, collect_list(v) FILTER (WHERE v % 2 = 1) AS odd, first(tag) FILTER (WHERE v > 4) IGNORE NULLS AS f FROM fa GROUP BY k ORDER BY k",
    );
    assert.deepEqual(df.columns, ["k", "count(1) FILTER (WHERE (v > 1))", "sx", "odd", "f"]);
    assert.deepEqual(
      (await df.toArray()).map((r) => r.slice(1)),
      [
        [2, 10, [1, 5, 9], "y"],
        [1, null, [7], "y"],
        [0, null, [], null],
      ],
    );
    const w = session.sql("SELECT k, v, sum(v) FILTER (WHERE v > 1) OVER (PARTITION BY k) AS w FROM fa ORDER BY k, v");
    assert.deepEqual(
      (await w.toArray()).map((r) => r[2]),
      [14, 14, 14, 7, 7, null],
    );
  });

  it("refuses what Spark refuses, and first/last without IGNORE NULLS, naming it", () => {
    session.createDataFrame(rows, "k string, v int, tag string").createOrReplaceTempView("fa2");
    const fails = (q: string, re: RegExp) => assert.throws(() => session.sql(q), re);
    fails("SELECT abs(v) FILTER (WHERE v > 1) FROM fa2", /FUNCTION_WITH_UNSUPPORTED_SYNTAX.*`abs` does not support FILTER CLAUSE/);
    fails("SELECT sum(v) FILTER (WHERE v) FROM fa2", /INVALID_AGGREGATE_FILTER\.NOT_BOOLEAN.*"v"/);
    fails("SELECT sum(v) FILTER (WHERE sum(v) > 1) FROM fa2", /INVALID_AGGREGATE_FILTER\.CONTAINS_AGGREGATE/);
    fails("SELECT sum(v) FILTER (WHERE rand() > 0.5) FROM fa2", /INVALID_AGGREGATE_FILTER\.NON_DETERMINISTIC/);
    fails("SELECT first(v) FILTER (WHERE v > 1) FROM fa2", /first\(\.\.\.\) FILTER \(WHERE \.\.\.\) is supported with IGNORE NULLS only/);
    fails("SELECT sum(v) FILTER (v > 1) FROM fa2", /FILTER takes \(WHERE condition\)/);
  });

  it("on a stream over JSON files (decode and state threads): the same answer as CASE WHEN written by hand", async () => {
    const dir = temp();
    for (let f = 0; f < 3; f++) {
      const lines = Array.from({ length: 400 }, (_, i) => {
        const n = f * 400 + i;
        return JSON.stringify({ k: `k${n % 7}`, v: n % 5 === 0 ? null : n % 13, tag: ["x", "y", null][n % 3] });
      });
      writeFileSync(path.join(dir, `part-${f}.json`), `${lines.join("\n")}\n`);
    }
    const run = async (name: string, select: string) => {
      session.readStream
        .schema("k STRING, v INT, tag STRING")
        .option("maxFilesPerTrigger", 1)
        .json(dir)
        .createOrReplaceTempView(`${name}_in`);
      const q = await session
        .sql(`SELECT k, ${select} FROM ${name}_in GROUP BY k`)
        .writeStream.format("memory")
        .queryName(name)
        .outputMode("complete")
        .trigger({ availableNow: true })
        .start();
      await q.awaitTermination();
      return (await session.table(name).orderBy("k").toArray()).map((r) => JSON.stringify(r));
    };
    const filtered = await run(
      "fa_filtered",
      "count(*) FILTER (WHERE v > 6) AS n, sum(v) FILTER (WHERE tag = 'x') AS s, avg(v) FILTER (WHERE tag IS NULL) AS m, max_by(tag, v) FILTER (WHERE v < 12) AS mb",
    );
    const byHand = await run(
      "fa_by_hand",
      "count(CASE WHEN v > 6 THEN 1 END) AS n, sum(CASE WHEN tag = 'x' THEN v END) AS s, avg(CASE WHEN tag IS NULL THEN v END) AS m, max_by(CASE WHEN v < 12 THEN tag END, CASE WHEN v < 12 THEN v END) AS mb",
    );
    assert.equal(filtered.length, 7);
    assert.deepEqual(filtered, byHand);
  });
});
