/**
 * xxhash64 (Spark's XxHash64, bit for bit), seeded rand / random / randn (Spark's XORShiftRandom:
 * the same values on a single-partition input), monotonically_increasing_id, spark_partition_id,
 * uuid, raise_error / assert_true, and the aggregates skewness, kurtosis, bit_and, bit_or and
 * bit_xor, in SQL and as F.*. Every expected value, type, error class and column name below was
 * checked against PySpark 4.3 (local[1], session time zone UTC): the tables were recorded from
 * PySpark's output.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

/** [expression or `Q:` query, simpleString type, value as text (a query's rows joined by |)] as PySpark 4.3 gives them. */
const VALUES: readonly (readonly [string, string, string | null])[] = [
  ["Q:SELECT skewness(x) FROM VALUES (1),(2),(3),(10),(null) AS t(x)", "double", "1.0182337649086284"],
  ["Q:SELECT kurtosis(x) FROM VALUES (1),(2),(3),(10),(null) AS t(x)", "double", "-0.7696000000000001"],
  ["Q:SELECT skewness(x) FROM VALUES (1) AS t(x)", "double", "NULL"],
  ["Q:SELECT kurtosis(x) FROM VALUES (1),(1) AS t(x)", "double", "NULL"],
  ["Q:SELECT skewness(x) FROM VALUES (cast(null as int)) AS t(x)", "double", "NULL"],
  ["Q:SELECT kurtosis(x) FROM VALUES (1.5D),(2.25D),(-3D),(8D),(0.1D),(7D) AS t(x)", "double", "-1.2413303466927759"],
  ["Q:SELECT skewness(x) FROM VALUES (1.5D),(2.25D),(-3D),(8D),(0.1D),(7D) AS t(x)", "double", "0.11711438852622841"],
  ["Q:SELECT bit_and(x) FROM VALUES (7),(3),(null) AS t(x)", "int", "3"],
  ["Q:SELECT bit_or(x) FROM VALUES (4),(3),(null) AS t(x)", "int", "7"],
  ["Q:SELECT bit_xor(x) FROM VALUES (5),(3),(null) AS t(x)", "int", "6"],
  ["Q:SELECT bit_xor(x) FROM VALUES (5L),(3L) AS t(x)", "bigint", "6"],
  ["Q:SELECT bit_and(x) FROM VALUES (cast(null as int)) AS t(x)", "int", "NULL"],
  ["Q:SELECT bit_or(cast(x as tinyint)) FROM VALUES (1),(2) AS t(x)", "tinyint", "3"],
  ["xxhash64(1)", "bigint", "-6698625589789238999"],
  ["xxhash64(1L)", "bigint", "-7001672635703045582"],
  ["xxhash64(-1)", "bigint", "2017008487422258757"],
  ["xxhash64(0)", "bigint", "3614696996920510707"],
  ["xxhash64('')", "bigint", "-7444071767201028348"],
  ["xxhash64('a')", "bigint", "-8582455328737087284"],
  ["xxhash64('hello world')", "bigint", "7620854247404556961"],
  ["xxhash64('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ')", "bigint", "6963362508556898705"],
  ["xxhash64('Spark SQL ünicode ✓')", "bigint", "1997085210808438621"],
  ["xxhash64(1.5D)", "bigint", "7738255526519901366"],
  ["xxhash64(-0.0D)", "bigint", "-5252525462095825812"],
  ["xxhash64(0.0D)", "bigint", "-5252525462095825812"],
  ["xxhash64(1.5F)", "bigint", "6163473420726370430"],
  ["xxhash64(null)", "bigint", "42"],
  ["xxhash64(cast(null as int))", "bigint", "42"],
  ["xxhash64(1, 'a', 2.5D)", "bigint", "-198860653963387819"],
  ["xxhash64(1, null, 'b')", "bigint", "28649989522078021"],
  ["xxhash64(true)", "bigint", "-6698625589789238999"],
  ["xxhash64(cast(1 as tinyint))", "bigint", "-6698625589789238999"],
  ["xxhash64(cast(1 as smallint))", "bigint", "-6698625589789238999"],
  ["xxhash64(date'2024-03-05')", "bigint", "-6263697704898786573"],
  ["xxhash64(timestamp'2024-03-05 01:02:03')", "bigint", "7765408156996958241"],
  ["xxhash64(array(1,2,3))", "bigint", "8592097078962733837"],
  ["xxhash64(x'0102')", "bigint", "-449066226287847073"],
  ["xxhash64(1.5)", "bigint", "3132713209420183794"],
  ["xxhash64(12345678901234567890.5)", "bigint", "8221516556699326764"],
  ["xxhash64(struct(1, 'a'))", "bigint", "8205864924878002737"],
  ["typeof(uuid())", "string", "string"],
  ["length(uuid())", "int", "36"],
  ["uuid() = uuid()", "boolean", "false"],
  ["spark_partition_id()", "int", "0"],
  ["monotonically_increasing_id()", "bigint", "0"],
  ["rand(0)", "double", "0.7604953758285915"],
  ["rand(42)", "double", "0.619189370225301"],
  ["randn(42)", "double", "2.384479054241165"],
  ["random(1)", "double", "0.6363787615254752"],
  ["typeof(rand())", "string", "double"],
  ["rand(null)", "double", "0.7604953758285915"],
  ["assert_true(1 < 2)", "void", null],
];
/** [expression or query, error class, the start of Spark's message after the class]. */
const ERRORS: readonly (readonly [string, string, string])[] = [
  [
    "Q:SELECT skewness('a') FROM VALUES (1) AS t(x)",
    "CAST_INVALID_INPUT",
    'The value \'a\' of the type "STRING" cannot be cast to "DOUBLE" because it is malformed. Cor',
  ],
  [
    "Q:SELECT bit_or(x) FROM VALUES (1.5) AS t(x)",
    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
    'Cannot resolve "bit_or(x)" due to data type mismatch: The first parameter requires the "IN',
  ],
  [
    "xxhash64(map(1, 'a'))",
    "DATATYPE_MISMATCH.HASH_MAP_TYPE",
    'Cannot resolve "xxhash64(map(1, a))" due to data type mismatch: Input to the function `xxh',
  ],
  ["xxhash64()", "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `xxhash64` requires > 0 parameters but the actual number is 0"],
  [
    "rand(1.5)",
    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
    'Cannot resolve "rand(1.5)" due to data type mismatch: The first parameter requires the ("I',
  ],
  ["raise_error('boom')", "USER_RAISED_EXCEPTION", "boom"],
  ["assert_true(1 > 2)", "USER_RAISED_EXCEPTION", "'(1 > 2)' is not true!"],
  ["assert_true(1 > 2, 'custom')", "USER_RAISED_EXCEPTION", "custom"],
  ["assert_true(null)", "USER_RAISED_EXCEPTION", "'NULL' is not true!"],
];

