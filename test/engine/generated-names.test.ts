/**
 * Generated column names Spark spells irregularly, and the SQL syntax they come from: a cast of
 * a column keeps the column's name, `!=` is NOT (a = b), BETWEEN is between(x, l, u), default
 * arguments shown (substring's length, regexp_replace's position, the unix time format),
 * from_json / from_csv without their schema, SQL mean(x) vs F.mean's avg(x), array_agg as
 * collect_list. Every expected name and value was taken from PySpark 4.3.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const SRC = "FROM VALUES ('abc', 1.5D, TIMESTAMP '2024-01-02 03:04:05') AS t(s, d, ts)";

describe("generated column names", () => {
  it("SQL", () => {
    const cols = session.sql(
      "SELECT cast(s AS INT), try_cast(s AS INT), s::int, cast(d + 1 AS INT), d != 1, d <> 1, s BETWEEN 'a' AND 'b', s NOT BETWEEN 'a' AND 'b', " +
        "substr(s, 2), substring(s, 1, 2), regexp_replace(s, 'a', 'b'), from_unixtime(1), unix_timestamp(ts), to_unix_timestamp(ts), " +
        `from_json('{"a":1}', 'a INT'), from_csv('1', 'a INT'), mean(d), array_agg(d) ${SRC} GROUP BY s, d, ts`,
    ).columns;
    assert.deepEqual(cols, [
      "s",
      "s",
      "s",
      "CAST((d + 1) AS INT)",
      "(NOT (d = 1))",
      "(NOT (d = 1))",
      "between(s, a, b)",
      "(NOT between(s, a, b))",
      "substr(s, 2, 2147483647)",
      "substring(s, 1, 2)",
      "regexp_replace(s, a, b, 1)",
      "from_unixtime(1, yyyy-MM-dd HH:mm:ss)",
      "unix_timestamp(ts, yyyy-MM-dd HH:mm:ss)",
      "to_unix_timestamp(ts, yyyy-MM-dd HH:mm:ss)",
      'from_json({"a":1})',
      "from_csv(1)",
      "mean(d)",
      "collect_list(d)",
    ]);
  });

  it("DataFrame API", () => {
    const df = session.createDataFrame([["abc", 1.5]], "s string, d double");
    const cols = df.select(
      F.col("s").cast("int"),
      F.col("d").cast("string"),
      F.col("d").plus(1).cast("int"),
      F.col("d").notEqual(1),
      F.col("s").between("a", "b"),
      F.regexp_replace("s", "a", "b"),
      F.from_json("s", "a INT"),
    ).columns;
    assert.deepEqual(cols, [
      "s",
      "d",
      "CAST((d + 1) AS INT)",
      "(NOT (d = 1))",
      "((s >= a) AND (s <= b))",
      "regexp_replace(s, a, b, 1)",
      "from_json(s)",
    ]);
    assert.deepEqual(df.agg(F.mean("d")).columns, ["avg(d)"]);
  });

  it("SUBSTRING ... FROM ... FOR, OVERLAY ... PLACING, from_json options as a map", async () => {
    const df = session.sql(
      "SELECT substring('abcdef' FROM 2), substring('abcdef' FROM 2 FOR 3), substr('abcdef' FROM 3), " +
        "overlay('abcdef' PLACING 'xy' FROM 2), overlay('abcdef' PLACING 'xy' FROM 2 FOR 4), " +
        `from_json('{"a":1}', 'a INT', map('mode', 'FAILFAST')).a AS j`,
    );
    assert.deepEqual(df.columns.slice(0, 5), [
      "substring(abcdef, 2, 2147483647)",
      "substring(abcdef, 2, 3)",
      "substring(abcdef, 3, 2147483647)",
      "overlay(abcdef, xy, 2, -1)",
      "overlay(abcdef, xy, 2, 4)",
    ]);
    const [row] = await df.collect();
    assert.deepEqual(
      df.columns.map((c) => row![c]),
      ["bcdef", "bcd", "cdef", "axydef", "axyf", 1],
    );
    await assert.rejects(
      session.sql("SELECT from_json('{bad', 'a INT', map('mode', 'FAILFAST')) AS j").collect(),
      /MALFORMED_RECORD_IN_PARSING/,
    );
  });
});
