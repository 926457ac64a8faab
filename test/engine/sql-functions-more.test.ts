/**
 * if, signum/sign, add_months, months_between, last_day, weekofyear, trunc, date_trunc,
 * array_join, array_distinct, array_max/min, map/map_keys/map_values, size(NULL),
 * get_json_object and to_date under ANSI. Every expected value (and error class) below was
 * checked against PySpark 4 (`SELECT <expr> AS v`, session time zone UTC unless stated).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

async function value(expr: string): Promise<unknown> {
  const rows = await session.sql(`SELECT ${expr} AS v`).collect();
  return rows[0]!.v;
}
/** Runs `body` with one setting changed on the (shared) session, then puts it back. */
async function withConf(key: string, v: string, body: () => Promise<void>): Promise<void> {
  const before = session.conf.get(key);
  session.conf.set(key, v);
  try {
    await body();
  } finally {
    session.conf.set(key, before);
  }
}
/** Each expression's value as Spark's CAST(... AS STRING) text (dates, timestamps, arrays). */
async function texts(exprs: readonly string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const e of exprs) out.push((await value(`CAST(${e} AS STRING)`)) as string | null);
  return out;
}

describe("if and signum", () => {
  it("if picks a branch lazily, NULL condition takes the else branch, a non-BOOLEAN condition is refused", async () => {
    assert.equal(await value("if(true, 1, 2)"), 1);
    assert.equal(await value("if(null, 1, 2)"), 2);
    assert.equal(await value("if(1 > 2, 'a', null)"), null);
    assert.equal(await value("if(true, 1, 1 / 0)"), 1); // the other branch would raise DIVIDE_BY_ZERO
    await assert.rejects(value("if(1, 2, 3)"), /DATATYPE_MISMATCH\.UNEXPECTED_INPUT_TYPE.*first parameter requires the "BOOLEAN" type/);
    assert.deepEqual(session.sql("SELECT if(true, 1, 2), signum(1), sign(1)").columns, ["(IF(true, 1, 2))", "SIGNUM(1)", "sign(1)"]);
  });

  it("signum / sign return a DOUBLE sign, NULL for NULL; malformed text raises under ANSI", async () => {
    assert.equal(await value("signum(-3.5)"), -1);
    assert.equal(await value("signum(0)"), 0);
    assert.equal(await value("sign(5)"), 1);
    assert.equal(await value("signum(null)"), null);
    assert.equal(await value("signum(cast(null as int))"), null);
    await assert.rejects(value("signum('x')"), /CAST_INVALID_INPUT/);
  });
});

