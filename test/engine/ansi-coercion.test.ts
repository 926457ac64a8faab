// Spark 4's ANSI type coercion of STRING with other types (AnsiTypeCoercion.findWiderTypeForString),
// each figure checked against PySpark 4.3: the STRING is promoted to the other type, not the other
// way round, and a value the query does not pick is never cast (coalesce is lazy, as in Spark).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";
import { utcSession } from "./helpers.js";

const s = utcSession();

async function one(expr: string): Promise<{ type: string; value: unknown }> {
  const df = s.sql(`SELECT ${expr} AS v`);
  const rows = await df.collect();
  return { type: simpleString(df.schema.fields[0]!.type), value: rows[0]!.v };
}

describe("ANSI coercion of STRING with other types", () => {
  it("the common type of STRING and another type is the other type (integral: BIGINT, fractional: DOUBLE)", async () => {
    const cases: [string, string, unknown][] = [
      ["if(true, 1, 'a')", "bigint", 1],
      ["if(false, 1, '2')", "bigint", 2],
      ["CASE WHEN true THEN 1 ELSE 'a' END", "bigint", 1],
      ["coalesce(CAST(NULL AS TINYINT), '5')", "bigint", 5],
      ["if(true, 1.5, '2')", "double", 1.5],
      ["coalesce(CAST(NULL AS FLOAT), '2.5')", "double", 2.5],
      ["if(true, true, 'false')", "boolean", true],
      ["array(1, '2')", "array<bigint>", [1, 2]],
      [
        "map('a', 1, 'b', '2')",
        "map<string,bigint>",
        new Map([
          ["a", 1],
          ["b", 2],
        ]),
      ],
      ["if(true, 1, 2.5)", "decimal(11,1)", "1.0"],
      ["CASE 1 WHEN '1' THEN 'y' ELSE 'n' END", "string", "y"],
    ];
    for (const [expr, type, value] of cases) {
      const got = await one(expr);
      assert.equal(got.type, type, expr);
      assert.deepEqual(type.startsWith("decimal") ? String(got.value) : got.value, value, expr);
    }
    const d = await one("if(true, '2021-02-03', date'2020-01-01')");
    assert.equal(d.type, "date");
    const t = await one("if(false, timestamp'2020-01-01 00:00:00', '2021-01-01')");
    assert.equal(t.type, "timestamp");
  });

  it("UNION widens STRING to the other side's type", async () => {
    const df = s.sql("SELECT 1 AS v UNION ALL SELECT '2'");
    assert.equal(simpleString(df.schema.fields[0]!.type), "bigint");
    assert.deepEqual(
      (await df.collect()).map((r) => r.v),
      [1, 2],
    );
  });

  it("a malformed string that is picked fails the query with CAST_INVALID_INPUT", async () => {
    await assert.rejects(one("if(true, 'a', 1)"), /CAST_INVALID_INPUT.*'a'.*BIGINT/);
    await assert.rejects(one("if(true, 'x', date'2020-01-01')"), /CAST_INVALID_INPUT.*'x'.*DATE/);
  });

  it("coalesce casts an argument only on the rows still NULL before it", async () => {
    assert.deepEqual(await one("coalesce(1, 'a')"), { type: "bigint", value: 1 });
    assert.deepEqual(await one("nvl(1, 'x')"), { type: "bigint", value: 1 });
    const df = s.createDataFrame(
      [
        { a: 1, b: null, c: "x" },
        { a: null, b: 2, c: "y" },
        { a: null, b: null, c: "3" },
        { a: null, b: null, c: null },
        { a: 5, b: 6, c: "z" },
      ],
      "a INT, b INT, c STRING",
    );
    const rows = await df.select(F.coalesce(F.col("a"), F.col("b"), F.col("c").cast("int")).alias("v")).collect();
    assert.deepEqual(
      rows.map((r) => r.v),
      [1, 2, 3, null, 5],
    );
    await assert.rejects(df.select(F.coalesce(F.col("a"), F.col("c").cast("int")).alias("v")).collect(), /CAST_INVALID_INPUT.*'y'/);
  });

  it("greatest and least do not promote STRING (DATA_DIFF_TYPES)", async () => {
    await assert.rejects(
      one("greatest(1, '3')"),
      /DATATYPE_MISMATCH\.DATA_DIFF_TYPES.*Input to `greatest` should all be the same type, but it's \["INT", "STRING"\]/,
    );
    assert.deepEqual(await one("least(1, 2L)"), { type: "bigint", value: 1 });
  });

  it("nullif compares as = does and keeps the first argument's type", async () => {
    assert.deepEqual(await one("nullif(1, '1')"), { type: "int", value: null });
    assert.deepEqual(await one("nullif(2, '1')"), { type: "int", value: 2 });
    assert.deepEqual(await one("nullif('1', 1)"), { type: "string", value: null });
    await assert.rejects(one("nullif(1, 'x')"), /CAST_INVALID_INPUT/);
  });

  it("STRING has no common type with arrays or intervals", async () => {
    await assert.rejects(one("coalesce(array(1), 'a')"), /DATA_DIFF_TYPES/);
    await assert.rejects(one("array(array(1), 'a')"), /DATA_DIFF_TYPES/);
  });
});
