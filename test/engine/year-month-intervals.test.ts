// Year-month intervals added to DATE and TIMESTAMP (Spark's DateAddYMInterval /
// TimestampAddYMInterval): every expected value checked against PySpark 4.3.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simpleString } from "../../src/types/datatypes.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
async function one(expr: string): Promise<{ type: string; iso: string }> {
  const df = s.sql(`SELECT ${expr} AS v`);
  const v = (await df.collect())[0]!.v as Date;
  return { type: simpleString(df.schema.fields[0]!.type), iso: v.toISOString() };
}

describe("year-month intervals", () => {
  it("move a DATE's months, the day clamped to the month's end", async () => {
    assert.deepEqual(await one("DATE'2024-01-31' + INTERVAL 1 MONTH"), { type: "date", iso: "2024-02-29T00:00:00.000Z" });
    assert.deepEqual(await one("DATE'2024-03-31' - INTERVAL 1 MONTH"), { type: "date", iso: "2024-02-29T00:00:00.000Z" });
    assert.deepEqual(await one("DATE'2024-01-15' + INTERVAL '1-2' YEAR TO MONTH"), { type: "date", iso: "2025-03-15T00:00:00.000Z" });
    assert.deepEqual(await one("INTERVAL 2 MONTHS + DATE'2024-01-31'"), { type: "date", iso: "2024-03-31T00:00:00.000Z" });
    assert.deepEqual(await one("DATE'2024-01-31' + (-INTERVAL 1 MONTH)"), { type: "date", iso: "2023-12-31T00:00:00.000Z" });
    assert.deepEqual(await one("DATE'2024-01-31' + INTERVAL 1 YEAR 2 MONTHS"), { type: "date", iso: "2025-03-31T00:00:00.000Z" });
  });
  it("move a TIMESTAMP's local date in the session time zone, keeping the time of day", async () => {
    assert.deepEqual(await one("TIMESTAMP'2024-01-31 10:11:12' + INTERVAL 1 MONTH"), {
      type: "timestamp",
      iso: "2024-02-29T10:11:12.000Z",
    });
    assert.deepEqual(await one("TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 YEAR"), { type: "timestamp", iso: "2025-02-28T10:00:00.000Z" });
    s.conf.set("spark.sql.session.timeZone", "Asia/Jakarta");
    try {
      // local 2024-01-31 02:00 (+07) + 1 month = local 2024-02-29 02:00 = 2024-02-28 19:00 UTC
      assert.deepEqual(await one("TIMESTAMP'2024-01-31 02:00:00' + INTERVAL 1 MONTH"), {
        type: "timestamp",
        iso: "2024-02-28T19:00:00.000Z",
      });
    } finally {
      s.conf.set("spark.sql.session.timeZone", "UTC");
    }
  });
  it("step a sequence of DATEs or TIMESTAMPs month by month from the start (PySpark 4.3's answers)", async () => {
    const seq = async (expr: string) => {
      const df = s.sql(`SELECT ${expr} AS v, typeof(${expr}) AS t`);
      const r = (await df.collect())[0]!;
      return { t: r.t, v: (r.v as Date[] | null)?.map((d) => d.toISOString().slice(0, 19)) ?? null };
    };
    assert.deepEqual(await seq("sequence(DATE'2024-01-31', DATE'2024-05-01', INTERVAL 1 MONTH)"), {
      t: "array<date>",
      v: ["2024-01-31T00:00:00", "2024-02-29T00:00:00", "2024-03-31T00:00:00", "2024-04-30T00:00:00"],
    });
    assert.deepEqual((await seq("sequence(DATE'2024-01-31', DATE'2024-12-31', INTERVAL 3 MONTH)")).v, [
      "2024-01-31T00:00:00",
      "2024-04-30T00:00:00",
      "2024-07-31T00:00:00",
      "2024-10-31T00:00:00",
    ]);
    assert.deepEqual((await seq("sequence(DATE'2024-05-01', DATE'2024-03-01', -INTERVAL 1 MONTH)")).v, [
      "2024-05-01T00:00:00",
      "2024-04-01T00:00:00",
      "2024-03-01T00:00:00",
    ]);
    assert.deepEqual((await seq("sequence(DATE'2024-01-01', DATE'2026-01-01', INTERVAL '1-0' YEAR TO MONTH)")).v, [
      "2024-01-01T00:00:00",
      "2025-01-01T00:00:00",
      "2026-01-01T00:00:00",
    ]);
    assert.deepEqual(await seq("sequence(DATE'2024-01-01', TIMESTAMP'2024-03-01 00:00:00', INTERVAL 1 MONTH)"), {
      t: "array<timestamp>",
      v: ["2024-01-01T00:00:00", "2024-02-01T00:00:00", "2024-03-01T00:00:00"],
    });
    assert.deepEqual((await seq("sequence(TIMESTAMP'2024-01-31 10:00:00', TIMESTAMP'2024-04-30 10:00:00', INTERVAL 1 MONTH)")).v, [
      "2024-01-31T10:00:00",
      "2024-02-29T10:00:00",
      "2024-03-31T10:00:00",
      "2024-04-30T10:00:00",
    ]);
    assert.deepEqual((await seq("sequence(CAST(NULL AS DATE), DATE'2024-01-01', INTERVAL 1 MONTH)")).v, null);
    assert.deepEqual(s.sql("SELECT sequence(DATE'2024-01-01', DATE'2024-04-01', INTERVAL 1 MONTH)").columns, [
      "sequence(DATE '2024-01-01', DATE '2024-04-01', INTERVAL '1' MONTH)",
    ]);
    await assert.rejects(
      s.sql("SELECT sequence(DATE'2024-04-01', DATE'2024-01-01', INTERVAL 1 MONTH)").collect(),
      /Illegal sequence boundaries: 1711929600000000 to 1704067200000000 by 1/,
    );
    assert.throws(() => s.sql("SELECT sequence(1, 5, INTERVAL 1 MONTH)"), /\[DATATYPE_MISMATCH\.SEQUENCE_WRONG_INPUT_TYPES\]/);
  });
  it("are refused anywhere else, and mixed with days", async () => {
    await assert.rejects(one("INTERVAL 1 MONTH"), /year-month interval .* can only be added to or subtracted from a DATE or TIMESTAMP/);
    assert.throws(() => s.sql("SELECT DATE'2024-01-31' + INTERVAL 1 MONTH 2 DAYS"), /mixing years or months with days or times/);
  });
  it("name the column as Spark does", () => {
    assert.deepEqual(s.sql("SELECT d + INTERVAL 1 MONTH FROM VALUES (DATE'2024-01-31') t(d)").columns, ["d + INTERVAL '1' MONTH"]);
  });
});
