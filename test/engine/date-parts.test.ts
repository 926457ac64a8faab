/**
 * make_date, dayofyear, weekday, next_day, unix_date / date_from_unix_date, unix_seconds /
 * millis / micros, from_utc_timestamp / to_utc_timestamp, date_part / datepart / EXTRACT.
 * Expected values, names and error classes checked against PySpark 4.3 (session zone UTC).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

async function text(expr: string): Promise<unknown> {
  return (await session.sql(`SELECT CAST(${expr} AS STRING) AS v`).collect())[0]!.v;
}

describe("date functions", () => {
  it("make_date, dayofyear, weekday, next_day", async () => {
    assert.equal(await text("make_date(2024, 2, 29)"), "2024-02-29");
    assert.equal(await text("make_date(null, 1, 1)"), null);
    // PySpark 4.3's class and message
    await assert.rejects(
      text("make_date(2023, 2, 29)"),
      /^ArusError: \[DATETIME_FIELD_OUT_OF_BOUNDS\.WITHOUT_SUGGESTION\] Invalid date 'FEBRUARY 29'\. $/,
    );
    await assert.rejects(
      text("make_date(2024, 13, 1)"),
      /\[DATETIME_FIELD_OUT_OF_BOUNDS\.WITHOUT_SUGGESTION\] Invalid value for MonthOfYear \(valid values 1 - 12\): 13\. $/,
    );
    assert.equal(await text("dayofyear(date'2024-12-31')"), "366");
    assert.equal(await text("dayofyear('2023-03-01')"), "60");
    assert.equal(await text("weekday(date'2024-01-07')"), "6");
    assert.equal(await text("next_day(date'2024-01-01', 'MO')"), "2024-01-08");
    assert.equal(await text("next_day(date'2024-01-01', 'tue')"), "2024-01-02");
    assert.equal(await text("next_day(date'2024-01-01', 'Sunday')"), "2024-01-07");
    assert.equal(await text("next_day(date'2024-01-01', null)"), null);
    await assert.rejects(text("next_day(date'2024-01-01', 'xx')"), /ILLEGAL_DAY_OF_WEEK/);
    await assert.rejects(text("next_day(date'2024-01-01', 'MON ')"), /ILLEGAL_DAY_OF_WEEK/); // not trimmed
  });

  it("unix_* floor toward the past and take only TIMESTAMP", async () => {
    assert.equal(await text("unix_seconds(timestamp'1969-12-31 23:59:59.5')"), "-1");
    assert.equal(await text("unix_millis(timestamp'1969-12-31 23:59:59.9995')"), "-1");
    assert.equal(await text("unix_micros(timestamp'2024-01-01 00:00:00.123456')"), "1704067200123456");
    assert.equal(await text("unix_date(date'1969-12-31')"), "-1");
    assert.equal(await text("date_from_unix_date(1)"), "1970-01-02");
    await assert.rejects(text("unix_seconds('2024-01-01 00:00:00')"), /DATATYPE_MISMATCH\.UNEXPECTED_INPUT_TYPE/);
  });

  it("from_utc_timestamp / to_utc_timestamp shift the wall clock", async () => {
    assert.equal(await text("from_utc_timestamp(timestamp'2024-01-01 00:00:00', 'America/New_York')"), "2023-12-31 19:00:00");
    assert.equal(await text("to_utc_timestamp(timestamp'2024-07-01 00:00:00', 'Asia/Seoul')"), "2024-06-30 15:00:00");
    assert.equal(await text("to_utc_timestamp('2024-07-01 00:00:00', '+02:00')"), "2024-06-30 22:00:00");
  });

  it("date_part / EXTRACT know Spark's fields and synonyms; SECOND keeps the fraction", async () => {
    assert.equal(await text("date_part('YEAROFWEEK', date'2021-01-01')"), "2020");
    assert.equal(await text("date_part('week', date'2021-01-01')"), "53");
    assert.equal(await text("date_part('dow', date'2024-01-07')"), "1");
    assert.equal(await text("date_part('dow_iso', date'2024-01-07')"), "7");
    assert.equal(await text("date_part('second', timestamp'2024-05-17 10:11:12.345678')"), "12.345678");
    assert.equal(await text("date_part('hour', date'2024-05-17')"), "0");
    assert.equal(await text("extract(doy FROM date'2024-05-17')"), "138");
    assert.equal(await text("extract(second FROM timestamp'2024-05-17 10:11:12.5')"), "12.500000");
    await assert.rejects(text("date_part('bogus', date'2024-05-17')"), /INVALID_EXTRACT_FIELD/);
    assert.deepEqual(
      session.sql(
        "SELECT extract(YEAR FROM ts), date_part('Year', ts), datepart('doy', ts) FROM (SELECT timestamp'2024-01-01 00:00:00' AS ts)",
      ).columns,
      ["extract(YEAR FROM ts)", "date_part(Year, ts)", "datepart(doy FROM ts)"],
    );
  });

  it("F wrappers", async () => {
    const df = session.sql("SELECT timestamp'2024-05-17 10:11:12' AS ts");
    const row = (
      await df
        .select(
          F.extract(F.lit("MONTH"), "ts").alias("m"),
          F.next_day("ts", "Fri").cast("string").alias("nd"),
          F.from_utc_timestamp("ts", "Asia/Seoul").cast("string").alias("fu"),
        )
        .collect()
    )[0]!;
    assert.deepEqual([row.m, row.nd, row.fu], [5, "2024-05-24", "2024-05-17 19:11:12"]);
  });
});
