/**
 * Day-time interval types and `+` / `-` with dates, as Spark 4 analyzes them: the interval's
 * fields from how its literal is written (type name and printed value), `date ± days` as
 * date_add / date_sub, a DATE plus an interval of whole days staying a DATE, typed literals
 * printed as Spark prints them. Every expected type, value and generated name below is what
 * PySpark 4.3 gives for the same SELECT (session time zone UTC).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
session.sql("SELECT TIMESTAMP'2020-01-01 10:00:00' AS ts, DATE'2020-01-01' AS d, 3 AS n").createOrReplaceTempView("dt_t");

async function shape(expr: string): Promise<[string, string, unknown]> {
  const df = session.sql(`SELECT ${expr} FROM dt_t`);
  const [name, type] = df.dtypes[0]!;
  const text = (await session.sql(`SELECT CAST(${expr} AS STRING) AS v FROM dt_t`).collect())[0]!.v;
  return [type, name, text];
}

describe("day-time interval types (Spark's fields)", () => {
  it("a literal's fields name its type and print its value", async () => {
    assert.deepEqual((await shape("INTERVAL 3 DAYS")).slice(0, 2), ["interval day", "INTERVAL '3' DAY"]);
    assert.deepEqual((await shape("INTERVAL -3 DAYS")).slice(0, 2), ["interval day", "INTERVAL '-3' DAY"]);
    assert.deepEqual((await shape("INTERVAL 25 HOURS")).slice(0, 2), ["interval hour", "INTERVAL '25' HOUR"]);
    assert.deepEqual((await shape("INTERVAL 90 MINUTES")).slice(0, 2), ["interval minute", "INTERVAL '90' MINUTE"]);
    assert.deepEqual((await shape("INTERVAL 1.5 SECONDS")).slice(0, 2), ["interval second", "INTERVAL '01.5' SECOND"]);
    assert.deepEqual((await shape("INTERVAL 3 DAYS 4 MINUTES")).slice(0, 2), [
      "interval day to minute",
      "INTERVAL '3 00:04' DAY TO MINUTE",
    ]);
    assert.deepEqual((await shape("INTERVAL 2 HOURS 30 SECONDS")).slice(0, 2), [
      "interval hour to second",
      "INTERVAL '02:00:30' HOUR TO SECOND",
    ]);
    assert.deepEqual((await shape("INTERVAL '3 days 2 hours'")).slice(0, 2), ["interval day to hour", "INTERVAL '3 02' DAY TO HOUR"]);
    assert.deepEqual((await shape("INTERVAL '2:3:4' HOUR TO SECOND")).slice(0, 2), [
      "interval hour to second",
      "INTERVAL '02:03:04' HOUR TO SECOND",
    ]);
    assert.deepEqual((await shape("INTERVAL '3:4' MINUTE TO SECOND")).slice(0, 2), [
      "interval minute to second",
      "INTERVAL '03:04' MINUTE TO SECOND",
    ]);
    assert.deepEqual((await shape("ts - ts")).slice(0, 1), ["interval day to second"]);
  });
});

describe("+ and - with dates and timestamps", () => {
  it("a DATE plus or minus whole days stays a DATE: date_add / date_sub", async () => {
    assert.deepEqual(await shape("d + INTERVAL 3 DAYS"), ["date", "date_add(d, extractansiintervaldays(INTERVAL '3' DAY))", "2020-01-04"]);
    assert.deepEqual(await shape("d - INTERVAL 3 DAYS"), [
      "date",
      "date_add(d, (- extractansiintervaldays(INTERVAL '3' DAY)))",
      "2019-12-29",
    ]);
    assert.deepEqual(await shape("INTERVAL 3 DAYS + d"), ["date", "date_add(d, extractansiintervaldays(INTERVAL '3' DAY))", "2020-01-04"]);
    assert.deepEqual(await shape("d + n"), ["date", "date_add(d, n)", "2020-01-04"]);
    assert.deepEqual(await shape("n + d"), ["date", "date_add(d, n)", "2020-01-04"]);
    assert.deepEqual(await shape("d - 3"), ["date", "date_sub(d, 3)", "2019-12-29"]);
  });

  it("with hours (or any finer field) it is a TIMESTAMP, named without parentheses as Spark's TimeAdd", async () => {
    assert.deepEqual(await shape("d + INTERVAL 3 HOURS"), ["timestamp", "d + INTERVAL '03' HOUR", "2020-01-01 03:00:00"]);
    assert.deepEqual(await shape("d + INTERVAL '1 2' DAY TO HOUR"), [
      "timestamp",
      "d + INTERVAL '1 02' DAY TO HOUR",
      "2020-01-02 02:00:00",
    ]);
    assert.deepEqual(await shape("ts + INTERVAL 3 DAYS"), ["timestamp", "ts + INTERVAL '3' DAY", "2020-01-04 10:00:00"]);
    assert.deepEqual(await shape("ts - INTERVAL '1 2:3:4.5' DAY TO SECOND"), [
      "timestamp",
      "ts - INTERVAL '1 02:03:04.5' DAY TO SECOND",
      "2019-12-31 07:56:55.5",
    ]);
  });

  it("typed literals print as Spark's literals", async () => {
    assert.deepEqual(await shape("DATE'2020-1-2'"), ["date", "DATE '2020-01-02'", "2020-01-02"]);
    assert.deepEqual(await shape("TIMESTAMP'2020-01-01 10:11:12.5'"), [
      "timestamp",
      "TIMESTAMP '2020-01-01 10:11:12.5'",
      "2020-01-01 10:11:12.5",
    ]);
    assert.deepEqual((await shape("TIMESTAMP'2020-01-01' + INTERVAL 3 DAYS")).slice(0, 2), [
      "timestamp",
      "TIMESTAMP '2020-01-01 00:00:00' + INTERVAL '3' DAY",
    ]);
  });
});
