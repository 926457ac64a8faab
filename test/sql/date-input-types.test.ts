/**
 * Functions taking a DATE (or a TIMESTAMP) take a DATE, TIMESTAMP, STRING or NULL, as Spark's
 * implicit casts do, and refuse anything else at analysis: `date_add(1, 2)` was a NULL for every
 * row, now Spark's UNEXPECTED_INPUT_TYPE; a number parameter refuses a time. Messages and values
 * are PySpark 4.3's (local[1]).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { failureOf } from "./sql-probe.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const failure = async (e: string) => (await failureOf(session, `SELECT ${e}`)).message;

const mismatch = (sql: string, nth: string, wanted: string, arg: string, type: string) =>
  `[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "${sql}" due to data type mismatch: The ${nth} parameter requires the ${wanted} type, however "${arg}" has the type "${type}".`;

describe("a DATE parameter", () => {
  it("refuses numbers, booleans and arrays, as Spark", async () => {
    const cases: [string, string][] = [
      ["date_add(1, 2)", mismatch("date_add(1, 2)", "first", '"DATE"', "1", "INT")],
      ["date_sub(1L, 1)", mismatch("date_sub(1, 1)", "first", '"DATE"', "1", "BIGINT")],
      ["last_day(true)", mismatch("last_day(true)", "first", '"DATE"', "true", "BOOLEAN")],
      ["datediff(DATE'2024-03-15', 1)", mismatch("datediff(DATE '2024-03-15', 1)", "second", '"DATE"', "1", "INT")],
      ["add_months(2.5, 1)", mismatch("add_months(2.5, 1)", "first", '"DATE"', "2.5", "DECIMAL(2,1)")],
      ["weekofyear(array(1))", mismatch("weekofyear(array(1))", "first", '"DATE"', "array(1)", "ARRAY<INT>")],
      ["next_day(1, 'Mon')", mismatch("next_day(1, Mon)", "first", '"DATE"', "1", "INT")],
      ["dayofyear(1)", mismatch("dayofyear(1)", "first", '"DATE"', "1", "INT")],
      ["dayname(1)", mismatch("dayname(1)", "first", '"DATE"', "1", "INT")],
      ["year(1)", mismatch("year(1)", "first", '"DATE"', "1", "INT")],
      // a TIMESTAMP parameter likewise, and a number one refuses a time
      ["months_between(1, 2)", mismatch("months_between(1, 2, true)", "first", '"TIMESTAMP"', "1", "INT")],
      [
        "date_format(1, 2)",
        mismatch(
          "date_format(1, 2)",
          "first",
          '("TIMESTAMP" or "TIME" or "(TIMESTAMP_LTZ(P) OR TIMESTAMP_NTZ(P) WITH P IN [7, 9])")',
          "1",
          "INT",
        ),
      ],
      [
        "from_unixtime(DATE'2024-03-15')",
        mismatch("from_unixtime(DATE '2024-03-15', yyyy-MM-dd HH:mm:ss)", "first", '"BIGINT"', "DATE '2024-03-15'", "DATE"),
      ],
    ];
    for (const [e, message] of cases) assert.equal(await failure(e), message, e);
  });

  it("takes a STRING, a TIMESTAMP or a NULL", async () => {
    const [row] = await session
      .sql(
        "SELECT date_add('2024-03-15', 1) AS a, last_day(TIMESTAMP'2024-03-15 10:00:00') AS b, date_add(NULL, 1) AS c, year(NULL) AS d, hour(NULL) AS e",
      )
      .collect();
    assert.equal(String(row!.a instanceof Date ? row!.a.toISOString().slice(0, 10) : row!.a), "2024-03-16");
    assert.equal(String(row!.b instanceof Date ? row!.b.toISOString().slice(0, 10) : row!.b), "2024-03-31");
    assert.deepEqual([row!.c, row!.d, row!.e], [null, null, null]);
  });
});
