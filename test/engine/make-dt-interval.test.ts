/**
 * make_dt_interval: names (missing parts shown as their defaults), values as Spark's interval
 * text, NULL parts, 64-bit overflow. Expected from PySpark 4.3.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

async function text(expr: string): Promise<{ name: string; type: string; value: string | null }> {
  const df = session.sql(`SELECT ${expr}`);
  const name = df.columns[0]!;
  const [row] = await session.sql(`SELECT CAST(${expr} AS STRING) AS v`).collect();
  return { name, type: df.dtypes[0]![1], value: row!.v as string | null };
}

describe("make_dt_interval", () => {
  it("builds an INTERVAL DAY TO SECOND from its parts", async () => {
    const cases: [string, string, string | null][] = [
      ["make_dt_interval(1, 12, 30, 1.001001)", "make_dt_interval(1, 12, 30, 1.001001)", "INTERVAL '1 12:30:01.001001' DAY TO SECOND"],
      ["make_dt_interval(2)", "make_dt_interval(2, 0, 0, 0.000000)", "INTERVAL '2 00:00:00' DAY TO SECOND"],
      ["make_dt_interval()", "make_dt_interval(0, 0, 0, 0.000000)", "INTERVAL '0 00:00:00' DAY TO SECOND"],
      ["make_dt_interval(100, null, 3)", "make_dt_interval(100, NULL, 3, 0.000000)", null],
      ["make_dt_interval(-1, 2, 3, 4.5)", "make_dt_interval(-1, 2, 3, 4.5)", "INTERVAL '-0 21:56:55.5' DAY TO SECOND"],
      ["make_dt_interval(0, 25, 0, 0)", "make_dt_interval(0, 25, 0, 0)", "INTERVAL '1 01:00:00' DAY TO SECOND"],
    ];
    for (const [expr, name, value] of cases) assert.deepEqual(await text(expr), { name, type: "interval day to second", value }, expr);
  });

  it("adds to a timestamp, and overflows as Spark does", async () => {
    const [row] = await session.sql("SELECT CAST(TIMESTAMP '2024-01-01 00:00:00' + make_dt_interval(1, 2) AS STRING) AS t").collect();
    assert.equal(row!.t, "2024-01-02 02:00:00");
    await assert.rejects(
      session.sql("SELECT make_dt_interval(106751992, 0, 0, 0) AS i").collect(),
      /\[INTERVAL_ARITHMETIC_OVERFLOW\.WITHOUT_SUGGESTION\]/,
    );
  });
});