async function typeAndText(expr: string): Promise<[string, unknown]> {
  const query = expr.startsWith("Q:") ? expr.slice(2) : `SELECT ${expr}`;
  const df = session.sql(query);
  const name = df.columns[0]!.replaceAll("`", "``");
  const rows = await session.sql(`SELECT CAST(\`${name}\` AS STRING) AS v FROM (${query}) t`).collect();
  const text = expr.startsWith("Q:") ? rows.map((r) => r.v ?? "NULL").join("|") : (rows[0]!.v ?? null);
  return [simpleString(df.schema.fields[0]!.type), text];
}

describe("hashes, randomness and aggregates agree with PySpark 4.3", () => {
  for (const [expr, type, text] of VALUES) {
    it(expr, async () => {
      assert.deepEqual(await typeAndText(expr), [type, text]);
    });
  }
  for (const [expr, errorClass, message] of ERRORS) {
    it(`${expr} raises ${errorClass}`, async () => {
      await assert.rejects(typeAndText(expr), (e: Error & { errorClass?: string }) => {
        assert.equal(e.errorClass, errorClass);
        assert.ok(e.message.includes(message), `${e.message}\n  should include\n${message}`);
        return true;
      });
    });
  }
});

describe("names and sequences", () => {
  it("column names are Spark's", () => {
    const name = (expr: string) => session.sql(`SELECT ${expr}`).columns[0];
    assert.equal(name("spark_partition_id()"), "SPARK_PARTITION_ID()");
    assert.equal(name("random(1)"), "rand(1)");
    assert.equal(name("raise_error('boom')"), "raise_error(USER_RAISED_EXCEPTION, map(errorMessage, boom))");
    assert.equal(name("assert_true(1 < 2)"), "assert_true((1 < 2), '(1 < 2)' is not true!)");
    assert.equal(name("xxhash64(1, 'a')"), "xxhash64(1, a)");
  });

  it("rand(seed) continues one sequence down the rows (Spark's first values for seed 42)", async () => {
    const rows = await session.sql("SELECT rand(42) AS r, monotonically_increasing_id() AS id FROM range(3)").collect();
    assert.equal(rows[0]!.r, 0.619189370225301);
    assert.deepEqual(
      rows.map((r) => r.id),
      [0, 1, 2],
    );
    assert.equal(new Set(rows.map((r) => r.r)).size, 3);
  });

  it("F forms", async () => {
    const df = session.sql("SELECT 1 AS i, 'a' AS s");
    const out = df.select(F.xxhash64("i", "s"), F.rand(42), F.randn(42), F.bit_count("i"), F.spark_partition_id());
    assert.deepEqual(out.columns, ["xxhash64(i, s)", "rand(42)", "randn(42)", "bit_count(i)", "SPARK_PARTITION_ID()"]);
    const [row] = await out.collect();
    assert.equal(row!["rand(42)"], 0.619189370225301);
    assert.equal(row!["randn(42)"], 2.384479054241165);
    assert.equal(row!["xxhash64(i, s)"], (await session.sql("SELECT xxhash64(1, 'a') AS h").collect())[0]!.h);
    await assert.rejects(df.select(F.assert_true(F.col("i").gt(1), "too small")).collect(), /USER_RAISED_EXCEPTION\] too small/);
    await assert.rejects(df.select(F.raise_error("stop")).collect(), /USER_RAISED_EXCEPTION\] stop/);
    const [agg] = await session
      .sql("SELECT * FROM VALUES (1), (2), (3), (10) AS t(x)")
      .agg(F.skewness("x"), F.kurtosis("x"), F.bit_or("x"), F.bit_and("x"), F.bit_xor("x"))
      .collect();
    assert.deepEqual(Object.values(agg!), [1.0182337649086284, -0.7696000000000001, 11, 0, 10]);
  });
});

