// TINYINT, SMALLINT and FLOAT as their own types: widening, overflow (wrap, or an error in ANSI
// mode), Java's Float.toString in show(), sums widened to BIGINT/DOUBLE, files and Arrow.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { javaFloatToString } from "../../src/common/show.js";
import { functions as F, T } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
const dir = mkdtempSync(path.join(tmpdir(), "arus-small-"));
after(() => {
  s.conf.unset("spark.sql.ansi.enabled");
  rmSync(dir, { recursive: true, force: true });
});
const df = () =>
  s.createDataFrame(
    [
      { b: 127, h: 32767, f: 0.1 },
      { b: -128, h: -32768, f: 3.4028235e38 },
    ],
    "b TINYINT, h SMALLINT, f FLOAT",
  );
const types = (d: ReturnType<typeof df>) => d.schema.fields.map((x) => x.type);

describe("TINYINT, SMALLINT, FLOAT", () => {
  it("are their own types with Spark's names", () => {
    assert.deepEqual(types(df()), [T.ByteType, T.ShortType, T.FloatType]);
    assert.deepEqual(df().dtypes, [
      ["b", "tinyint"],
      ["h", "smallint"],
      ["f", "float"],
    ]);
    assert.throws(() => s.createDataFrame([{ b: 128 }], "b TINYINT"), /out of range for TINYINT/);
  });

  it("widen as Spark: byte op byte stays byte, with int → int, float with float → float, float with an integer or a double → double", () => {
    // PySpark 4.3 (ANSI coercion): CAST(1 AS FLOAT) * 2 is a DOUBLE — a FLOAT cannot hold every INT
    const d = df().selectExpr("b + b", "b + 1", "h * 2S", "f * 2", "f * CAST(2 AS FLOAT)", "f + 1.5D", "b + h", "f + b");
    assert.deepEqual(types(d), [
      T.ByteType,
      T.IntegerType,
      T.ShortType,
      T.DoubleType,
      T.FloatType,
      T.DoubleType,
      T.ShortType,
      T.DoubleType,
    ]);
  });

  it("overflow: BINARY_ARITHMETIC_OVERFLOW / CAST_OVERFLOW in ANSI mode, Java's wrap otherwise", async () => {
    await assert.rejects(() => df().selectExpr("b + 1Y").collect(), /BINARY_ARITHMETIC_OVERFLOW\] 127S \+ 1S caused overflow/);
    await assert.rejects(() => df().selectExpr("h * 2S").collect(), /BINARY_ARITHMETIC_OVERFLOW/);
    await assert.rejects(() => s.sql("SELECT CAST(300 AS TINYINT)").collect(), /CAST_OVERFLOW/);
    assert.deepEqual(await s.sql("SELECT TRY_CAST(300 AS TINYINT) t").collect(), [{ t: null }]);
    s.conf.set("spark.sql.ansi.enabled", "false");
    try {
      const rows = await df()
        .selectExpr("b + 1Y AS x", "h * 2S AS y", "-b AS n", "CAST(300 AS TINYINT) AS t", "CAST(70000 AS SMALLINT) AS u")
        .collect();
      assert.deepEqual(rows, [
        { x: -128, y: -2, n: -127, t: 44, u: 4464 },
        { x: -127, y: 0, n: -128, t: 44, u: 4464 },
      ]);
    } finally {
      s.conf.set("spark.sql.ansi.enabled", "true");
    }
  });

  it("FLOAT keeps float precision and prints as Java's Float.toString", async () => {
    const rows = await df().selectExpr("f", "f * CAST(2 AS FLOAT) AS z", "CAST(f AS DOUBLE) AS d").collect();
    assert.equal(rows[0]!.f, Math.fround(0.1));
    assert.equal(rows[0]!.d, 0.10000000149011612);
    assert.equal(rows[1]!.z, Infinity);
    assert.match(await df().selectExpr("f", "b", "h").showString(), /\| {9}0\.1\| 127\| 32767\|\n\|3\.4028235E38\|-128\|-32768\|/);
    assert.deepEqual(
      [0.1, 1e7, 1.0e-5, 123456.7, 16777216, -0].map((x) => javaFloatToString(Math.fround(x))),
      ["0.1", "1.0E7", "1.0E-5", "123456.7", "1.6777216E7", "-0.0"],
    );
  });

  it("sum widens to BIGINT (integral) or DOUBLE (float); min/max keep the type", async () => {
    const d = df().agg(F.sum("b"), F.sum("h"), F.sum("f"), F.min("b"), F.max("f"));
    assert.deepEqual(types(d), [T.LongType, T.LongType, T.DoubleType, T.ByteType, T.FloatType]);
    const [r] = await d.collect();
    assert.deepEqual(Object.values(r!).slice(0, 2), [-1, -1]);
  });

  it("round-trip through JSON, CSV, Parquet and Arrow", async () => {
    await df().write.json(path.join(dir, "j"));
    const text = readdirSync(path.join(dir, "j"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => readFileSync(path.join(dir, "j", f), "utf8"))
      .join("");
    assert.equal(text, '{"b":127,"h":32767,"f":0.1}\n{"b":-128,"h":-32768,"f":3.4028235E38}\n');
    assert.deepEqual(await s.read.schema("b TINYINT, h SMALLINT, f FLOAT").json(path.join(dir, "j")).collect(), await df().collect());
    await df().write.option("header", true).csv(path.join(dir, "c"));
    assert.deepEqual(
      await s.read.option("header", true).schema("b TINYINT, h SMALLINT, f FLOAT").csv(path.join(dir, "c")).collect(),
      await df().collect(),
    );
    await df().write.parquet(path.join(dir, "p"));
    const p = s.read.parquet(path.join(dir, "p"));
    assert.deepEqual(types(p), [T.ByteType, T.ShortType, T.FloatType]);
    assert.deepEqual(await p.collect(), await df().collect());
    const back = s.createDataFrameFromArrow(await df().toArrow());
    assert.deepEqual(types(back), [T.ByteType, T.ShortType, T.FloatType]);
    assert.deepEqual(await back.collect(), await df().collect());
  });
});
