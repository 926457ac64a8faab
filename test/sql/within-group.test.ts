/**
 * Ordered-set aggregates, `f(args) WITHIN GROUP (ORDER BY ...)` (plan/within-group.ts): the
 * expected values and names are PySpark 4's for the same queries (also compared in
 * conformance/cases/aggregates/within-group-*, except the window form, which PySpark cannot run
 * inside foreachBatch); on a stream over JSON files on the decode and state threads the answer
 * equals the batch answer over the same files.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false").getOrCreate();
after(() => session.stop());
const temp = tempDirsSync("arus-within-group-");

// Spark's own test data (sql-tests percentiles.sql)
session
  .sql(
    "SELECT * FROM VALUES (0, 0), (0, 10), (0, 20), (0, 30), (0, 40), (1, 10), (1, 20), (2, 10), (2, 20), (2, 25), (2, 30), (3, 60), (4, null) AS aggr(k, v)",
  )
  .createOrReplaceTempView("aggr");

const rowsOf = async (q: string) => (await session.sql(q).toArray()) as unknown[][];

describe("WITHIN GROUP (ORDER BY ...)", () => {
  it("percentile_cont interpolates and percentile_disc picks a value, from either end", async () => {
    const df = session.sql(
      "SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY v), percentile_cont(0.25) WITHIN GROUP (ORDER BY v DESC) FROM aggr",
    );
    assert.deepEqual(df.columns, [
      "percentile_cont(0.25) WITHIN GROUP (ORDER BY v)",
      "percentile_cont(0.25) WITHIN GROUP (ORDER BY v DESC)",
    ]);
    assert.deepEqual(await df.toArray(), [[10, 30]]);
    const disc = session.sql(
      "SELECT k, percentile_disc(0.25) WITHIN GROUP (ORDER BY v), percentile_disc(0.25) WITHIN GROUP (ORDER BY v DESC NULLS FIRST) FROM aggr GROUP BY k ORDER BY k",
    );
    // NULLS FIRST is not part of Spark's name
    assert.equal(disc.columns[2], "percentile_disc(0.25) WITHIN GROUP (ORDER BY v DESC)");
    assert.deepEqual(await disc.toArray(), [
      [0, 10, 30],
      [1, 10, 20],
      [2, 10, 30],
      [3, 60, 60],
      [4, null, null],
    ]);
    assert.deepEqual(
      await rowsOf(
        "SELECT percentile_cont(array(0.1, 0.5, 0.9)) WITHIN GROUP (ORDER BY v), percentile_disc(array(0.0, 1.0)) WITHIN GROUP (ORDER BY v ASC) FROM aggr",
      ),
      [
        [
          [10, 20, 39],
          [0, 60],
        ],
      ],
    );
    // rank ceil(n p): 3 × 0.999 → the third; interpolating from the top: 2 - 0.998
    assert.deepEqual(
      await rowsOf(
        "SELECT percentile_disc(0.999) WITHIN GROUP (ORDER BY x), percentile_cont(0.999) WITHIN GROUP (ORDER BY x DESC) FROM VALUES (1), (2), (3) AS t(x)",
      ),
      [[3, 1.002]],
    );
    // NaN sorts above every number
    const nan = await rowsOf(
      "SELECT percentile_disc(0.0) WITHIN GROUP (ORDER BY x DESC), percentile_disc(0.34) WITHIN GROUP (ORDER BY x DESC), percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM VALUES (1.0D), (CAST('NaN' AS DOUBLE)), (2.0D) AS t(x)",
    );
    assert.ok(Number.isNaN(nan[0]![0]));
    assert.deepEqual(nan[0]!.slice(1), [2, 2]);
  });

  it("composes with FILTER, OVER and HAVING as in Spark", async () => {
    const f = session.sql("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FILTER (WHERE k > 0) FROM aggr");
    assert.deepEqual(f.columns, ["percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FILTER (WHERE (k > 0))"]);
    assert.deepEqual(await f.toArray(), [[20]]);
    const w = session.sql("SELECT k, v, percentile_cont(0.5) WITHIN GROUP (ORDER BY v) OVER (PARTITION BY k) FROM aggr ORDER BY k, v");
    assert.equal(
      w.columns[2],
      "percentile_cont(0.5) WITHIN GROUP (ORDER BY v) OVER (PARTITION BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)",
    );
    assert.deepEqual(
      (await w.toArray()).map((r) => r[2]),
      [20, 20, 20, 20, 20, 15, 15, 22.5, 22.5, 22.5, 22.5, 60, null],
    );
    const h = await rowsOf(
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v) AS p FROM aggr GROUP BY k HAVING percentile_disc(0.5) WITHIN GROUP (ORDER BY v) > 10 ORDER BY p",
    );
    assert.deepEqual(h, [[20], [22.5], [60]]);
  });

  it("mode() takes the smallest of the most frequent values, the largest with DESC (named the other way round, as Spark does)", async () => {
    const df = session.sql("SELECT mode() WITHIN GROUP (ORDER BY v), mode() WITHIN GROUP (ORDER BY v DESC) FROM aggr");
    assert.deepEqual(df.columns, ["mode() WITHIN GROUP (ORDER BY v DESC)", "mode() WITHIN GROUP (ORDER BY v)"]);
    assert.deepEqual(await df.toArray(), [[10, 20]]);
    assert.deepEqual(await rowsOf("SELECT k, mode() WITHIN GROUP (ORDER BY v) FILTER (WHERE v > 10) FROM aggr GROUP BY k ORDER BY k"), [
      [0, 20],
      [1, 20],
      [2, 20],
      [3, 60],
      [4, null],
    ]);
  });

  it("listagg and string_agg join in the keys' order, NULL keys where asked, DISTINCT by the value", async () => {
    const df = session.sql("SELECT listagg(v, ',') WITHIN GROUP (ORDER BY v DESC) FROM aggr");
    assert.deepEqual(df.columns, ["listagg(v, ,) WITHIN GROUP (ORDER BY v DESC NULLS LAST)"]);
    assert.deepEqual(await df.toArray(), [["60,40,30,30,25,20,20,20,10,10,10,0"]]);
    const two = session.sql(
      "SELECT k, listagg(v) WITHIN GROUP (ORDER BY v DESC NULLS FIRST, k) AS l, string_agg(CAST(v AS STRING), '-') WITHIN GROUP (ORDER BY k) FROM aggr GROUP BY k ORDER BY k",
    );
    assert.equal(two.columns[2], "listagg(CAST(v AS STRING), -) WITHIN GROUP (ORDER BY k ASC NULLS FIRST)");
    assert.deepEqual(await two.toArray(), [
      [0, "403020100", "0-10-20-30-40"],
      [1, "2010", "10-20"],
      [2, "30252010", "10-20-25-30"],
      [3, "60", "60"],
      [4, null, null],
    ]);
    const distinct = session.sql("SELECT listagg(DISTINCT CAST(v AS STRING)) WITHIN GROUP (ORDER BY CAST(v AS STRING) DESC) FROM aggr");
    assert.deepEqual(distinct.columns, [
      "listagg(DISTINCT CAST(v AS STRING), NULL) WITHIN GROUP (ORDER BY CAST(v AS STRING) DESC NULLS LAST)",
    ]);
    assert.deepEqual(await distinct.toArray(), [["6040302520100"]]);
    assert.deepEqual(await rowsOf("SELECT listagg(v, ',') WITHIN GROUP (ORDER BY k DESC, v) FILTER (WHERE v > 10) FROM aggr"), [
      ["60,20,25,30,20,20,30,40"],
    ]);
  });

  it("refuses what Spark refuses, with Spark's error classes and messages", () => {
    const fails = (q: string, re: RegExp) => assert.throws(() => session.sql(q), re);
    fails(
      "SELECT percentile_cont(0.5) FROM aggr",
      /INVALID_WITHIN_GROUP_EXPRESSION\.WITHIN_GROUP_MISSING\] Invalid function `percentile_cont`/,
    );
    fails("SELECT mode() FROM aggr", /WITHIN_GROUP_MISSING\] Invalid function `mode`/);
    fails(
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v, k) FROM aggr",
      /WRONG_NUM_ORDERINGS.*requires 1 orderings in WITHIN GROUP but got 2/,
    );
    fails("SELECT mode(v) WITHIN GROUP (ORDER BY v) FROM aggr", /WRONG_NUM_ORDERINGS.*requires 0 orderings/);
    fails(
      "SELECT sum(v) WITHIN GROUP (ORDER BY v) FROM aggr",
      /FUNCTION_WITH_UNSUPPORTED_SYNTAX.*`sum` does not support WITHIN GROUP \(ORDER BY \.\.\.\)/,
    );
    fails("SELECT median(v) WITHIN GROUP (ORDER BY v) FROM aggr", /FUNCTION_WITH_UNSUPPORTED_SYNTAX.*`median`/);
    fails("SELECT percentile_cont(DISTINCT 0.5) WITHIN GROUP (ORDER BY v) FROM aggr", /DISTINCT_UNSUPPORTED/);
    fails(
      "SELECT percentile_cont(0.5, 0.2) WITHIN GROUP (ORDER BY v) FROM aggr",
      /WRONG_NUM_ARGS.*`percentile_cont` requires 1 parameters but the actual number is 2/,
    );
    fails(
      "SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY v) FROM aggr",
      /VALUE_OUT_OF_RANGE\] Cannot resolve "percentile_cont\(v, 1\.5\)" due to data type mismatch: The percentage must be between \[0\.0, 1\.0\] \(current value = 1\.5D\)/,
    );
    fails("SELECT percentile_disc(array(0.5, 1.2)) WITHIN GROUP (ORDER BY v) FROM aggr", /\(current value = 0\.5D,1\.2D\)/);
    fails(
      "SELECT percentile_cont(v) WITHIN GROUP (ORDER BY v) FROM aggr",
      /NON_FOLDABLE_INPUT.*should be a foldable "DOUBLE" expression; however, got "v"/,
    );
    fails(
      "SELECT percentile_cont(NULL) WITHIN GROUP (ORDER BY v) FROM aggr",
      /UNEXPECTED_NULL\] Cannot resolve "percentile_cont\(v, NULL\)"/,
    );
    fails("SELECT percentile(v, 1.5) FROM aggr", /Cannot resolve "percentile\(v, 1\.5, 1\)"/);
    fails(
      "SELECT listagg(DISTINCT v) WITHIN GROUP (ORDER BY v, k) FROM aggr",
      /MISMATCH_WITH_DISTINCT_INPUT.*expressions "v" and "v", "k" do not match/,
    );
    fails(
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v) IGNORE NULLS FROM aggr",
      /`percentile_cont` does not support IGNORE NULLS/,
    );
  });

  it("listagg(DISTINCT x) ordered by what x casts, BINARY values joined as bytes, plain DISTINCT (PySpark 4.3's answers)", async () => {
    const ints = "FROM VALUES (3), (1), (2), (1), (10) AS t(x)";
    const one = async (q: string) => (await rowsOf(q))[0]![0];
    assert.equal(await one(`SELECT listagg(DISTINCT CAST(x AS STRING)) WITHIN GROUP (ORDER BY x) ${ints}`), "12310");
    assert.equal(await one(`SELECT listagg(DISTINCT CAST(x AS STRING), ',') WITHIN GROUP (ORDER BY x DESC) ${ints}`), "10,3,2,1");
    assert.equal(await one(`SELECT listagg(DISTINCT x) WITHIN GROUP (ORDER BY CAST(x AS STRING)) ${ints}`), "11023");
    assert.equal(await one(`SELECT string_agg(DISTINCT CAST(x AS STRING), '-') WITHIN GROUP (ORDER BY x) ${ints}`), "1-2-3-10");
    assert.equal(
      await one(
        "SELECT listagg(DISTINCT CAST(x AS STRING)) WITHIN GROUP (ORDER BY x) FROM VALUES (DATE'2024-01-02'), (DATE'2024-01-01') AS t(x)",
      ),
      "2024-01-012024-01-02",
    );
    const fails = (q: string, re: RegExp) => assert.throws(() => session.sql(q), re);
    const unsafe = (type: string) =>
      new RegExp(
        `\\[INVALID_WITHIN_GROUP_EXPRESSION\\.MISMATCH_WITH_DISTINCT_INPUT_UNSAFE_CAST\\] Invalid function \`listagg\` with WITHIN GROUP\\. The function \`listagg\` with DISTINCT and WITHIN GROUP \\(ORDER BY\\) is not supported for "${type}" input\\. Explicitly cast the input to "STRING"`,
      );
    fails("SELECT listagg(DISTINCT CAST(x AS STRING)) WITHIN GROUP (ORDER BY x) FROM VALUES (3.5D) AS t(x)", unsafe("DOUBLE"));
    fails("SELECT listagg(DISTINCT x) WITHIN GROUP (ORDER BY x) FROM VALUES (3.5D) AS t(x)", unsafe("DOUBLE"));
    fails("SELECT listagg(DISTINCT CAST(x AS STRING)) WITHIN GROUP (ORDER BY x) FROM VALUES (1.5F) AS t(x)", unsafe("FLOAT"));
    fails("SELECT listagg(DISTINCT x) WITHIN GROUP (ORDER BY x) FROM VALUES (TIMESTAMP'2024-01-01 00:00:00') AS t(x)", unsafe("TIMESTAMP"));
    fails(
      `SELECT listagg(DISTINCT CAST(x AS STRING)) WITHIN GROUP (ORDER BY x + 1) ${ints}`,
      /MISMATCH_WITH_DISTINCT_INPUT\] .*"CAST\(x AS STRING\)" and "\(x \+ 1\)" do not match/,
    );
    fails(
      `SELECT listagg(DISTINCT CAST(x AS BIGINT)) WITHIN GROUP (ORDER BY x) ${ints}`,
      /MISMATCH_WITH_DISTINCT_INPUT\] .*"CAST\(x AS BIGINT\)" and "x" do not match/,
    );

    const bytes = "FROM VALUES (x'61'), (x'62'), (NULL) AS t(x)";
    const [joined, type] = (await rowsOf(`SELECT listagg(x, x'2c'), typeof(listagg(x)) ${bytes}`))[0]!;
    assert.deepEqual([Buffer.from(joined as Uint8Array).toString(), type], ["a,b", "binary"]);
    assert.equal(
      Buffer.from((await one(`SELECT string_agg(x, x'2c') WITHIN GROUP (ORDER BY x DESC) ${bytes}`)) as Uint8Array).toString(),
      "b,a",
    );
    assert.equal(
      Buffer.from(
        (await one(
          "SELECT listagg(DISTINCT CAST(x AS BINARY)) WITHIN GROUP (ORDER BY x) FROM VALUES ('b'), ('a'), ('a') AS t(x)",
        )) as Uint8Array,
      ).toString(),
      "ab",
    );
    fails(
      `SELECT listagg(x, ',') ${bytes}`,
      /\[DATATYPE_MISMATCH\.DATA_DIFF_TYPES\] Cannot resolve "listagg\(x, ,\)" due to data type mismatch: Input to `listagg` should all be the same type, but it's \("BINARY" or "STRING"\)/,
    );
    fails(
      `SELECT listagg(CAST(x AS STRING), x'2c') ${bytes}`,
      /Cannot resolve "listagg\(CAST\(x AS STRING\), X'2C'\)".*\("STRING" or "BINARY"\)/,
    );

    // plain DISTINCT: each value once (first-seen order here; Spark's is its hash order)
    const distinct = (await one("SELECT listagg(DISTINCT x, ',') FROM VALUES ('b'), ('a'), ('b'), (NULL) AS t(x)")) as string;
    assert.deepEqual(distinct.split(",").sort(), ["a", "b"]);
  });

  it("on a stream over JSON files (decode and state threads, restarted): the batch answer over the same files", async () => {
    const dir = temp();
    const ckpt = temp();
    const lines = (f: number) =>
      Array.from({ length: 300 }, (_, i) => {
        const n = f * 300 + i;
        return JSON.stringify({ k: `k${n % 5}`, v: n % 7 === 0 ? null : (n * 37) % 101, tag: `t${n}` });
      });
    const select =
      "k, percentile_cont(0.3) WITHIN GROUP (ORDER BY v DESC) AS pc, percentile_disc(array(0.1, 0.9)) WITHIN GROUP (ORDER BY v) AS pd, mode() WITHIN GROUP (ORDER BY v % 3) AS m, listagg(tag, ',') WITHIN GROUP (ORDER BY v NULLS LAST, tag) AS l";
    const runStream = async () => {
      session.readStream.schema("k STRING, v INT, tag STRING").option("maxFilesPerTrigger", 1).json(dir).createOrReplaceTempView("wg_in");
      const q = await session
        .sql(`SELECT ${select} FROM wg_in GROUP BY k`)
        .writeStream.format("memory")
        .queryName("wg_out")
        .outputMode("complete")
        .option("checkpointLocation", ckpt)
        .trigger({ availableNow: true })
        .start();
      await q.awaitTermination();
    };
    for (let f = 0; f < 2; f++) writeFileSync(path.join(dir, `part-${f}.json`), `${lines(f).join("\n")}\n`);
    await runStream();
    // a restart: the state's ordered buffers come back from the checkpoint
    writeFileSync(path.join(dir, "part-2.json"), `${lines(2).join("\n")}\n`);
    await runStream();
    const streamed = (await session.table("wg_out").orderBy("k").toArray()).map((r) => JSON.stringify(r));
    session.read.schema("k STRING, v INT, tag STRING").json(dir).createOrReplaceTempView("wg_all");
    const batch = session.sql(`SELECT ${select} FROM wg_all GROUP BY k ORDER BY k`);
    const expected = (await batch.toArray()).map((r) => JSON.stringify(r));
    assert.equal(streamed.length, 5);
    assert.deepEqual(streamed, expected);
  });
});