/** [F call, column name, type, value as text] from PySpark 4.3 on the same row (random, uuid, version and shuffle values left out). */
const F_CALLS: readonly (readonly [string, string, string, string | null])[] = [
  ['mask("s", F.lit("Q"))', "mask(s, Q, x, n, NULL)", "string", "xxx"],
  ['xxhash64("i", "s")', "xxhash64(i, s)", "bigint", "-3557861396122450864"],
  ["rand(42)", "rand(42)", "double", "0.619189370225301"],
  ["randn(42)", "randn(42)", "double", "2.384479054241165"],
  ["spark_partition_id()", "SPARK_PARTITION_ID()", "int", "0"],
  ["monotonically_increasing_id()", "monotonically_increasing_id()", "bigint", "0"],
  ['parse_url(F.lit("http://h.org/p?q=1"), F.lit("QUERY"), F.lit("q"))', "parse_url(http://h.org/p?q=1, QUERY, q)", "string", "1"],
  ['try_parse_url(F.lit("http://h.org/p"), F.lit("HOST"))', "try_parse_url(http://h.org/p, HOST)", "string", "h.org"],
  [
    'hmac(F.lit("Spark"), F.lit("key"))',
    "hmac(Spark, key, SHA-256)",
    "binary",
    "\u03be\ufffdoOE-!\u0005]\u0005E\u053a\ufffd\ufffd@\ufffd\ufffd\ufffd\u04fc\u0015\ufffd\b\ufffd\u0004q",
  ],
  ['to_binary(F.lit("616263"))', "to_binary(616263)", "binary", "abc"],
  ['to_binary(F.lit("abc"), F.lit("utf-8"))', "to_binary(abc, utf-8)", "binary", "abc"],
  ['try_to_binary(F.lit("abc"), F.lit("base64"))', "try_to_binary(abc, base64)", "binary", "i\ufffd"],
  ['jaro_winkler_similarity("s", F.lit("abd"))', "jaro_winkler_similarity(s, abd)", "double", "0.8222222222222222"],
  ['regexp_instr("s", F.lit("b"))', "regexp_instr(s, b, 0)", "int", "2"],
  ['regexp_instr("s", F.lit("b"), 0)', "regexp_instr(s, b, 0)", "int", "2"],
  ['sentences(F.lit("Hi there. Bye"))', "sentences(Hi there. Bye, , )", "array<array<string>>", "[[Hi, there], [Bye]]"],
  [
    "make_timestamp(F.lit(2024), F.lit(2), F.lit(29), F.lit(23), F.lit(59), F.lit(59.5))",
    "make_timestamp(2024, 2, 29, 23, 59, 59.5)",
    "timestamp",
    "2024-02-29 23:59:59.5",
  ],
  [
    'make_timestamp_ltz(F.lit(2024), F.lit(2), F.lit(29), F.lit(23), F.lit(59), F.lit(59.5), F.lit("UTC"))',
    "make_timestamp_ltz(2024, 2, 29, 23, 59, 59.5, UTC)",
    "timestamp",
    "2024-02-29 23:59:59.5",
  ],
  [
    "try_make_timestamp(F.lit(2024), F.lit(13), F.lit(29), F.lit(23), F.lit(59), F.lit(59.5))",
    "try_make_timestamp(2024, 13, 29, 23, 59, 59.5)",
    "timestamp",
    null,
  ],
  [
    'timestamp_add("MONTH", F.lit(1), F.lit("2024-01-31").cast("timestamp"))',
    "timestampadd(MONTH, 1, CAST(2024-01-31 AS TIMESTAMP))",
    "timestamp",
    "2024-02-29 00:00:00",
  ],
  [
    'timestamp_diff("DAY", F.lit("2024-01-31").cast("timestamp"), F.lit("2024-03-01").cast("timestamp"))',
    "timestampdiff(DAY, CAST(2024-01-31 AS TIMESTAMP), CAST(2024-03-01 AS TIMESTAMP))",
    "bigint",
    "30",
  ],
  ['to_base32("s")', "to_base32(s)", "string", "MFRGG==="],
  ['from_base32(F.lit("MFRGG==="))', "from_base32(MFRGG===)", "binary", "abc"],
  ['is_valid_utf8("s")', "is_valid_utf8(s)", "boolean", "true"],
  ['make_valid_utf8("s")', "make_valid_utf8(s)", "string", "abc"],
  ['validate_utf8("s")', "validate_utf8(s)", "string", "abc"],
  ['try_validate_utf8("s")', "try_validate_utf8(s)", "string", "abc"],
  ['dateadd("dt", 3)', "date_add(dt, 3)", "date", "2024-05-20"],
];

describe("more F forms agree with PySpark 4.3", () => {
  const df = session.sql(
    "SELECT 'abc' AS s, 3 AS i, 2.345D AS d, date'2024-05-17' AS dt, array(1,2,3) AS arr, map(1,'x') AS m, CAST(NULL AS INT) AS n",
  );
  for (const [fcall, name, type, text] of F_CALLS) {
    it(`F.${fcall}`, async () => {
      const out = df.select(new Function("F", `return F.${fcall}`)(F));
      assert.equal(out.columns[0], name);
      assert.equal(simpleString(out.schema.fields[0]!.type), type);
      const [row] = await out.selectExpr(`CAST(\`${name.replaceAll("`", "``")}\` AS STRING) AS v`).collect();
      assert.equal(row!.v ?? null, text);
    });
  }
  it("uniform(min, max, seed) and F.uniform: Spark's values for seed 0", async () => {
    const [row] = await session.sql("SELECT uniform(10, 20, 0) AS a, uniform(1.5D, 2.5D, 0) AS b").collect();
    assert.deepEqual([row!.a, row!.b], [17, 2.2604953758285915]);
    assert.deepEqual(df.select(F.uniform(10, 20, 0)).columns, ["uniform(10, 20, 0)"]);
  });
});
