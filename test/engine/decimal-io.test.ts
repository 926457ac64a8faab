// DECIMAL through the file formats and Arrow: JSON and CSV read (HALF_UP, malformed beyond the
// precision) and write (BigDecimal text), Parquet's DECIMAL both ways, Arrow Decimal128 both ways.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import * as arrow from "apache-arrow";
import { functions as F, T } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
const dir = mkdtempSync(path.join(tmpdir(), "arus-decimal-io-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const texts = async (df: ReturnType<typeof s.sql>) =>
  (await df.collect()).map((r) => Object.values(r).map((v) => (v === null ? null : String(v))));
const written = (d: string, ext: string) =>
  readdirSync(d)
    .filter((f) => f.endsWith(ext))
    .map((f) => readFileSync(path.join(d, f), "utf8"))
    .join("");

describe("DECIMAL in files and Arrow", () => {
  it("JSON: numbers and numeric strings, exact beyond a double's digits; written as BigDecimal text", async () => {
    const f = path.join(dir, "in.json");
    writeFileSync(f, '{"d": 1.5, "b": 12345678901234567890.123456789}\n{"d": "2.345", "b": -0.000001}\n{"d": 1234.5, "b": 1}\n');
    const df = s.read.schema("d DECIMAL(5,2), b DECIMAL(38,10)").json(f);
    assert.deepEqual(await texts(df), [
      ["1.50", "12345678901234567890.1234567890"],
      ["2.35", "-0.0000010000"],
      [null, "1.0000000000"], // 1234.50 needs 6 digits: malformed field, NULL in PERMISSIVE mode
    ]);
    await df.write.json(path.join(dir, "out-json"));
    assert.equal(
      written(path.join(dir, "out-json"), ".json"),
      '{"d":1.50,"b":12345678901234567890.1234567890}\n{"d":2.35,"b":-0.0000010000}\n{"b":1.0000000000}\n',
    );
  });

  it("from_json reads long decimal numbers exactly too, and a STRING field still sees the double's text", async () => {
    const df = s
      .createDataFrame([{ j: '{"b": 12345678901234567890.123456789, "t": 0.1000000000000000055511}' }], "j STRING")
      .select(F.from_json("j", "b DECIMAL(38,10), t STRING").alias("r"))
      .select("r.b", "r.t");
    assert.deepEqual(await texts(df), [["12345678901234567890.1234567890", "0.1"]]);
  });

  it("CSV: grouping commas dropped, HALF_UP; written as BigDecimal text", async () => {
    const f = path.join(dir, "in.csv");
    writeFileSync(f, 'd,b\n1.5,"1,234.5"\n2.345,x\n');
    const df = s.read.option("header", true).schema("d DECIMAL(5,2), b DECIMAL(10,1)").csv(f);
    assert.deepEqual(await texts(df), [
      ["1.50", "1234.5"],
      ["2.35", null],
    ]);
    await df.write.option("header", true).csv(path.join(dir, "out-csv"));
    assert.equal(written(path.join(dir, "out-csv"), ".csv"), "d,b\n1.50,1234.5\n2.35,\n");
  });

  it("Parquet: DECIMAL columns round-trip and widen to a wider decimal schema", async () => {
    const out = path.join(dir, "pq");
    const df = s.sql(
      "SELECT CAST('1.25' AS DECIMAL(5,2)) a, CAST('-12345678901234567890.5' AS DECIMAL(30,1)) b UNION ALL SELECT NULL, NULL",
    );
    await df.write.parquet(out);
    const back = s.read.parquet(out);
    assert.deepEqual(
      back.schema.fields.map((x) => x.type),
      [T.DecimalType(5, 2), T.DecimalType(30, 1)],
    );
    assert.deepEqual(await texts(back), [
      ["1.25", "-12345678901234567890.5"],
      [null, null],
    ]);
    assert.deepEqual(await texts(s.read.schema("a DECIMAL(10,4), b DECIMAL(38,1)").parquet(out)), [
      ["1.2500", "-12345678901234567890.5"],
      [null, null],
    ]);
  });

  it("Arrow: Decimal128 out and in, both lanes", async () => {
    const df = s.sql("SELECT CAST('-1.25' AS DECIMAL(5,2)) a, CAST('99999999999999999999999999999999999.999' AS DECIMAL(38,3)) b");
    const table = await df.toArrow();
    const ta = table.schema.fields[0]!.type as arrow.Decimal;
    assert.equal(ta.typeId, arrow.Type.Decimal);
    assert.deepEqual([ta.precision, ta.scale, ta.bitWidth], [5, 2, 128]);
    const back = s.createDataFrameFromArrow(table);
    assert.deepEqual(
      back.schema.fields.map((x) => x.type),
      [T.DecimalType(5, 2), T.DecimalType(38, 3)],
    );
    assert.deepEqual(await texts(back), [["-1.25", "99999999999999999999999999999999999.999"]]);
  });
});