describe("calendar functions", () => {
  it("add_months clamps to the month end (leap years) and takes timestamps as dates", async () => {
    assert.deepEqual(
      await texts([
        "add_months('2024-01-31', 1)",
        "add_months(date'2024-03-31', -1)",
        "add_months(date'2023-01-31', 1)",
        "add_months('2024-02-29', 12)",
        "add_months('2024-02-29', -12)",
        "add_months(timestamp'2024-01-31 10:00:00', 1)",
        "add_months(null, 1)",
        "add_months('2024-01-31', null)",
      ]),
      ["2024-02-29", "2024-02-29", "2023-02-28", "2025-02-28", "2023-02-28", "2024-02-29", null, null],
    );
  });

  it("months_between: whole months on equal days or both month ends, else 31-day months rounded to 8 digits", async () => {
    assert.equal(await value("months_between('1997-02-28 10:30:00', '1996-10-30')"), 3.94959677);
    assert.equal(await value("months_between('1997-02-28 10:30:00', '1996-10-30', false)"), 3.9495967741935485);
    assert.equal(await value("months_between('2024-02-29', '2024-01-31')"), 1);
    assert.equal(await value("months_between('2024-03-31', '2024-02-29')"), 1);
    assert.equal(await value("months_between('2024-03-30', '2024-02-29')"), 1.03225806);
    assert.equal(await value("months_between('2024-01-15', '2024-03-15')"), -2);
    assert.equal(await value("months_between(date'2024-01-15', date'2024-03-14')"), -1.96774194);
    assert.equal(await value("months_between(timestamp'2024-03-31 23:00:00', timestamp'2024-02-29 01:00:00')"), 1);
    assert.equal(await value("months_between(null, '2024-01-01')"), null);
    assert.deepEqual(session.sql("SELECT months_between('2024-01-01', '2024-02-01')").columns, [
      "months_between(2024-01-01, 2024-02-01, true)",
    ]);
  });

  it("last_day and weekofyear (ISO weeks: the week of the year's first Thursday is week 1)", async () => {
    assert.deepEqual(
      await texts(["last_day('2024-02-10')", "last_day('2023-02-10')", "last_day(timestamp'2024-12-03 10:00:00')", "last_day(null)"]),
      ["2024-02-29", "2023-02-28", "2024-12-31", null],
    );
    const weeks = [];
    for (const d of ["2024-01-01", "2021-01-03", "2020-12-31", "2027-01-01"]) weeks.push(await value(`weekofyear('${d}')`));
    assert.deepEqual(weeks, [1, 53, 53, 53]);
    assert.equal(await value("weekofyear(null)"), null);
  });

  it("trunc keeps dates at WEEK and above; other or unknown formats give NULL", async () => {
    const d = "'2024-05-17'";
    assert.deepEqual(
      await texts(
        ["YEAR", "yyyy", "YY", "QUARTER", "MONTH", "MM", "MON", "WEEK", "DAY", "DD", "HOUR", "bogus"].map((f) => `trunc(${d}, '${f}')`),
      ),
      [
        "2024-01-01",
        "2024-01-01",
        "2024-01-01",
        "2024-04-01",
        "2024-05-01",
        "2024-05-01",
        "2024-05-01",
        "2024-05-13",
        null,
        null,
        null,
        null,
      ],
    );
    assert.deepEqual(await texts(["trunc(null, 'YEAR')", "trunc('2024-05-17', null)", "trunc(timestamp'2024-05-17 10:11:12', 'MM')"]), [
      null,
      null,
      "2024-05-01",
    ]);
  });

  it("date_trunc cuts timestamps at every unit, in the session time zone for HOUR and above", async () => {
    const ts = "timestamp'2024-05-17 10:11:12.345678'";
    const units = [
      "YEAR",
      "yyyy",
      "QUARTER",
      "MONTH",
      "MON",
      "WEEK",
      "DAY",
      "DD",
      "HOUR",
      "MINUTE",
      "SECOND",
      "MILLISECOND",
      "MICROSECOND",
      "bogus",
    ];
    assert.deepEqual(await texts(units.map((u) => `date_trunc('${u}', ${ts})`)), [
      "2024-01-01 00:00:00",
      "2024-01-01 00:00:00",
      "2024-04-01 00:00:00",
      "2024-05-01 00:00:00",
      "2024-05-01 00:00:00",
      "2024-05-13 00:00:00",
      "2024-05-17 00:00:00",
      "2024-05-17 00:00:00",
      "2024-05-17 10:00:00",
      "2024-05-17 10:11:00",
      "2024-05-17 10:11:12",
      "2024-05-17 10:11:12.345",
      "2024-05-17 10:11:12.345678",
      null,
    ]);
    assert.deepEqual(
      await texts([
        "date_trunc('YEAR', date'2024-05-17')",
        "date_trunc('DAY', timestamp'1969-12-31 10:11:12')",
        "date_trunc(null, current_timestamp())",
      ]),
      ["2024-01-01 00:00:00", "1969-12-31 00:00:00", null],
    );
    await withConf("spark.sql.session.timeZone", "America/Los_Angeles", async () => {
      // 2024-03-10 is the DST change in Los Angeles; the day starts at 08:00 UTC.
      const day = (await value("date_trunc('DAY', timestamp'2024-03-10 10:30:00')")) as Date;
      assert.equal(day.toISOString(), "2024-03-10T08:00:00.000Z");
      const hour = (await value("date_trunc('HOUR', timestamp'2024-03-10 10:30:00')")) as Date;
      assert.equal(hour.toISOString(), "2024-03-10T17:00:00.000Z");
      assert.equal(await value("months_between(timestamp'2024-03-15 12:00:00', timestamp'2024-02-14 01:00:00')"), 1.04704301);
    });
  });
});

