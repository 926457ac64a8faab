/**
 * F wrappers PySpark has for functions arus's SQL already ran (to_char, to_varchar, to_number,
 * try_to_number, to_unix_timestamp, make_dt_interval, call_function, call_udf, toDegrees,
 * toRadians): names, types and values as PySpark 4.3.0 gives them for the same calls.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { DoubleType } from "../../src/types/datatypes.js";

const spark = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

describe("F wrappers as PySpark", () => {
  it("names, types and values", async () => {
    const df = spark.createDataFrame([[12.5, "$1,234.50", "2024-01-01 00:00:10", 3.14159]], "x DOUBLE, t STRING, ts STRING, r DOUBLE");
    spark.udf.register("plus1", (v: number) => v + 1, DoubleType);
    const dec = F.col("x").cast("decimal(5,2)");
    const d = df.select(
      F.to_char(dec, F.lit("999.99")),
      F.to_varchar(dec, F.lit("000.0")),
      F.to_number("t", F.lit("$9,999.99")),
      F.try_to_number(F.lit("abc"), F.lit("999")),
      F.to_unix_timestamp(F.col("ts")),
      F.to_unix_timestamp(F.lit("2024/01/01"), F.lit("yyyy/MM/dd")),
      F.make_dt_interval(F.lit(1), F.lit(2)),
      F.call_function("upper", F.lit("ab")),
      F.call_udf("plus1", "x"),
      F.toDegrees("r"),
      F.toRadians(F.lit(180)),
    );
    assert.deepEqual(d.columns, [
      "to_char(CAST(x AS DECIMAL(5,2)), 999.99)",
      "to_char(CAST(x AS DECIMAL(5,2)), 000.0)",
      "to_number(t, $9,999.99)",
      "try_to_number(abc, 999)",
      "to_unix_timestamp(ts, yyyy-MM-dd HH:mm:ss)",
      "to_unix_timestamp(2024/01/01, yyyy/MM/dd)",
      "make_dt_interval(1, 2, 0, 0)",
      "upper(ab)",
      "plus1(x)",
      "DEGREES(r)",
      "RADIANS(180)",
    ]);
    assert.deepEqual(
      d.dtypes.map(([, t]) => t),
      [
        "string",
        "string",
        "decimal(6,2)",
        "decimal(3,0)",
        "bigint",
        "bigint",
        "interval day to second",
        "string",
        "double",
        "double",
        "double",
      ],
    );
    const [row] = await d.toArray();
    assert.deepEqual(
      row!.map((v) => (typeof v === "object" && v !== null ? String(v) : v)),
      [" 12.50", "012.5", "1234.50", null, 1704067210, 1704067200, 93_600_000_000, "AB", 13.5, 179.9998479605043, Math.PI],
    );
  });
});
