import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { simplifyLike } from "../../src/optimizer/like-simplification.js";
import { attribute } from "../../src/plan/expressions.js";
import { exprToSql } from "../../src/plan/sql-text.js";
import { StringType } from "../../src/types/datatypes.js";
import { tempDirsSync } from "../temp-dirs.js";
import { utcSession } from "./helpers.js";

const tmpPushdown = tempDirsSync("arus-pushdown-");

const k = attribute("k", StringType, true);
const like = (p: string) => {
  const e = simplifyLike(k, p);
  return e ? exprToSql(e) : null;
};

describe("LikeSimplification (Spark's rewrites of LIKE with a literal pattern)", () => {
  it("rewrites prefix, suffix, infix, prefix+suffix and exact patterns", () => {
    assert.equal(like("ab%"), "startswith(k, ab)");
    assert.equal(like("%yz"), "endswith(k, yz)");
    assert.equal(like("%m%"), "contains(k, m)");
    assert.equal(like("ab%yz"), "((length(k) >= 4) AND (startswith(k, ab) AND endswith(k, yz)))");
    assert.equal(like("abc"), "(k = abc)");
  });
  it("keeps patterns with '_', inner '%', or the escape character", () => {
    assert.equal(like("a_c"), null);
    assert.equal(like("%a%b%"), null);
    assert.equal(like("a\\%%"), null);
    assert.equal(like("%"), null);
  });
});

/** The physical plan of a streaming query over one JSON file, after it ran once. */
async function physical(sql: string): Promise<string> {
  const dir = tmpPushdown();
  mkdirSync(join(dir, "in"));
  writeFileSync(join(dir, "in", "part-0.json"), '{"k":"a","v":1,"b":true}\n{"k":null,"v":2,"b":false}\n');
  const s = utcSession();
  s.readStream.format("json").schema("k STRING, v INT, b BOOLEAN").load(join(dir, "in")).createOrReplaceTempView("input");
  const q = await s.sql(sql).writeStream.format("noop").trigger({ availableNow: true }).start();
  await q.awaitTermination();
  return q.explainString();
}

describe("filters pushed into streaming json scans, as Spark's explain lists them", () => {
  it("<> becomes Not(EqualTo) after the inferred IsNotNull", async () => {
    assert.match(await physical("SELECT * FROM input WHERE k <> 'a'"), /PushedFilters: \[IsNotNull\(k\), Not\(EqualTo\(k,a\)\)\]/);
  });
  it("LIKE 'ab%' becomes StringStartsWith", async () => {
    assert.match(await physical("SELECT * FROM input WHERE k LIKE 'ab%'"), /PushedFilters: \[IsNotNull\(k\), StringStartsWith\(k,ab\)\]/);
  });
  it("a null-intolerant condition that is not pushable still pushes its IsNotNull", async () => {
    const plan = await physical("SELECT * FROM input WHERE length(k) > 1");
    assert.match(plan, /PushedFilters: \[IsNotNull\(k\)\]/);
    assert.match(plan, /Filter \(\(k IS NOT NULL\) AND \(length\(k\) > 1\)\)/);
  });
  it("boolean columns, IN (values sorted), flipped literals, <=> and OR", async () => {
    const plan = await physical(
      "SELECT * FROM input WHERE b AND k NOT IN ('f', 'a') AND 8 >= v AND (k IN ('a') OR k IS NULL) AND NOT (v <=> 6)",
    );
    assert.match(
      plan,
      /PushedFilters: \[IsNotNull\(b\), IsNotNull\(v\), EqualTo\(b,true\), Not\(In\(k, \[a,f\]\)\), LessThanOrEqual\(v,8\), Or\(In\(k, \[a\]\),IsNull\(k\)\), Not\(EqualNullSafe\(v,6\)\)\]/,
    );
  });
  it("an OR with a part Spark cannot translate is not pushed", async () => {
    assert.doesNotMatch(await physical("SELECT * FROM input WHERE k = 'a' OR v % 2 = 0"), /PushedFilters/);
  });
  it("a filter after withWatermark on another column is pushed below the watermark into the scan", async () => {
    const dir = tmpPushdown();
    writeFileSync(join(dir, "part-0.json"), '{"k":"a","ts":"2024-01-01T00:00:01Z"}\n');
    const s = utcSession();
    const df = s.readStream.format("json").schema("k STRING, ts TIMESTAMP").load(dir);
    const q = await df
      .withWatermark("ts", "5 seconds")
      .filter(F.col("k").notEqual("x"))
      .writeStream.format("noop")
      .trigger({ availableNow: true })
      .start();
    await q.awaitTermination();
    assert.match(
      q.explainString(),
      /EventTimeWatermark[^\n]*\n\+- Filter[^\n]*\n {3}\+- StreamingScan json [^\n]*PushedFilters: \[IsNotNull\(k\), Not\(EqualTo\(k,x\)\)\]/,
    );
  });
});
