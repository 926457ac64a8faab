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
  // a function's internal name never shows: the name called does
  ["SELECT div(1)", "div", "2", 1],
  ["SELECT pmod()", "pmod", "2", 0],
  ["SELECT positive()", "positive", "1", 0],
  ["SELECT negative()", "negative", "1", 0],
  ["SELECT try_to_timestamp()", "try_to_timestamp", "[1, 2]", 0],
  // every count a function takes is listed
  ["SELECT mask(1, 2, 3, 4, 5, 6)", "mask", "[1, 2, 3, 4, 5]", 6],
  ["SELECT str_to_map()", "str_to_map", "[1, 2, 3]", 0],
  ["SELECT make_dt_interval(1, 2, 3, 4, 5)", "make_dt_interval", "[0, 1, 2, 3, 4]", 5],
  ["SELECT unix_timestamp(1, 2, 3)", "unix_timestamp", "[0, 1, 2]", 3],
  ["SELECT uuid(1, 2)", "uuid", "[0, 1]", 2],
  ["SELECT monotonically_increasing_id(1)", "monotonically_increasing_id", "0", 1],
  ["SELECT spark_partition_id(1)", "spark_partition_id", "0", 1],
  ["SELECT named_struct('a')", "named_struct", "2n (n > 0)", 1],
  ["SELECT min(a, a) FROM VALUES (1) t(a)", "min", "1", 2],
  ["SELECT first() FROM VALUES (1) t(a)", "first", "[1, 2]", 0],
  // the count is checked before anything else about the call
  ["SELECT transform(1, 2, 3)", "transform", "2", 3],
  ["SELECT aggregate()", "aggregate", "[3, 4]", 0],
  ["SELECT zip_with(1)", "zip_with", "3", 1],
  ["SELECT map_filter()", "map_filter", "2", 0],
  ["SELECT array_sort()", "array_sort", "[1, 2]", 0],
  ["SELECT grouping()", "grouping", "1", 0],
  ["SELECT percentile_cont() FROM VALUES (1) t(a)", "percentile_cont", "1", 0],
  ["SELECT percentile_disc(a, a) FROM VALUES (1) t(a)", "percentile_disc", "1", 2],
  // Spark's own quirks, kept: hour() says "> 0" (a builder over TIME and TIMESTAMP), mode with
  // more than two says "0" (its WITHIN GROUP form), try_parse_url's names parse_url, try_sum and
  // try_avg say "[1, 2]" for any other count than one
  ["SELECT hour()", "hour", "> 0", 0],
  ["SELECT mode(a, a, a) FROM VALUES (1) t(a)", "mode", "0", 3],
  ["SELECT try_parse_url('x')", "parse_url", "[2, 3]", 1],
  ["SELECT try_sum(a, a) FROM VALUES (1) t(a)", "try_sum", "[1, 2]", 2],
  ["SELECT try_avg() FROM VALUES (1) t(a)", "try_avg", "[1, 2]", 0],
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

  it("count() says how to allow it, as Spark", async () => {
    const e = await failure("SELECT count() FROM VALUES (1) t(a)");
    assert.ok(e instanceof AnalysisException);
    assert.equal(e.errorClass, "WRONG_NUM_ARGS.WITH_SUGGESTION");
    assert.equal(
      e.message,
      '[WRONG_NUM_ARGS.WITH_SUGGESTION] The `count` requires  >= 1 parameters but the actual number is 0. If you have to call this function with 0 parameters, set the legacy configuration "spark.sql.legacy.allowParameterlessCount" to "true".',
    );
  });

  it("concat(), arrays_zip() and named_struct() take none, as in Spark", async () => {
    const df = session.sql("SELECT concat() AS c, arrays_zip() AS z, typeof(arrays_zip()) AS t, named_struct() AS s");
    const [row] = await df.collect();
    assert.deepEqual([row!.c, row!.z, row!.t, row!.s], ["", [], "array<struct<>>", {}]);
  });

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

describe("uuid's seed", () => {
  it("gives Spark's sequence for it (PySpark 4.3, local[1], one partition)", async () => {
    const rows = await session.sql("SELECT uuid(1) AS u FROM range(3)").collect();
    assert.deepEqual(
      rows.map((r) => r.u),
      ["1ced31d7-59ef-4bbc-aaf6-d506ef49e4d2", "0444e71b-05d7-470d-9c99-c709e047a393", "ce3ee200-c328-4361-94dd-eae1d67ce86c"],
    );
    const [neg] = await session.sql("SELECT uuid(-5L) AS u").collect();
    assert.equal(neg!.u, "e338c8ff-0ff5-447d-95a9-d0fbf8bc6331");
    const [big] = await session.sql("SELECT uuid(12345678901234) AS u").collect();
    assert.equal(big!.u, "befba2c2-4d33-4c67-9282-737cce3190d6");
  });

  it("is named uuid(), NULL means none, and it must be a whole number literal", async () => {
    const df = session.sql("SELECT uuid(7), uuid(NULL) AS n");
    assert.deepEqual(df.columns, ["uuid()", "n"]);
    const [row] = await df.collect();
    assert.match(String(row!.n), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const e = await failure("SELECT uuid(1.5)");
    assert.equal(
      e.message,
      '[INVALID_PARAMETER_VALUE.LONG] The value of parameter(s) `seed` in `UUID` is invalid: expects a long literal, but got "1.5".',
    );
    assert.match((await failure("SELECT uuid('1')")).message, /expects a long literal, but got "1"\.$/);
  });
});