describe("arrays and maps", () => {
  it("array_join skips NULL elements or replaces them; a NULL argument gives NULL", async () => {
    assert.equal(await value("array_join(array('a','b',null,'c'), ',')"), "a,b,c");
    assert.equal(await value("array_join(array('a','b',null,'c'), ',', 'X')"), "a,b,X,c");
    assert.equal(await value("array_join(array(1,2,3), '-')"), "1-2-3");
    assert.equal(await value("array_join(array(1.5, 2.0), ',')"), "1.5,2.0");
    assert.equal(await value("array_join(array(true, null), '|')"), "true");
    assert.equal(await value("array_join(array(), ',')"), "");
    for (const e of ["array_join(null, ',')", "array_join(array('a'), null)", "array_join(array('a', null), ',', null)"]) {
      assert.equal(await value(e), null, e);
    }
  });

  it("array_distinct keeps first occurrences (NaN = NaN, -0.0 = 0.0); array_max/min skip NULLs, NaN is largest", async () => {
    assert.deepEqual(await value("array_distinct(array(1,2,2,null,3,null,1))"), [1, 2, null, 3]);
    assert.deepEqual(await value("array_distinct(array(cast('NaN' as double), cast('NaN' as double), 0.0D, -0.0D))"), [Number.NaN, 0]);
    assert.equal(await value("array_distinct(null)"), null);
    assert.equal(await value("array_max(array(1,5,null,3))"), 5);
    assert.equal(await value("array_min(array(1,5,null,3))"), 1);
    assert.equal(await value("array_max(array('b','a','c'))"), "c");
    assert.ok(Number.isNaN(await value("array_max(array(1.0D, cast('NaN' as double)))")));
    assert.equal(await value("array_min(array(1.0D, cast('NaN' as double)))"), 1);
    for (const e of ["array_max(array())", "array_max(array(null))", "array_max(null)"]) assert.equal(await value(e), null, e);
  });

  it("map builds a MAP; NULL and duplicate keys raise; map_keys / map_values; size(NULL) is NULL", async () => {
    assert.deepEqual(
      await value("map(1, 'a', 2, 'b')"),
      new Map([
        [1, "a"],
        [2, "b"],
      ]),
    );
    assert.deepEqual(await value("map_keys(map(1, 'a', 2, 'b'))"), [1, 2]);
    assert.deepEqual(await value("map_values(map('a', 1, 'b', null))"), [1, null]);
    assert.deepEqual(await value("map()"), new Map());
    assert.equal(await value("map_keys(null)"), null);
    await assert.rejects(value("map(1, 'a', 1, 'b')"), /DUPLICATED_MAP_KEY\] Duplicate map key 1 was found/);
    await assert.rejects(value("map(null, 'a')"), /NULL_MAP_KEY/);
    await assert.rejects(value("map(1, 'a', 2)"), /WRONG_NUM_ARGS.*requires 2n \(n > 0\) parameters but the actual number is 3/);
    assert.equal(await value("size(null)"), null);
    assert.equal(await value("size(cast(null as array<int>))"), null);
    assert.equal(await value("size(map(1, 2))"), 1);
  });
});

