/**
 * Generated column names of operators and math functions where Spark's spelling is irregular
 * (negative(a) vs (- a), CEIL / FLOOR / SQRT in capitals, round(c, 0), (a div b)), and the
 * binary bitwise operators & | ^. Every expected name and value was taken from PySpark 4.3.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const ROW = "FROM VALUES (1, 2, 1.5) AS t(a, b, c)";

describe("operator and math function names", () => {
  it("names SQL expressions as Spark does", () => {
    const cols = session.sql(
      `SELECT negative(a), -a, - -a, negative(-a), positive(a), +a, a div b, ceil(c), floor(c), ceiling(c), sqrt(c), round(c), round(c, 1), bround(c) ${ROW}`,
    ).columns;
    assert.deepEqual(cols, [
      "negative(a)",
      "(- a)",
      "(- (- a))",
      "negative((- a))",
      "(+ a)",
      "(+ a)",
      "(a div b)",
      "CEIL(c)",
      "FLOOR(c)",
      "ceiling(c)",
      "SQRT(c)",
      "round(c, 0)",
      "round(c, 1)",
      "bround(c, 0)",
    ]);
  });

  it("names PySpark's negative / negate / -col negative(col)", () => {
    const df = session.createDataFrame([[1, 2.5]], "a int, c double");
    const cols = df.select(F.negative("a"), F.negate(F.lit(1)), F.col("a").negate(), F.ceil("c"), F.floor("c"), F.sqrt("c")).columns;
    assert.deepEqual(cols, ["negative(a)", "negative(1)", "negative(a)", "CEIL(c)", "FLOOR(c)", "SQRT(c)"]);
  });

  it("computes negative(x) as -x whatever its name", async () => {
    const [row] = await session.sql(`SELECT negative(a) AS n, -a AS m ${ROW}`).collect();
    assert.equal(row!.n, -1);
    assert.equal(row!.m, -1);
  });
});

describe("bitwise & | ^", () => {
  const SQL =
    "SELECT a & b, a | b, a ^ b, x & y, x | y, x ^ y, t & a, a & x, CAST(NULL AS INT) & a " +
    "FROM VALUES (12, 10, 9007199254740993L, -4294967296L, CAST(5 AS TINYINT)) AS v(a, b, x, y, t)";

  it("computes Spark's values, widening to the wider integral type", async () => {
    const df = session.sql(SQL);
    assert.deepEqual(df.columns, [
      "(a & b)",
      "(a | b)",
      "(a ^ b)",
      "(x & y)",
      "(x | y)",
      "(x ^ y)",
      "(t & a)",
      "(a & x)",
      "(CAST(NULL AS INT) & a)",
    ]);
    assert.deepEqual(
      df.schema.fields.map((f) => f.type.kind),
      ["int", "int", "int", "bigint", "bigint", "bigint", "int", "bigint", "int"],
    );
    const [row] = await df.collect();
    const got = df.columns.map((c) => row![c]);
    // BIGINT results beyond 2^53 come back as bigint
    assert.deepEqual(got.map(String), ["8", "14", "6", "9007199254740992", "-4294967295", "-9007203549708287", "4", "0", "null"]);
  });

  it("has PySpark's Column.bitwiseAND / bitwiseOR / bitwiseXOR", async () => {
    const df = session.createDataFrame([[12, 10]], "a int, b int");
    const out = df.select(F.col("a").bitwiseAND(F.col("b")), F.col("a").bitwiseOR(3), F.col("a").bitwiseXOR(F.col("b")));
    assert.deepEqual(out.columns, ["(a & b)", "(a | 3)", "(a ^ b)"]);
    const [row] = await out.collect();
    assert.deepEqual(
      out.columns.map((c) => row![c]),
      [8, 15, 6],
    );
  });

  it("refuses non-integral operands with Spark's binary-operator errors", () => {
    assert.throws(
      () => session.sql("SELECT 1.5D & 2.5D"),
      /DATATYPE_MISMATCH\.BINARY_OP_WRONG_TYPE.*requires the input type "INTEGRAL", not "DOUBLE"/,
    );
    assert.throws(() => session.sql("SELECT 1.5D | 2"), /DATATYPE_MISMATCH\.BINARY_OP_DIFF_TYPES.*\("DOUBLE" and "INT"\)/);
    assert.throws(() => session.sql("SELECT 1.5 & 2"), /DATATYPE_MISMATCH\.BINARY_OP_DIFF_TYPES.*"DECIMAL\(2,1\)"/);
    assert.throws(() => session.sql("SELECT true ^ 1"), /DATATYPE_MISMATCH\.BINARY_OP_DIFF_TYPES.*\("BOOLEAN" and "INT"\)/);
  });

  it("casts a STRING operand to BIGINT, as Spark's implicit cast", async () => {
    const df = session.sql("SELECT '3' | 4 AS v");
    assert.equal(df.schema.fields[0]!.type.kind, "bigint");
    assert.equal((await df.collect())[0]!.v, 7);
    await assert.rejects(session.sql("SELECT 'x' | 2 AS v").collect(), /CAST_INVALID_INPUT.*'x'.*"BIGINT"/);
  });
});
