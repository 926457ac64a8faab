/**
 * max_by(x, ord, k) / min_by(x, ord, k) (Spark 4.2): the xs of the k rows with the largest
 * (smallest) ords, best first, NULL for a group without an ord. Values and errors checked against
 * PySpark 4.3; the buffers merge as streaming state merges them (a property), and a streaming
 * aggregation keeps them across batches and a restart (as it does percentile's with a frequency).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { type AggregateFunction, lookupFunction } from "../../src/functions/index.js";
import { functions as F, Session } from "../../src/index.js";
import { addData, checkAnswer, startStream, stopStream, testStream } from "../../src/testing/index.js";
import { IntegerType, StringType } from "../../src/types/datatypes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const rows = async (sql: string) => session.sql(sql).toArray();

describe("max_by / min_by with k", () => {
  it("the k best xs, best first; NULL xs kept, NULL ords skipped, NULL for no ord", async () => {
    const abc = "FROM VALUES ('a', 10), ('b', 50), ('c', 20) AS t(x, y)";
    assert.deepEqual(await rows(`SELECT max_by(x, y, 2), min_by(x, y, 2) ${abc}`), [
      [
        ["b", "c"],
        ["a", "c"],
      ],
    ]);
    assert.deepEqual(await rows(`SELECT max_by(x, y, 5), min_by(x, y, 1) ${abc}`), [[["b", "c", "a"], ["a"]]]);
    assert.deepEqual(await rows("SELECT max_by(x, y, 2) FROM VALUES ('a', 10), (NULL, 50), ('c', NULL), ('d', 20) AS t(x, y)"), [
      [[null, "d"]],
    ]);
    assert.deepEqual(await rows("SELECT g, max_by(x, y, 2) FROM VALUES (1, 'a', 10), (2, 'b', NULL) AS t(g, x, y) GROUP BY g ORDER BY g"), [
      [1, ["a"]],
      [2, null],
    ]);
    assert.deepEqual(await rows("SELECT max_by(x, y, 2) FROM VALUES ('a', 10) AS t(x, y) WHERE y > 100"), [[null]]);
    // NaN orders above every number; strings and structs order and are kept as Spark's
    assert.deepEqual(await rows("SELECT max_by(x, y, 2) FROM VALUES (1, 1.5D), (2, double('NaN')), (5, 3.0D) AS t(x, y)"), [[[2, 5]]]);
    assert.deepEqual(await rows("SELECT max_by(x, s, 2) FROM VALUES (1, 'b'), (2, 'a'), (3, 'c') AS t(x, s)"), [[[3, 1]]]);
    assert.deepEqual(await rows("SELECT max_by(x, y, 2) FROM VALUES (named_struct('a', 1), array(1)) AS t(x, y)"), [[[{ a: 1 }]]]);
    assert.deepEqual(await rows("SELECT max_by(DISTINCT x, y, 2) FROM VALUES (1, 2), (1, 2) AS t(x, y)"), [[[1]]]);
    assert.deepEqual(await rows("SELECT max_by(x, y, 2) OVER (ORDER BY y) FROM VALUES (1, 2), (3, 4) AS t(x, y)"), [[[1]], [[3, 1]]]);
  });

  it("k: a constant INT (BIGINT, DECIMAL, STRING cast), named as Spark names it", async () => {
    const one = "FROM VALUES ('a', 10) AS t(x, y)";
    for (const [k, name] of [
      ["2L", "max_by(x, y, 2)"],
      ["2.0", "max_by(x, y, 2.0)"],
      ["'2'", "max_by(x, y, 2)"],
      ["1 + 1", "max_by(x, y, (1 + 1))"],
    ]) {
      const df = session.sql(`SELECT max_by(x, y, ${k}) ${one}`);
      assert.deepEqual(df.dtypes, [[name, "array<string>"]]);
      assert.deepEqual(await df.toArray(), [[["a"]]]);
    }
    const df = session.createDataFrame(
      [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
      "x INT, y INT",
    );
    const api = df.select(F.max_by("x", "y", 2), F.min_by("x", "y", 1));
    assert.deepEqual(api.columns, ["max_by(x, y, 2)", "min_by(x, y, 1)"]);
    assert.deepEqual(await api.toArray(), [[[3, 1], [1]]]);
  });

  it("refuses k outside [1, 100000], a k that is not constant, and a MAP ordering", () => {
    const one = "FROM VALUES ('a', 10) AS t(x, y)";
    for (const [k, shown, value] of [
      ["0", "0", 0],
      ["-1", "-1", -1],
      ["100001", "100001", 100001],
      ["CAST(NULL AS INT)", "CAST(NULL AS INT)", 0],
    ] as const) {
      assert.throws(
        () => session.sql(`SELECT max_by(x, y, ${k}) ${one}`),
        new RegExp(
          `^.*\\[DATATYPE_MISMATCH\\.VALUE_OUT_OF_RANGE\\] Cannot resolve "max_by\\(x, y, ${shown.replace(/[()]/g, "\\$&")}\\)" due to data type mismatch: The \`k\` must be between \\[1, 100000\\] \\(current value = ${value}\\)\\.`,
        ),
      );
    }
    assert.throws(
      () => session.sql(`SELECT max_by(x, y, y) ${one}`),
      /\[DATATYPE_MISMATCH\.NON_FOLDABLE_INPUT\].*the input k should be a foldable int expression/,
    );
    assert.throws(
      () => session.sql("SELECT max_by(x, y, 2) FROM VALUES (1, map(1, 1)) AS t(x, y)"),
      /\[DATATYPE_MISMATCH\.INVALID_ORDERING_TYPE\] Cannot resolve "max_by\(x, y, 2\)" due to data type mismatch: The `max_by` does not support ordering on type "MAP<INT, INT>"/,
    );
  });

  it("merged buffers give the k best of all rows, whatever the parts (property)", () => {
    const f = lookupFunction("max_by") as AggregateFunction;
    const g = lookupFunction("min_by") as AggregateFunction;
    const types = [StringType, IntegerType, IntegerType]; // x, ord, k
    const row = fc.tuple(fc.option(fc.string({ maxLength: 2 }), { freq: 6 }), fc.option(fc.integer({ min: -5, max: 5 }), { freq: 6 }));
    fc.assert(
      fc.property(
        fc.array(fc.array(row, { maxLength: 12 }), { maxLength: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (parts, k, max) => {
          const fn = max ? f : g;
          const merged = fn.create(types, null as never, false, [null, null, k]);
          merged.resize(1);
          for (const part of parts) {
            const acc = fn.create(types, null as never, false, [null, null, k]);
            acc.resize(1);
            const gid = new Int32Array(part.length);
            acc.update(gid, part.length, [
              vectorFromValues(
                StringType,
                part.map((r) => r[0]),
              ),
              vectorFromValues(
                IntegerType,
                part.map((r) => r[1]),
              ),
            ]);
            merged.merge(new Int32Array(1), 1, acc.buffers(1));
          }
          const out = merged.evaluate(1);
          const got = out.validity === null || out.validity[0] === 1 ? (out.values[0] as (string | null)[]) : null;
          const all = parts.flat().filter((r) => r[1] !== null) as [string | null, number][];
          if (all.length === 0) return assert.equal(got, null);
          // the picks' ords are the k best ords; each pick is an x some row had with such an ord
          const best = all.map((r) => r[1]).sort((a, b) => (max ? b - a : a - b));
          assert.equal(got!.length, Math.min(k, all.length));
          const limit = best[got!.length - 1]!;
          const better = all.filter((r) => (max ? r[1] > limit : r[1] < limit));
          for (const [x] of better) assert.ok(got!.includes(x), `${x} is among the ${k} best`);
          for (const x of got!)
            assert.ok(
              all.some((r) => r[0] === x && (max ? r[1] >= limit : r[1] <= limit)),
              `${x} had one of the best ords`,
            );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps its picks across a streaming query's batches and a restart", async () => {
    const ms = session.memoryStream("g INT, x STRING, y INT");
    const df = ms
      .toDF()
      .groupBy("g")
      .agg(F.max_by("x", "y", 2).alias("top"), F.min_by("x", "y", 2).alias("bottom"));
    await testStream(df, "complete", [
      addData(ms, [{ g: 1, x: "a", y: 10 }]),
      checkAnswer([{ g: 1, top: ["a"], bottom: ["a"] }]),
      addData(ms, [
        { g: 1, x: "b", y: 30 },
        { g: 2, x: "c", y: 5 },
      ]),
      stopStream(),
      startStream(),
      addData(ms, [
        { g: 1, x: "d", y: 20 },
        { g: 2, x: "e", y: 1 },
      ]),
      checkAnswer([
        { g: 1, top: ["b", "d"], bottom: ["a", "d"] },
        { g: 2, top: ["c", "e"], bottom: ["e", "c"] },
      ]),
    ]);
  });

  it("percentile with a frequency keeps its counts across a streaming query's batches and a restart", async () => {
    const ms = session.memoryStream("g INT, x INT, f INT");
    const df = ms
      .toDF()
      .groupBy("g")
      .agg(F.percentile("x", 0.5, F.col("f")).alias("p"));
    await testStream(df, "complete", [
      addData(ms, [
        { g: 1, x: 1, f: 3 },
        { g: 1, x: 9, f: 0 },
      ]),
      checkAnswer([{ g: 1, p: 1 }]),
      stopStream(),
      startStream(),
      addData(ms, [{ g: 1, x: 5, f: 3 }]),
      checkAnswer([{ g: 1, p: 3 }]),
    ]);
  });
});