describe("get_json_object", () => {
  const cases: [string, string, string | null][] = [
    ['{"a":{"b":[1,2,{"c":"x"}]}}', "$.a", '{"b":[1,2,{"c":"x"}]}'],
    ['{"a":{"b":[1,2,{"c":"x"}]}}', "$.a.b[2].c", "x"],
    ['{"a":{"b":[1,2,{"c":"x"}]}}', "$.a.b[5]", null],
    ['{"a":{"b":[1,2,{"c":"x"}]}}', "$.a.b[*]", '[1,2,{"c":"x"}]'],
    ['{"a":[{"c":"x"},{"c":"y"}]}', "$.a[*].c", '["x","y"]'],
    ['{"a":[{"c":"x"},{"d":1}]}', "$.a[*].c", '"x"'],
    ['{"a":[[1,2],[3]]}', "$.a[*][*]", "[1,2,3]"],
    ['{"a":[{"b":[1,2]},{"b":3}]}', "$.a[*].b", "[[1,2],3]"],
    ['{"a":[]}', "$.a[*]", null],
    ['{"a":[null]}', "$.a[*]", "null"],
    ['{"a b":1}', "$['a b']", "1"],
    ['{"a":"he\\"llo"}', "$.a", 'he"llo'],
    ['{"a":null}', "$.a", null],
    ['{"a":1.50}', "$.a", "1.5"],
    ['{"a":1e3}', "$.a", "1000.0"],
    ['{"a":-0}', "$.a", "0"],
    ['{"a":  { "x" : 1 , "y":[ 1.50, 2 ] } }', "$.a", '{"x":1,"y":[1.5,2]}'],
    ["[1,2]", "$[1]", "2"],
    ['{"a":1,"a":2}', "$.a", "1"],
    ["{'a':1}", "$.a", "1"],
    ['{"a":1} trailing', "$.a", "1"],
    ['{"a":1', "$.a", null],
    ["not json", "$.a", null],
    ['{"A":1}', "$.a", null],
    ['{"a":1}', "a", null],
    ['{"a":1}', "$..a", null],
    ['{"a":{"b":1}}', '$.a["b"]', null],
    ['{"a":[1,2]}', "$.a[-1]", null],
  ];
  it("follows Spark's JsonPath subset and output rules", async () => {
    const df = session.createDataFrame(
      cases.map(([json, path]) => ({ json, path })),
      "json STRING, path STRING",
    );
    const rows = await df.select(F.expr("get_json_object(json, path)").alias("v")).collect();
    assert.deepEqual(
      rows.map((r) => r.v),
      cases.map((c) => c[2]),
    );
    const one = await session
      .createDataFrame([{ j: '{"k":[true]}' }], "j STRING")
      .select(F.get_json_object("j", "$.k[0]").alias("v"))
      .collect();
    assert.equal(one[0]!.v, "true");
    assert.equal(await value("get_json_object(null, '$.a')"), null);
  });
});

