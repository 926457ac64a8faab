/**
 * Math functions (trigonometry, logarithms, hypot, factorial, bin, conv), try_ arithmetic and the
 * NULL helpers (nvl2, equal_null, zeroifnull, nullifzero, typeof). Every expected value, type,
 * column name and error class below was checked against PySpark 4.3 (`SELECT <expr>`, ANSI on).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { convert, hypot } from "../../src/functions/math-more.js";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

async function value(expr: string): Promise<unknown> {
  const rows = await session.sql(`SELECT ${expr} AS v`).collect();
  return rows[0]!.v;
}
async function typeName(expr: string): Promise<string> {
  return String((await value(`typeof(${expr})`)) as string);
}

describe("trigonometric and hyperbolic functions", () => {
  it("compute in DOUBLE, give NaN out of domain and NULL for NULL", async () => {
    assert.equal(await value("sin(1)"), 0.8414709848078965);
    assert.equal(await value("asin(0.5)"), 0.5235987755982989);
    assert.ok(Number.isNaN(await value("asin(2)")));
    assert.ok(Number.isNaN(await value("acosh(0.5)")));
    assert.equal(await value("atanh(1)"), Infinity);
    assert.equal(await value("cot(0)"), Infinity);
    assert.equal(await value("sec(1)"), 1.8508157176809255);
    assert.equal(await value("asinh(1e-30)"), 1e-30); // the naive log formula gives 0
    assert.equal(await value("atan2(-0.0, -1)"), Math.PI); // -0.0 is taken as 0.0, as Spark
    assert.equal(await value("degrees(1)"), 57.29577951308232);
    assert.equal(await value("radians(180)"), Math.PI);
    assert.equal(await value("sin(null)"), null);
    assert.equal(await value("sin('0.5')"), 0.479425538604203);
    assert.equal(await typeName("sin(cast(1 as decimal(3,1)))"), "double");
    await assert.rejects(value("sin(true)"), /DATATYPE_MISMATCH\.UNEXPECTED_INPUT_TYPE/);
  });

  it("are named as Spark names them", () => {
    assert.deepEqual(session.sql("SELECT sin(1), atan2(1, 2), pi(), log(2, 8), log(8), log10(1), rint(1), try_add(1, 2)").columns, [
      "SIN(1)",
      "ATAN2(1, 2)",
      "PI()",
      "LOG(2, 8)",
      "LOG(E(), 8)",
      "LOG10(1)",
      "rint(1)",
      "try_add(1, 2)",
    ]);
  });
});

describe("logarithms, roots and integer functions", () => {
  it("log(base, x) and log2/log1p give NULL at and below the asymptote", async () => {
    assert.equal(await value("log(2, 8)"), 3);
    assert.equal(await value("log(1, 2)"), Infinity);
    assert.equal(await value("log(0, 2)"), null);
    assert.equal(await value("log(2, 0)"), null);
    assert.equal(await value("log(8)"), 2.0794415416798357);
    assert.equal(await value("log2(0)"), null);
    assert.equal(await value("log1p(-1)"), null);
    assert.equal(await value("log1p(1e-20)"), 1e-20);
    assert.equal(await value("expm1(1e-20)"), 1e-20);
    assert.equal(await value("cbrt(-8)"), -2);
  });

  it("rint rounds half to even; hypot is fdlibm's to the last bit", async () => {
    assert.deepEqual([await value("rint(2.5)"), await value("rint(3.5)"), await value("rint(-2.5)")], [2, 4, -2]);
    assert.ok(Object.is(await value("rint(-0.4)"), -0));
    // Spark's values; JS's Math.hypot gives ...713, ...182 and ...962 here.
    assert.equal(hypot(20.254679, 0.5), 20.260849473628717);
    assert.equal(hypot(5, -16.014933), 16.77730845500818);
    assert.equal(hypot(22, -16.6985), 27.619556517981966);
    assert.equal(hypot(Infinity, Number.NaN), Infinity);
    assert.equal(await value("hypot(3, 4)"), 5);
  });

  it("factorial is a BIGINT for 0..20 and NULL otherwise; bin is two's complement", async () => {
    assert.equal(await value("factorial(20)"), 2432902008176640000n);
    assert.equal(await value("factorial(5.7)"), 120);
    assert.equal(await value("factorial(21)"), null);
    assert.equal(await value("factorial(-1)"), null);
    assert.equal(await value("bin(13)"), "1101");
    assert.equal(await value("bin(-13)"), `${"1".repeat(60)}0011`);
  });

  it("conv reads digits up to the first invalid one as an unsigned 64-bit number", async () => {
    assert.equal(convert("-10", 16, -10, true), "-16");
    assert.equal(convert("-1", 10, 10, true), "18446744073709551615");
    assert.equal(convert("-1", 10, -10, true), "-1");
    assert.equal(convert("12a", 10, 16, true), "C");
    assert.equal(convert(" 10", 10, 2, true), "1010");
    assert.equal(convert("", 10, 16, true), null);
    assert.equal(convert("100", 37, 10, true), null);
    assert.equal(convert("18446744073709551616", 10, 10, false), "18446744073709551615");
    assert.equal(await value("conv(-1, 10, 16)"), "FFFFFFFFFFFFFFFF");
    await assert.rejects(value("conv('18446744073709551616', 10, 10)"), /ARITHMETIC_OVERFLOW/);
  });
});

describe("try_ arithmetic", () => {
  it("gives NULL only for the rows that would raise, with the operator's result type", async () => {
    const rows = await session
      .sql("SELECT try_add(i, 1) AS a, try_divide(10, i) AS d, try_multiply(i, i) AS m FROM VALUES (1), (2147483647), (0) AS t(i)")
      .collect();
    assert.deepEqual(
      rows.map((r) => [r.a, r.d, r.m]),
      [
        [2, 10, 1],
        [null, 10 / 2147483647, null],
        [1, null, 0],
      ],
    );
    assert.equal(await value("try_add(9223372036854775807, 1)"), null);
    assert.equal(await value("try_subtract(-2147483648, 1)"), null);
    assert.equal(await value("try_mod(7, 0)"), null);
    // The operator's implicit casts are inside the try too (Spark's TryEval).
    assert.equal(await value("try_add('a', 1)"), null);
    assert.equal(await value("try_divide('x', 2)"), null);
    assert.equal(await typeName("try_add(date'2024-01-31', 1)"), "date");
    assert.equal(await typeName("try_divide(cast(1 as decimal(10,2)), cast(3 as decimal(5,1)))"), "decimal(17,8)");
    assert.equal(
      await value(
        "try_add(cast(99999999999999999999999999999999999999 as decimal(38,0)), cast(99999999999999999999999999999999999999 as decimal(38,0)))",
      ),
      null,
    );
  });
});

describe("NULL helpers", () => {
  it("nvl2, equal_null, zeroifnull, nullifzero and typeof", async () => {
    assert.equal(await value("nvl2(null, 1, 2)"), 2);
    assert.equal(await value("CAST(nvl2(1, 1, 2.5) AS STRING)"), "1.0");
    assert.equal(await typeName("nvl2(1, 1, 2.5)"), "decimal(11,1)");
    assert.equal(await value("equal_null(null, null)"), true);
    assert.equal(await value("equal_null(1, null)"), false);
    assert.equal(await value("zeroifnull(cast(null as double))"), 0);
    assert.equal(await typeName("zeroifnull(1.5)"), "decimal(11,1)");
    assert.equal(await value("nullifzero(0)"), null);
    assert.equal(await value("nullifzero(5)"), 5);
    assert.equal(await value("typeof(named_struct('a', 1, 'b', 'x'))"), "struct<a:int,b:string>");
    assert.equal(await value("typeof(null)"), "void");
  });

  it("typeof never evaluates its argument (Spark folds it by type; PySpark 4.3's answers)", async () => {
    const df = session.sql("SELECT typeof(1/0), typeof(assert_true(false)), typeof(CAST('x' AS INT))");
    assert.deepEqual(df.columns, ["typeof((1 / 0))", "typeof(assert_true(false, 'false' is not true!))", "typeof(CAST(x AS INT))"]);
    assert.deepEqual(await df.toArray(), [["double", "void", "int"]]);
    assert.deepEqual(await session.sql("SELECT typeof(id DIV 0) FROM range(2)").toArray(), [["bigint"], ["bigint"]]);
  });
});

describe("F wrappers", () => {
  // A JS number cannot say 2 from 2.0: F.log's base is taken as PySpark's float, "LOG(2.0, x)" (PySpark's F.log(2, x) says "LOG(2, x)").
  it("take PySpark's argument order and produce Spark's column names", () => {
    const df = session.sql("SELECT 1.0D AS x, 1 AS i");
    assert.deepEqual(df.select(F.log(2, "x"), F.log("x"), F.atan2("x", 1.5), F.hypot("x", 2), F.conv("i", 10, 2)).columns, [
      "LOG(2.0, x)",
      "ln(x)",
      "ATAN2(x, 1.5)",
      "HYPOT(x, 2)",
      "conv(i, 10, 2)",
    ]);
  });
});
