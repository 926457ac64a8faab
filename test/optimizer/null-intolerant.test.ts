/**
 * InferFiltersFromConstraints: the `isnotnull(c)` tests Spark adds in front of a filter, per
 * expression form. The expectations are what PySpark 4.3's optimized plan shows for
 * `df.filter(<condition>)` over `k STRING, v INT, s STRING, d DATE, t TIMESTAMP, x DOUBLE`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { optimize } from "../../src/optimizer/optimizer.js";
import { conjuncts } from "../../src/plan/expressions.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const df = session.memoryStream("k STRING, v INT, s STRING, d DATE, t TIMESTAMP, x DOUBLE").toDF();

/** The columns the optimized filter tests with isnotnull(column), sorted. */
function inferred(condition: string): string[] {
  const plan = optimize(df.filter(condition).plan);
  assert.equal(plan.kind, "filter");
  const cols = conjuncts(plan.condition).flatMap((c) =>
    c.kind === "call" && c.name === "isnotnull" && c.args[0]!.kind === "attribute" ? [c.args[0]!.name] : [],
  );
  return [...new Set(cols)].sort();
}

const SPARK: [string, string[]][] = [
  ["isnotnull(length(k))", ["k"]],
  ["isnotnull(date_add(d, 1))", ["d"]],
  ["date_add(d, 1) > date'2024-01-01'", ["d"]],
  ["date_add(d, v) > date'2024-01-01'", ["d", "v"]],
  ["date_sub(d, 1) > date'2024-01-01'", ["d"]],
  ["datediff(d, date'2024-01-01') > 1", ["d"]],
  ["add_months(d, 1) > date'2024-01-01'", ["d"]],
  ["to_date(s) > date'2024-01-01'", ["s"]],
  ["to_date(s, 'yyyy-MM-dd') > date'2024-01-01'", []],
  ["to_timestamp(s) > t", ["s", "t"]],
  ["dayofyear(d) > 1", ["d"]],
  ["weekofyear(d) > 1", ["d"]],
  ["quarter(d) > 1", ["d"]],
  ["last_day(d) > date'2024-01-01'", ["d"]],
  ["date_format(t, 'yyyy') > 'a'", ["t"]],
  ["from_unixtime(v) > 'a'", ["v"]],
  ["timestamp_seconds(v) > t", ["t", "v"]],
  ["initcap(s) > 'a'", ["s"]],
  ["char_length(s) > 1", ["s"]],
  ["regexp_replace(s, 'a', 'b') > 'a'", ["s"]],
  ["sqrt(x) > 1", ["x"]],
  ["ceiling(x) > 1", ["x"]],
  ["power(x, 2) > 1", ["x"]],
  ["pmod(v, 2) > 0", ["v"]],
  ["v & 1 > 0", ["v"]],
  // Spark infers nothing through these
  ["trim(s) > 'a'", []],
  ["concat(s, k) > 'a'", []],
  ["round(x) > 1", []],
  ["nvl(s, 'a') > 'a'", []],
  ["unix_timestamp(t) > 1", []],
  ["s in ('a', 'b')", []],
];

describe("InferFiltersFromConstraints: null-intolerant expressions as in Spark", () => {
  for (const [condition, columns] of SPARK) {
    it(`${condition} -> isnotnull(${columns.join(", ")})`, () => assert.deepEqual(inferred(condition), columns));
  }
});
