/**
 * Aggregates try_sum, try_avg, regr_* (count, avgx, avgy, slope, intercept, r2, sxx, syy, sxy),
 * percentile_approx / approx_percentile and listagg / string_agg, in SQL and as F.*. Every
 * expected value, type, error class and column name below was checked against PySpark 4.3
 * (local[1], session time zone UTC): the tables were recorded from PySpark's output.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

/** [query, simpleString type, the rows' values as text joined by |] as PySpark 4.3 gives them. */
const AGG_VALUES: readonly (readonly [string, string, string | null])[] = [
  ["Q:SELECT try_sum(x) FROM VALUES (1),(2),(null) AS t(x)", "bigint", "3"],
  ["Q:SELECT try_sum(x) FROM VALUES (9223372036854775807L),(1L) AS t(x)", "bigint", "NULL"],
  ["Q:SELECT try_sum(x) FROM VALUES (2147483647),(1) AS t(x)", "bigint", "2147483648"],
  ["Q:SELECT try_sum(x) FROM VALUES (1.5D),(2D) AS t(x)", "double", "3.5"],
  ["Q:SELECT try_sum(x) FROM VALUES (1.5),(2.25) AS t(x)", "decimal(13,2)", "3.75"],
  ["Q:SELECT try_sum(x) FROM VALUES (cast(null as int)) AS t(x)", "bigint", "NULL"],
  ["Q:SELECT try_avg(x) FROM VALUES (1),(2),(null) AS t(x)", "double", "1.5"],
  ["Q:SELECT try_avg(x) FROM VALUES (1.5),(2.25) AS t(x)", "decimal(7,6)", "1.875000"],
  ["Q:SELECT try_sum(x) FROM VALUES ('1'),('2') AS t(x)", "double", "3.0"],
  ["Q:SELECT regr_count(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "bigint", "3"],
  ["Q:SELECT regr_avgx(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "double", "4.333333333333333"],
  ["Q:SELECT regr_avgy(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "double", "2.0"],
  ["Q:SELECT regr_slope(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "double", "0.3947368421052631"],
  ["Q:SELECT regr_intercept(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "double", "0.28947368421052655"],
  ["Q:SELECT regr_r2(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "double", "0.9868421052631576"],
  ["Q:SELECT regr_sxx(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "double", "12.666666666666668"],
  ["Q:SELECT regr_syy(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "double", "2.0"],
  ["Q:SELECT regr_sxy(y, x) FROM VALUES (1, 2), (2, 4), (3, 7), (null, 1), (4, null) AS t(y, x)", "double", "5.0"],
  ["Q:SELECT regr_slope(y, x) FROM VALUES (1, 2) AS t(y, x)", "double", "NULL"],
  ["Q:SELECT regr_r2(y, x) FROM VALUES (1, 2), (2, 2) AS t(y, x)", "double", "NULL"],
  ["Q:SELECT regr_slope(y, x) FROM VALUES (1, 2), (2, 2) AS t(y, x)", "double", "NULL"],
  ["Q:SELECT regr_avgx(y, x) FROM VALUES (1, 2.5), (2, 2) AS t(y, x)", "decimal(15,5)", "2.25000"],
  ["Q:SELECT percentile_approx(x, 0.5) FROM VALUES (1),(2),(3),(4),(null) AS t(x)", "int", "2"],
  ["Q:SELECT percentile_approx(x, 0.25) FROM VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10) AS t(x)", "int", "3"],
  [
    "Q:SELECT percentile_approx(x, array(0.1, 0.5, 0.9)) FROM VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10) AS t(x)",
    "array<int>",
    "[1, 5, 9]",
  ],
  ["Q:SELECT approx_percentile(x, 0.5, 100) FROM VALUES (1.5D),(2.5D),(10D) AS t(x)", "double", "2.5"],
  ["Q:SELECT percentile_approx(x, 0.5) FROM VALUES (1.5),(2.5),(10.0) AS t(x)", "decimal(3,1)", "2.5"],
  ["Q:SELECT percentile_approx(x, 0.5) FROM VALUES (cast(null as int)) AS t(x)", "int", "NULL"],
  ["Q:SELECT percentile_approx(x, 0.5) FROM VALUES (date'2024-01-01'),(date'2024-01-03'),(date'2024-01-02') AS t(x)", "date", "2024-01-02"],
  ["Q:SELECT string_agg(x) FROM VALUES ('a'),('b'),(null),('c') AS t(x)", "string", "abc"],
  ["Q:SELECT string_agg(x, '-') FROM VALUES ('a'),('b'),(null),('c') AS t(x)", "string", "a-b-c"],
  ["Q:SELECT listagg(x, ', ') FROM VALUES ('a'),('b'),('a') AS t(x)", "string", "a, b, a"],
  ["Q:SELECT listagg(x) FROM VALUES (cast(null as string)) AS t(x)", "string", "NULL"],
  ["Q:SELECT listagg(x, ',') FROM VALUES (1),(2) AS t(x)", "string", "1,2"],
];
const AGG_ERRORS: readonly (readonly [string, string, string])[] = [
  [
    "Q:SELECT try_sum('a') FROM VALUES (1) AS t(x)",
    "CAST_INVALID_INPUT",
    'The value \'a\' of the type "STRING" cannot be cast to "DOUBLE" because it is malformed. Cor',
  ],
  [
    "Q:SELECT percentile_approx(x, 1.5) FROM VALUES (1) AS t(x)",
    "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
    'Cannot resolve "percentile_approx(x, 1.5, 10000)" due to data type mismatch: The percentag',
  ],
];

async function typeAndText(query: string): Promise<[string, string]> {
  const df = session.sql(query);
  const name = df.columns[0]!.replaceAll("`", "``");
  const rows = await session.sql(`SELECT CAST(\`${name}\` AS STRING) AS v FROM (${query}) t`).collect();
  return [simpleString(df.schema.fields[0]!.type), rows.map((r) => r.v ?? "NULL").join("|")];
}

describe("aggregates agree with PySpark 4.3", () => {
  for (const [expr, type, text] of AGG_VALUES) {
    it(expr, async () => {
      assert.deepEqual(await typeAndText(expr.slice(2)), [type, text]);
    });
  }
  for (const [expr, errorClass, message] of AGG_ERRORS) {
    it(`${expr} raises ${errorClass}`, async () => {
      await assert.rejects(typeAndText(expr.slice(2)), (e: Error & { errorClass?: string }) => {
        assert.equal(e.errorClass, errorClass);
        assert.ok(e.message.includes(message), `${e.message}\n  should include\n${message}`);
        return true;
      });
    });
  }
  it("column names show Spark's defaults", () => {
    const name = (q: string) => session.sql(q).columns[0];
    assert.equal(name("SELECT percentile_approx(x, 0.5) FROM VALUES (1) AS t(x)"), "percentile_approx(x, 0.5, 10000)");
    assert.equal(name("SELECT string_agg(x) FROM VALUES ('a') AS t(x)"), "string_agg(x, NULL)");
    assert.equal(name("SELECT listagg(x, '-') FROM VALUES ('a') AS t(x)"), "listagg(x, -)");
  });
  it("try_sum of BIGINT overflows to NULL in one group and keeps the other", async () => {
    const rows = await session
      .sql("SELECT k, try_sum(v) AS s FROM VALUES (1, 9223372036854775807L), (1, 1L), (2, 5L), (2, -7L) AS t(k, v) GROUP BY k ORDER BY k")
      .collect();
    assert.deepEqual(
      rows.map((r) => r.s),
      [null, -2],
    );
  });
});

describe("mode", () => {
  it("is the most frequent non-NULL value, NULL for none; deterministic ties pick the smallest (PySpark 4.3)", async () => {
    assert.deepEqual(await typeAndText("SELECT mode(x) FROM VALUES (1),(2),(2),(3),(null),(null),(null) AS t(x)"), ["int", "2"]);
    assert.deepEqual(await typeAndText("SELECT mode(x) FROM VALUES (cast(null as int)) AS t(x)"), ["int", "NULL"]);
    assert.deepEqual(await typeAndText("SELECT mode(x, true) FROM VALUES (3),(1),(1),(3) AS t(x)"), ["int", "1"]);
    assert.equal(session.sql("SELECT mode(x, true) FROM VALUES (3) AS t(x)").columns[0], "mode() WITHIN GROUP (ORDER BY x DESC)");
    assert.deepEqual(await session.sql("SELECT 1 AS x").agg(F.mode("x")).collect(), [{ "mode(x)": 1 }]);
  });
});

describe("F forms", () => {
  it("name and compute as PySpark's", async () => {
    const df = session.sql("SELECT * FROM VALUES (1, 2, 'a'), (2, 4, 'b'), (3, 7, 'c'), (4, NULL, NULL) AS t(y, x, s)");
    const out = df.agg(
      F.percentile_approx("y", 0.5),
      F.percentile_approx("y", [0.25, 0.75], 100),
      F.listagg("s", "/"),
      F.string_agg("s"),
      F.try_sum("y"),
      F.try_avg("y"),
      F.regr_slope("y", "x"),
      F.regr_count("y", "x"),
    );
    assert.deepEqual(out.columns, [
      "percentile_approx(y, 0.5, 10000)",
      "percentile_approx(y, array(0.25, 0.75), 100)",
      "listagg(s, /)",
      "string_agg(s, NULL)",
      "try_sum(y)",
      "try_avg(y)",
      "regr_slope(y, x)",
      "regr_count(y, x)",
    ]);
    const [row] = await out.collect();
    assert.deepEqual(Object.values(row!), [2, [1, 3], "a/b/c", "abc", 10, 2.5, 0.3947368421052631, 3]);
  });
});