describe("to_date / to_timestamp under ANSI (Spark 4's default)", () => {
  it("without a format is CAST(s AS DATE): CAST_INVALID_INPUT for impossible dates; lenient forms parse", async () => {
    await assert.rejects(
      value("to_date('2024-02-30')"),
      /\[CAST_INVALID_INPUT\] The value '2024-02-30' of the type "STRING" cannot be cast to "DATE"/,
    );
    await assert.rejects(value("to_date('2024-13-01')"), /CAST_INVALID_INPUT/);
    assert.deepEqual(
      await texts([
        "to_date('2024-02-29')",
        "to_date('2024-1-5')",
        "to_date('2024-01-05 10:00:00')",
        "to_date(' 2024-01-05 ')",
        "to_date('2024')",
        "to_date(null)",
      ]),
      ["2024-02-29", "2024-01-05", "2024-01-05", "2024-01-05", "2024-01-01", null],
    );
  });

  it("with a format raises CANNOT_PARSE_TIMESTAMP; try_to_date and ANSI off give NULL", async () => {
    await assert.rejects(value("to_date('2024-02-30', 'yyyy-MM-dd')"), /\[CANNOT_PARSE_TIMESTAMP\] Text '2024-02-30' could not be parsed/);
    await assert.rejects(value("to_date('31/02/2024', 'dd/MM/yyyy')"), /CANNOT_PARSE_TIMESTAMP/);
    assert.deepEqual(await texts(["to_date('05/01/2024', 'dd/MM/yyyy')", "try_to_date('2024-02-30')", "try_to_date('x', 'yyyy-MM-dd')"]), [
      "2024-01-05",
      null,
      null,
    ]);
    await withConf("spark.sql.ansi.enabled", "false", async () => {
      assert.equal(await value("to_date('2024-02-30')"), null);
      assert.equal(await value("to_date('2024-02-30', 'yyyy-MM-dd')"), null);
      assert.equal(await value("to_timestamp('bogus')"), null);
      assert.equal(await value("unix_timestamp('bogus')"), null);
    });
  });

  it("to_timestamp and unix_timestamp raise the same way; try_to_timestamp gives NULL", async () => {
    await assert.rejects(
      value("to_timestamp('2024-02-30 10:00:00')"),
      /\[CAST_INVALID_INPUT\] The value '2024-02-30 10:00:00' of the type "STRING" cannot be cast to "TIMESTAMP"/,
    );
    await assert.rejects(value("to_timestamp('bogus', 'yyyy-MM-dd')"), /\[CANNOT_PARSE_TIMESTAMP\] Text 'bogus'.*try_to_timestamp/);
    await assert.rejects(value("unix_timestamp('bogus')"), /CANNOT_PARSE_TIMESTAMP/);
    await assert.rejects(value("unix_timestamp('bogus', 'yyyy-MM-dd')"), /CANNOT_PARSE_TIMESTAMP/);
    assert.equal(await value("try_to_timestamp('bogus')"), null);
    assert.equal(((await value("to_timestamp(' 2024-01-01 ')")) as Date).toISOString(), "2024-01-01T00:00:00.000Z");
  });
});

describe("F wrappers", () => {
  it("name and compute as PySpark's functions", async () => {
    const df = session.createDataFrame([{ d: "2024-01-31", n: 2 }], "d STRING, n INT");
    const out = df.select(
      F.add_months("d", 1),
      F.add_months("d", "n"),
      F.months_between("d", F.lit("2023-12-31")),
      F.create_map("d", "n"),
      F.signum("n"),
      F.array_join(F.array("d", F.lit(null)), "/", "-"),
      F.date_trunc("month", "d"),
      F.trunc("d", "year"),
      F.last_day("d"),
      F.weekofyear("d"),
      F.array_max(F.array("n", F.lit(7))),
      F.array_min(F.array("n", F.lit(7))),
      F.array_distinct(F.array("n", "n")),
      F.map_keys(F.create_map("d", "n")),
      F.map_values(F.create_map(["d", "n"])),
      F.try_to_date(F.lit("2024-02-30")),
    );
    assert.deepEqual(out.columns.slice(0, 5), [
      "add_months(d, 1)",
      "add_months(d, n)",
      "months_between(d, 2023-12-31, true)",
      "map(d, n)",
      "SIGNUM(n)",
    ]);
    const r = Object.values((await out.collect())[0]!);
    assert.deepEqual(r.slice(2, 6), [1, new Map([["2024-01-31", 2]]), 1, "2024-01-31/-"]);
    assert.deepEqual(
      r.slice(0, 2).map((d) => (d as Date).toISOString().slice(0, 10)),
      ["2024-02-29", "2024-03-31"],
    );
    assert.equal((r[6] as Date).toISOString(), "2024-01-01T00:00:00.000Z");
    assert.deepEqual(r.slice(9), [5, 7, 2, [2], ["2024-01-31"], [2], null]);
  });
});
