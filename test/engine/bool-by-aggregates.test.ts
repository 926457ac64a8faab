/**
 * count_if, bool_and/every, bool_or/any/some, max_by/min_by, any_value, product, corr and
 * covar_pop/covar_samp: values checked against PySpark 4.3, and their buffers merged as
 * streaming state merges them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { vectorFromValues } from "../../src/columnar/vector.js";
import { type AggregateFunction, lookupFunction } from "../../src/functions/index.js";
import { functions as F, Session } from "../../src/index.js";
import { BooleanType, IntegerType, StringType } from "../../src/types/datatypes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

async function value(sql: string): Promise<unknown> {
  return (await session.sql(sql).collect())[0]!.v;
}

describe("boolean and counting aggregates", () => {
  it("skip NULLs; NULL for a group with no value, count_if 0", async () => {
    assert.equal(await value("SELECT count_if(x > 1) AS v FROM VALUES (1), (2), (null), (3) AS t(x)"), 2);
    assert.equal(await value("SELECT count_if(x) AS v FROM VALUES (true) AS t(x) WHERE false"), 0);
    assert.equal(await value("SELECT bool_and(x) AS v FROM VALUES (true), (null), (true) AS t(x)"), true);
    assert.equal(await value("SELECT every(x) AS v FROM VALUES (true), (false) AS t(x)"), false);
    assert.equal(await value("SELECT bool_or(x) AS v FROM VALUES (false), (null), (true) AS t(x)"), true);
    assert.equal(await value("SELECT some(x) AS v FROM VALUES (false), (null) AS t(x)"), false);
    assert.equal(await value("SELECT any(x) AS v FROM VALUES (cast(null as boolean)) AS t(x)"), null);
    assert.equal(await value("SELECT product(x) AS v FROM VALUES (2), (3), (null), (4) AS t(x)"), 24);
    assert.equal(await value("SELECT product(x) AS v FROM VALUES (1e200), (1e200) AS t(x)"), Infinity);
    await assert.rejects(value("SELECT bool_or(x) AS v FROM VALUES (1) AS t(x)"), /DATATYPE_MISMATCH\.UNEXPECTED_INPUT_TYPE.*"BOOLEAN"/);
    await assert.rejects(value("SELECT count_if(x) AS v FROM VALUES (1) AS t(x)"), /DATATYPE_MISMATCH\.UNEXPECTED_INPUT_TYPE/);
  });

  it("max_by / min_by: the last row among ties, NULL orderings skipped, a NULL value kept", async () => {
    assert.equal(await value("SELECT max_by(x, y) AS v FROM VALUES ('a', 1), ('b', 3), ('c', 3), ('d', 2) AS t(x, y)"), "c");
    assert.equal(await value("SELECT min_by(x, y) AS v FROM VALUES ('a', 1), ('b', 3), ('c', 1), ('d', 2) AS t(x, y)"), "c");
    assert.equal(await value("SELECT max_by(x, y) AS v FROM VALUES ('a', null), ('b', null) AS t(x, y)"), null);
    assert.equal(await value("SELECT max_by(x, y) AS v FROM VALUES (null, 5), ('b', 1) AS t(x, y)"), null);
    assert.equal(await value("SELECT max_by(x, y) AS v FROM VALUES (1, 'z'), (2, 'a') AS t(x, y)"), 1);
    assert.equal(await value("SELECT any_value(x, true) AS v FROM VALUES (null), (2) AS t(x)"), 2);
  });
});

describe("corr and covariance", () => {
  it("match Spark's values and NULL rules", async () => {
    const rows = "VALUES (0.1, 2.7), (2.2, -4.1), (3.3, 7.9), (10.5, 1e3) AS t(x, y)";
    // Spark's own digits (its update formulas, in row order).
    assert.equal(await value(`SELECT CAST(corr(x, y) AS STRING) AS v FROM ${rows}`), "0.9565446013412474");
    assert.equal(await value(`SELECT CAST(covar_pop(x, y) AS STRING) AS v FROM ${rows}`), "1616.5393749999998");
    assert.equal(await value(`SELECT CAST(covar_samp(x, y) AS STRING) AS v FROM ${rows}`), "2155.3858333333333");
    assert.equal(await value("SELECT corr(x, y) AS v FROM VALUES (1, 2) AS t(x, y)"), null);
    assert.equal(await value("SELECT covar_pop(x, y) AS v FROM VALUES (1, 2) AS t(x, y)"), 0);
    assert.equal(await value("SELECT corr(x, y) AS v FROM VALUES (1, 2), (1, 3) AS t(x, y)"), null); // constant x
    assert.equal(await value("SELECT corr(x, y) AS v FROM VALUES (1, 2), (2, 4), (3, 7) AS t(x, y)"), 0.9933992677987827);
  });
});

describe("percentile and median", () => {
  it("interpolate linearly between ranked values, skip NULLs, take a list", async () => {
    const rows = "VALUES (1), (2), (3), (4), (10), (null) AS t(x)";
    assert.equal(await value(`SELECT median(x) AS v FROM ${rows}`), 3);
    assert.equal(await value(`SELECT percentile(x, 0.25) AS v FROM ${rows}`), 2);
    assert.deepEqual(await value(`SELECT percentile(x, array(0.1, 0.5, 0.9)) AS v FROM ${rows}`), [1.4, 3, 7.6000000000000005]);
    assert.equal(await value("SELECT median(x) AS v FROM VALUES (cast(null as int)) AS t(x)"), null);
    // Spark 4 interpolates as lo + (pos - lower) * (hi - lo): 2.2600000000000002, not 2.26.
    assert.equal(await value("SELECT percentile(x, 0.9) AS v FROM VALUES (0.1D), (2.5D) AS t(x)"), 2.2600000000000002);
    assert.equal(await value("SELECT percentile(x, 0.3) AS v FROM VALUES (1.0D), (cast('NaN' as double)), (2.0D) AS t(x)"), 1.6);
    await assert.rejects(value("SELECT percentile(x, 1.5) AS v FROM VALUES (1) AS t(x)"), /VALUE_OUT_OF_RANGE/);
    assert.deepEqual(session.sql("SELECT percentile(x, 0.25), median(x) FROM VALUES (1) AS t(x)").columns, [
      "percentile(x, 0.25, 1)",
      "median(x)",
    ]);
  });

  it("count each row `frequency` times; DISTINCT counts each value (and frequency) once (PySpark 4.3's values)", async () => {
    const rows = "VALUES (1, 1), (2, 3), (3, 0), (4, 2), (NULL, 5), (5, NULL) AS t(x, f)";
    assert.equal(await value(`SELECT percentile(x, 0.5, f) AS v FROM ${rows}`), 2);
    assert.deepEqual(await value(`SELECT percentile(x, array(0.1, 0.5, 0.9), f) AS v FROM ${rows}`), [1.5, 2, 4]);
    assert.equal(await value(`SELECT percentile(x, 0.5, 2) AS v FROM ${rows}`), 3);
    assert.equal(await value(`SELECT percentile(x, 0.5, CAST(f AS TINYINT)) AS v FROM ${rows}`), 2);
    assert.equal(await value(`SELECT percentile(x, 0.5, 0) AS v FROM ${rows}`), null);
    assert.equal(await value("SELECT percentile(x, 0.3, f) AS v FROM VALUES (1.5D, 4), (2.5D, 1), (10D, 2) AS t(x, f)"), 1.5);
    // counts far beyond what could be written out
    assert.equal(await value("SELECT percentile(x, 0.5, 3000000000) AS v FROM VALUES (1), (2) AS t(x)"), 1.5);
    assert.equal(await value("SELECT percentile(x, 0.5, f) AS v FROM VALUES (1, 9007199254740993), (5, 1) AS t(x, f)"), 1);
    assert.equal(await value("SELECT percentile(DISTINCT x, 0.5) AS v FROM VALUES (1), (1), (1), (5) AS t(x)"), 3);
    assert.equal(await value("SELECT median(DISTINCT x) AS v FROM VALUES (1), (1), (1), (5) AS t(x)"), 3);
    assert.equal(await value("SELECT percentile(DISTINCT x, 0.5, f) AS v FROM VALUES (1, 2), (1, 2), (1, 1), (5, 1) AS t(x, f)"), 1);
    assert.deepEqual(session.sql(`SELECT percentile(x, 0.5, f), percentile(DISTINCT x, 0.5) FROM ${rows}`).columns, [
      "percentile(x, 0.5, f)",
      "percentile(DISTINCT x, 0.5, 1)",
    ]);
    await assert.rejects(
      value(`SELECT percentile(x, 0.5, f - 5) AS v FROM ${rows}`),
      /\[NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION\] Found the negative value in "frequency": -4L/,
    );
    await assert.rejects(
      value(`SELECT percentile(x, 0.5, 2.0) AS v FROM ${rows}`),
      /UNEXPECTED_INPUT_TYPE\] Cannot resolve "percentile\(x, 0\.5, 2\.0\)" due to data type mismatch: The third parameter requires the "INTEGRAL" type, however "2\.0" has the type "DECIMAL\(2,1\)"/,
    );
    const df = session.createDataFrame(
      [
        { x: 1, f: 2 },
        { x: 3, f: 1 },
      ],
      "x INT, f INT",
    );
    const api = df.select(F.percentile("x", 0.5, F.col("f")), F.percentile("x", 0.5, 2), F.percentile("x", 0.5));
    assert.deepEqual(api.columns, ["percentile(x, 0.5, f)", "percentile(x, 0.5, 2)", "percentile(x, 0.5, 1)"]);
    assert.deepEqual(await api.toArray(), [[1, 2, 2]]);
  });
});

/** Folds `parts` into separate accumulators, then merges their buffers into a fresh one (as state does). */
function mergedResult(name: string, types: Parameters<AggregateFunction["bufferTypes"]>[0], parts: unknown[][][]): unknown[] {
  const f = lookupFunction(name) as AggregateFunction;
  const resultType = name === "count_if" ? { kind: "bigint" } : types[0]!;
  const g = new Int32Array([0, 0, 0, 0]);
  const merged = f.create(types, resultType as never, false, []);
  merged.resize(1);
  for (const rows of parts) {
    const acc = f.create(types, resultType as never, false, []);
    acc.resize(1);
    const cols = types.map((t, c) =>
      vectorFromValues(
        t,
        rows.map((r) => r[c]),
      ),
    );
    acc.update(g, rows.length, cols);
    merged.merge(g, 1, acc.buffers(1));
  }
  const out = merged.evaluate(1);
  return [out.validity === null || out.validity[0] === 1 ? out.values[0] : null];
}

describe("buffers merge as partial aggregates", () => {
  it("bool_and, bool_or, count_if, max_by and min_by across parts", () => {
    assert.deepEqual(mergedResult("bool_and", [BooleanType], [[[true]], [[null]], [[false]]]), [0]);
    assert.deepEqual(mergedResult("bool_or", [BooleanType], [[[null]], [[false], [true]]]), [1]);
    assert.deepEqual(mergedResult("bool_or", [BooleanType], [[[null]], [[null]]]), [null]);
    assert.deepEqual(mergedResult("count_if", [BooleanType], [[[true], [false]], [], [[true], [true]]]), [3]);
    // The later part's tie replaces the earlier pick, as Spark's merge does.
    assert.deepEqual(
      mergedResult(
        "max_by",
        [StringType, IntegerType],
        [
          [
            ["x", 3],
            ["y", 1],
          ],
          [["z", 3]],
          [["n", null]],
        ],
      ),
      ["z"],
    );
    assert.deepEqual(
      mergedResult(
        "min_by",
        [StringType, IntegerType],
        [
          [["x", 3]],
          [
            ["y", 1],
            ["z", 2],
          ],
        ],
      ),
      ["y"],
    );
  });
});
