import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Decimal, functions as F, T } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
after(() => {
  s.conf.unset("spark.sql.ansi.enabled");
  s.conf.unset("spark.sql.decimalOperations.allowPrecisionLoss");
});
const one = async (sql: string) => Object.values((await s.sql(sql).collect())[0]!)[0];
const text = async (sql: string) => String(await one(sql));

describe("DECIMAL(p, s)", () => {
  it("is its own type in DDL, printSchema and T.DecimalType", () => {
    const df = s.createDataFrame([], "harga DECIMAL(12,2), n NUMERIC, d DEC(38, 18)");
    assert.deepEqual(
      df.schema.fields.map((f) => f.type),
      [T.DecimalType(12, 2), T.DecimalType(10, 0), T.DecimalType(38, 18)],
    );
    assert.throws(() => T.DecimalType(39, 0), /DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION/);
    assert.throws(() => s.createDataFrame([], "x DECIMAL(3, 5)"), /cannot be greater than precision/);
  });

  it("collect() gives an exact Decimal whose text keeps the scale's zeros", async () => {
    const df = s.createDataFrame(
      [{ p: "1.5" }, { p: new Decimal(1999n, 2) }, { p: 7 }, { p: 12345678901234567890123456789012345678n }, { p: null }],
      "p DECIMAL(38,0)",
    );
    const rows = await df.collect();
    assert.deepEqual(
      rows.map((r) => (r.p === null ? null : String(r.p))),
      ["2", "20", "7", "12345678901234567890123456789012345678", null],
    );
    const [r] = await s.createDataFrame([{ p: "1.5" }], "p DECIMAL(12,2)").collect();
    assert.ok(r!.p instanceof Decimal);
    assert.equal(String(r!.p), "1.50");
    assert.equal((r!.p as Decimal).unscaled, 150n);
    assert.equal((r!.p as Decimal).toNumber(), 1.5);
    assert.equal(JSON.stringify(r), '{"p":"1.50"}');
  });

  it("show() prints the scale's trailing zeros", async () => {
    const df = s.createDataFrame([{ p: "1.5" }, { p: "-0.05" }, { p: "12" }], "p DECIMAL(12,2)");
    assert.match(await df.showString(), /\| 1\.50\|\n\|-0\.05\|\n\|12\.00\|/);
  });

  it("casts from strings and doubles round HALF_UP; overflow is NULL without ANSI, an error with", async () => {
    assert.equal(await text("SELECT CAST('2.345' AS DECIMAL(5,2))"), "2.35");
    assert.equal(await text("SELECT CAST('-2.345' AS DECIMAL(5,2))"), "-2.35");
    assert.equal(await text("SELECT CAST(' 1.5e2 ' AS DECIMAL(6,1))"), "150.0");
    assert.equal(await text("SELECT CAST(2.675D AS DECIMAL(5,2))"), "2.68");
    assert.equal(await one("SELECT CAST(CAST(9.99 AS DECIMAL(4,2)) AS INT)"), 9);
    assert.equal(await one("SELECT CAST(CAST(-9.99 AS DECIMAL(4,2)) AS DOUBLE)"), -9.99);
    await assert.rejects(() => s.sql("SELECT CAST('123.4' AS DECIMAL(3,1))").collect(), /NUMERIC_VALUE_OUT_OF_RANGE/);
    await assert.rejects(() => s.sql("SELECT CAST('abc' AS DECIMAL(3,1))").collect(), /CAST_INVALID_INPUT/);
    assert.equal(await one("SELECT TRY_CAST('123.4' AS DECIMAL(3,1))"), null);
    s.conf.set("spark.sql.ansi.enabled", "false");
    try {
      assert.equal(await one("SELECT CAST('123.4' AS DECIMAL(3,1))"), null);
      assert.equal(await one("SELECT CAST('abc' AS DECIMAL(3,1))"), null);
      // Legacy cast to string is Java's BigDecimal.toString.
      assert.equal(await one("SELECT CAST(CAST(0 AS DECIMAL(20,10)) AS STRING)"), "0E-10");
    } finally {
      s.conf.set("spark.sql.ansi.enabled", "true");
    }
    assert.equal(await one("SELECT CAST(CAST(0 AS DECIMAL(20,10)) AS STRING)"), "0.0000000000");
  });

  it("types arithmetic with Spark's precision/scale rules", async () => {
    const df = s.sql(
      "SELECT CAST(1 AS DECIMAL(12,2)) * CAST(2 AS INT) a, CAST(1 AS DECIMAL(12,2)) + 1 b, CAST(1 AS DECIMAL(12,2)) / 3 c, " +
        "CAST(1 AS DECIMAL(38,10)) * CAST(1 AS DECIMAL(38,10)) d, 1.5 * 2 e, CAST(1 AS DECIMAL(5,2)) % CAST(1 AS DECIMAL(3,1)) f, " +
        "CAST(1 AS DECIMAL(10,2)) + 1.5D g",
    );
    assert.deepEqual(
      df.schema.fields.map((f) => f.type),
      [
        T.DecimalType(23, 2),
        T.DecimalType(13, 2),
        T.DecimalType(16, 6),
        T.DecimalType(38, 6),
        T.DecimalType(4, 1),
        T.DecimalType(4, 2),
        T.DoubleType,
      ],
    );
    s.conf.set("spark.sql.decimalOperations.allowPrecisionLoss", "false");
    try {
      const t = s.sql("SELECT CAST(1 AS DECIMAL(38,10)) * CAST(1 AS DECIMAL(38,10)) d").schema.fields[0]!.type;
      assert.deepEqual(t, T.DecimalType(38, 20));
    } finally {
      s.conf.unset("spark.sql.decimalOperations.allowPrecisionLoss");
    }
  });

  it("computes exactly where doubles drift", async () => {
    assert.equal(await text("SELECT 0.1 + 0.2"), "0.3");
    assert.equal(await text("SELECT CAST(10 AS DECIMAL(38,0)) / CAST(3 AS DECIMAL(38,0))"), "3.333333");
    assert.equal(await text("SELECT CAST(2 AS DECIMAL(10,0)) / CAST(3 AS DECIMAL(10,0))"), "0.66666666667");
    assert.equal(await text("SELECT -CAST('99999999999999999999.99' AS DECIMAL(22,2))"), "-99999999999999999999.99");
    assert.equal(await one("SELECT CAST(7 AS DECIMAL(5,1)) div CAST(2 AS DECIMAL(3,1))"), 3);
  });

  it("overflow in arithmetic: an error in ANSI mode, NULL otherwise", async () => {
    const q = "SELECT CAST('99999999999999999999999999999999999999' AS DECIMAL(38,0)) + 1";
    await assert.rejects(() => s.sql(q).collect(), /NUMERIC_VALUE_OUT_OF_RANGE/);
    await assert.rejects(() => s.sql("SELECT CAST(1 AS DECIMAL(5,2)) / 0").collect(), /DIVIDE_BY_ZERO/);
    s.conf.set("spark.sql.ansi.enabled", "false");
    try {
      assert.equal(await one(q), null);
      assert.equal(await one("SELECT CAST(1 AS DECIMAL(5,2)) / 0"), null);
    } finally {
      s.conf.set("spark.sql.ansi.enabled", "true");
    }
  });

  it("compares, sorts and groups exactly in both lanes", async () => {
    const df = s.createDataFrame(
      [{ d: "12345678901234567890.01" }, { d: "12345678901234567890.02" }, { d: "12345678901234567890.01" }, { d: "-1" }],
      "d DECIMAL(30,2)",
    );
    const groups = await df.groupBy("d").count().orderBy("d").collect();
    assert.deepEqual(
      groups.map((r) => [String(r.d), r.count]),
      [
        ["-1.00", 1],
        ["12345678901234567890.01", 2],
        ["12345678901234567890.02", 1],
      ],
    );
    assert.equal(await df.filter("d > 12345678901234567890.01").count(), 1);
    assert.equal(await one("SELECT CAST(1.50 AS DECIMAL(5,2)) = 1.5"), true);
  });

  it("round, bround, floor, ceil and abs work on the exact value", async () => {
    const df = s.sql(
      "SELECT round(CAST('2.345' AS DECIMAL(5,3)), 2) a, bround(CAST('2.345' AS DECIMAL(5,3)), 2) b, round(CAST('-9.95' AS DECIMAL(3,2)), 1) c, " +
        "floor(CAST('-1.5' AS DECIMAL(2,1))) d, ceil(CAST('12345678901234567890.1' AS DECIMAL(21,1))) e, abs(CAST('-12345678901234567890.1' AS DECIMAL(21,1))) f, " +
        "round(CAST('1250' AS DECIMAL(4,0)), -2) g",
    );
    assert.deepEqual(
      df.schema.fields.map((f) => f.type),
      [
        T.DecimalType(5, 2),
        T.DecimalType(5, 2),
        T.DecimalType(3, 1),
        T.DecimalType(2, 0),
        T.DecimalType(21, 0),
        T.DecimalType(21, 1),
        T.DecimalType(5, 0),
      ],
    );
    const [r] = await df.collect();
    assert.deepEqual(Object.values(r!).map(String), [
      "2.35",
      "2.34",
      "-10.0",
      "-2",
      "12345678901234567891",
      "12345678901234567890.1",
      "1300",
    ]);
  });

  it("F.lit(Decimal) keeps precision and scale", async () => {
    const [r] = await s
      .range(1)
      .select(F.lit(Decimal.fromString("3.140")).alias("x"))
      .collect();
    assert.equal(String(r!.x), "3.140");
  });
});
