/**
 * A call with the wrong number of arguments fails as Spark's does: WRONG_NUM_ARGS.WITHOUT_SUGGESTION,
 * the expected count written as Spark writes it ("1", "[2, 3]", "> 0" for one or more), and
 * the message's pointer to Spark's function reference. `range` takes Spark's fourth argument,
 * numPartitions; nvl and ifnull, coalesce under other names, take exactly two, and regr_count
 * two. A function called by another of its names is named as called. current_timestamp's
 * precision (Spark 4). Every message below is PySpark 4.3's (local[1]), without its SQLSTATE
 * and position suffixes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AnalysisException, ArusError } from "../../src/common/errors.js";
import { Session } from "../../src/index.js";

const session = Session.builder().getOrCreate();
const DOCS = "Please, refer to 'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a fix.";

/** [query, function named, expected count as Spark writes it, actual count]. */
const CASES: readonly (readonly [string, string, string, number])[] = [
  ["SELECT abs(1, 2)", "abs", "1", 2],
  ["SELECT abs()", "abs", "1", 0],
  ["SELECT grouping(1, 2) FROM VALUES (1) t(a) GROUP BY CUBE(a)", "grouping", "1", 2],
  ["SELECT int(1, 2)", "int", "1", 2],
  ["SELECT map(1)", "map", "2n (n > 0)", 1],
  ["SELECT * FROM range(1, 2, 3, 4, 5)", "range", "[1, 2, 3, 4]", 5],
  ["SELECT * FROM range()", "range", "[1, 2, 3, 4]", 0],
  ["SELECT concat_ws()", "concat_ws", "> 0", 0],
  ["SELECT coalesce()", "coalesce", "> 0", 0],
  ["SELECT hash()", "hash", "> 0", 0],
  ["SELECT xxhash64()", "xxhash64", "> 0", 0],
  ["SELECT elt(1)", "elt", "> 1", 1],
  ["SELECT json_tuple('a')", "json_tuple", "> 1", 1],
  ["SELECT decode(1)", "decode", "2", 1],
  ["SELECT locate('a')", "locate", "[2, 3]", 1],
  ["SELECT log()", "log", "[1, 2]", 0],
  ["SELECT percentile_cont(0.5, 1) WITHIN GROUP (ORDER BY a) FROM VALUES (1) t(a)", "percentile_cont", "1", 2],
  // aliases of coalesce that take exactly two, as Spark's own expressions for them
  ["SELECT nvl(1)", "nvl", "2", 1],
  ["SELECT nvl(1, 2, 3)", "nvl", "2", 3],
  ["SELECT ifnull(1, 2, 3)", "ifnull", "2", 3],
  // another name for a function is named as called, whatever the function's own name
  ["SELECT substr(1, 2, 3, 4)", "substr", "[2, 3]", 4],
  ["SELECT SUBSTR(1, 2, 3, 4)", "substr", "[2, 3]", 4],
  ["SELECT mean() FROM VALUES (1) t(a)", "mean", "1", 0],
  ["SELECT Power(1)", "power", "2", 1],
  ["SELECT sign(1, 2)", "sign", "1", 2],
  ["SELECT mod(1)", "mod", "2", 1],
  ["SELECT lcase()", "lcase", "1", 0],
  ["SELECT std(a, a) FROM VALUES (1) t(a)", "std", "1", 2],
  // regr_count is count of two columns in Spark, exactly two
  ["SELECT regr_count(a) FROM VALUES (1) t(a)", "regr_count", "2", 1],
  ["SELECT regr_count(a, a, a) FROM VALUES (1) t(a)", "regr_count", "2", 3],
  // the special forms' names called empty are plain calls
  ["SELECT position()", "position", "[2, 3]", 0],
  ["SELECT substr()", "substr", "[2, 3]", 0],
  ["SELECT overlay()", "overlay", "[3, 4]", 0],
  ["SELECT extract()", "extract", "2", 0],
  // Spark's ceil and floor builders say "2" whatever the count
  ["SELECT floor()", "floor", "2", 0],
  ["SELECT ceiling(1, 2, 3)", "ceiling", "2", 3],
  // current_timestamp and now take Spark 4's optional precision
  ["SELECT now(1, 2)", "now", "[0, 1]", 2],
  ["SELECT current_timestamp(1, 2, 3)", "current_timestamp", "[0, 1]", 3],
];

async function failure(query: string): Promise<Error> {
  try {
    await session.sql(query).collect();
  } catch (e) {
    return e as Error;
  }
  assert.fail(`${query} did not fail`);
}

describe("wrong number of arguments", () => {
  for (const [query, name, expected, got] of CASES) {
    it(query, async () => {
      const e = await failure(query);
      assert.ok(e instanceof ArusError, `${query}: ${e}`);
      const text = `[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The \`${name}\` requires ${expected} parameters but the actual number is ${got}. ${DOCS}`;
      assert.ok(e.message.startsWith(text), `${query}:\n  got  ${e.message}\n  want ${text}`);
    });
  }

  it("is an AnalysisException with Spark's error class where the analyzer finds it", async () => {
    const e = await failure("SELECT coalesce()");
    assert.ok(e instanceof AnalysisException);
    assert.equal((e as AnalysisException).errorClass, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
  });
});

describe("range's numPartitions", () => {
  it("is taken, in SQL and from the session, and does not change the rows", async () => {
    const rows = (await session.sql("SELECT * FROM range(0, 5, 2, 3)").collect()).map((r) => r.id);
    assert.deepEqual(rows, [0, 2, 4]);
    assert.deepEqual(
      (await session.range(0, 5, 2, 3).collect()).map((r) => r.id),
      [0, 2, 4],
    );
  });

  it("must be positive", async () => {
    for (const n of [0, -1]) {
      const e = await failure(`SELECT * FROM range(0, 5, 1, ${n})`);
      assert.match(e.message, /^Positive number of partitions required/);
      assert.throws(() => session.range(0, 5, 1, n), /Positive number of partitions required/);
    }
  });
});

describe("current_timestamp's precision", () => {
  it("6 is the plain function, named without it", async () => {
    const df = session.sql("SELECT current_timestamp(6) AS x, now(6), current_timestamp(6L)");
    assert.deepEqual(df.columns, ["x", "now()", "current_timestamp()"]);
    const [row] = await df.collect();
    const [x, now] = [row!.x, row!["now()"]];
    assert.ok(x instanceof Date && now instanceof Date);
    assert.equal(x.getTime(), now.getTime());
  });

  it("7 to 9 ask for nanosecond timestamps, not enabled; any other is invalid", async () => {
    const nanos = await failure("SELECT current_timestamp(8)");
    assert.equal((nanos as ArusError).errorClass, "FEATURE_NOT_ENABLED");
    assert.match(nanos.message, /^\[FEATURE_NOT_ENABLED\] The feature Nanosecond-precision timestamp types is not enabled\./);
    for (const p of [0, 3, 10, -1]) {
      const e = await failure(`SELECT now(${p})`);
      assert.equal(
        e.message,
        `[INVALID_TIMESTAMP_PRECISION] The seconds precision ${p} of TIMESTAMP_LTZ is invalid. Expected an integer in [7, 9] for nanosecond precision; use precision 6 or parameterless TIMESTAMP_LTZ for the standard microsecond type.`,
      );
    }
  });

  it("must be an integer", async () => {
    const e = await failure("SELECT now('x')");
    assert.ok(e instanceof AnalysisException);
    assert.equal(
      e.message,
      '[UNEXPECTED_INPUT_TYPE] Parameter first of function `now` requires the "INT" type, however "x" has the type "STRING".',
    );
  });
});
