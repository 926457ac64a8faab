import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { AnalysisException, functions as F, ParseException } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";
import { utcSession } from "./helpers.js";

const tmpErr = tempDirsSync("arus-err-");

const s = utcSession();
const df = s.createDataFrame([{ produk: "Rok", qty: 2 }], "produk STRING, qty INT");

describe("errors say what is wrong and where", () => {
  it("an unknown column names it and suggests the available ones", () => {
    assert.throws(
      () => df.select("prodak"),
      (e: Error) =>
        e instanceof AnalysisException &&
        /UNRESOLVED_COLUMN.WITH_SUGGESTION.*`prodak`.*Did you mean one of the following\? \[`produk`, `qty`\]/.test(e.message),
    );
  });
  it("bad DDL is a ParseException pointing at the position", () => {
    assert.throws(() => s.createDataFrame([], "a INT, b"), ParseException);
    assert.throws(() => s.createDataFrame([], "a BLOB"), /UNSUPPORTED_DATATYPE.*BLOB/);
  });
  it("wrong argument types name the function, the argument and its type", () => {
    assert.throws(
      () => df.select(F.upper(F.array("qty"))),
      /Cannot resolve "upper\(array\(qty\)\)".*requires the "STRING" type, however "array\(qty\)" has the type "ARRAY<INT>"/,
    );
    assert.throws(() => df.select(F.col("qty").and(F.col("produk"))), /requires the "BOOLEAN" type, however "qty" has the type "INT"/);
  });
  it("an unknown function is UNRESOLVED_ROUTINE", () => {
    assert.throws(() => df.selectExpr("frobnicate(qty)"), /UNRESOLVED_ROUTINE.*frobnicate/);
  });
  it("functions only arus's own rewrites make are UNRESOLVED_ROUTINE in SQL text, as in Spark", async () => {
    const structs = s.sql("SELECT named_struct('a', 1, 'b', 'x') AS s, DATE'2020-01-01' AS d");
    for (const text of [
      "update_fields(s, 1)",
      "withfield('a', 2)",
      "dropfield('a')",
      "add_ym_interval(d, 3)",
      "extractansiintervaldays(INTERVAL '3' DAY)",
      "ADD_YM_INTERVAL(d, 3)",
    ]) {
      const name = text.slice(0, text.indexOf("(")).toLowerCase();
      assert.throws(
        () => structs.selectExpr(text),
        (e: Error) => e instanceof AnalysisException && e.message.includes(`[UNRESOLVED_ROUTINE] Cannot resolve routine \`${name}\``),
        text,
      );
    }
    // the same functions made by the API and by interval arithmetic still work
    const made = await structs
      .select(
        F.col("s").withField("a", F.lit(2)).alias("s"),
        F.expr("d + INTERVAL 3 DAYS").alias("e"),
        F.expr("d + INTERVAL '1' MONTH").alias("m"),
      )
      .collect();
    assert.deepEqual(made[0]!.s, { a: 2, b: "x" });
    const day = (v: unknown) => (v as Date).toISOString().slice(0, 10);
    assert.equal(day(made[0]!.e), "2020-01-04");
    assert.equal(day(made[0]!.m), "2020-02-01");
  });
  it("a malformed JSON line in FAILFAST mode names the file and line", async () => {
    const dir = tmpErr();
    const file = path.join(dir, "a.json");
    writeFileSync(file, '{"a": 1}\n{"a": 2}\n{"a": oops}\n');
    const read = s.read.schema("a INT").option("mode", "FAILFAST").json(file);
    await assert.rejects(read.collect(), (e: Error) => e.message.includes(file) && /line 3/.test(e.message));
    const permissive = await s.read.schema("a INT, _corrupt_record STRING").json(file).collect();
    assert.deepEqual(permissive[2], { a: null, _corrupt_record: '{"a": oops}' });
  });
  it("collect() on a stream and writeStream on a batch DataFrame are refused", async () => {
    const stream = s.readStream.format("rate").load();
    await assert.rejects(stream.collect(), /Queries with streaming sources must be executed with writeStream.start\(\)/);
    assert.throws(() => df.writeStream, /writeStream.*streaming/);
  });
  it("a missing path is PATH_NOT_FOUND", () => {
    assert.throws(() => s.read.json("/definitely/not/here"), /PATH_NOT_FOUND.*\/definitely\/not\/here/);
  });
});
