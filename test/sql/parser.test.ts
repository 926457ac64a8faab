/** parseExpression: literals, names, operators and precedence, special forms, errors. */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  alias,
  type Call,
  call,
  caseWhen,
  cast,
  columnRef,
  type Expr,
  literal,
  sortOrder,
  star,
  typedLiteralCast,
  windowExpr,
} from "../../src/plan/expressions.js";
import { exprToSql } from "../../src/plan/sql-text.js";
import { parseExpression } from "../../src/sql/index.js";
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  ByteType,
  DateType,
  type DayTimeField,
  DayTimeIntervalOf,
  DoubleType,
  FloatType,
  IntegerType,
  IntervalType,
  LongType,
  NullType,
  ShortType,
  StringType,
  TimestampType,
} from "../../src/types/datatypes.js";
import { DecimalOf } from "../../src/types/decimal.js";
import { parseFails, same } from "./helpers.js";

const col = (...parts: string[]) => columnRef(parts);
const int = (v: number) => literal(v, IntegerType);
const str = (v: string) => literal(v, StringType);
const op = (name: string, ...args: Expr[]) => call(name, args);
const expectExpr = (text: string, expected: Expr) => same(parseExpression(text), expected);

describe("literals", () => {
  it("types integers by range and suffix", () => {
    expectExpr("42", int(42));
    expectExpr("2147483647", int(2147483647));
    expectExpr("2147483648", literal(2147483648, LongType));
    expectExpr("-2147483648", int(-2147483648));
    expectExpr("-2147483649", literal(-2147483649, LongType));
    expectExpr("10L", literal(10, LongType));
    expectExpr("10l", literal(10, LongType));
    expectExpr("7S", literal(7, ShortType));
    expectExpr("7Y", literal(7, ByteType));
    expectExpr("99999999999999999999", literal(99999999999999999999n, DecimalOf(20, 0)));
  });
  it("reads fractions as DECIMAL and exponents as DOUBLE, as Spark", () => {
    expectExpr("1.5", literal(15, DecimalOf(2, 1)));
    expectExpr(".5", literal(5, DecimalOf(1, 1)));
    expectExpr("0.05", literal(5, DecimalOf(2, 2)));
    expectExpr("1e3", literal(1000, DoubleType));
    expectExpr("2.5E-1", literal(0.25, DoubleType));
    expectExpr("1.5D", literal(1.5, DoubleType));
    expectExpr("3F", literal(3, FloatType));
    expectExpr("0.1F", literal(Math.fround(0.1), FloatType));
    expectExpr("1.25BD", literal(125, DecimalOf(3, 2)));
    expectExpr("-1.5", literal(-15, DecimalOf(2, 1)));
  });
  it("refuses a decimal literal beyond 38 digits", () => {
    parseFails(
      () => parseExpression("123456789012345678901234567890123456789.5"),
      "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision 40 exceeds max precision 38.",
    );
  });
  it("rejects out-of-range suffixed integers", () => {
    parseFails(() => parseExpression("128Y"), "INVALID_NUMERIC_LITERAL_RANGE", 0);
    parseFails(() => parseExpression("9223372036854775808L"), "outside the valid range for bigint");
    expectExpr("-9223372036854775808L", literal(-(2n ** 63n), LongType)); // exact: a bigint beyond ±2^53 − 1
  });
  it("reads strings with either quote and backslash escapes", () => {
    expectExpr("'abc'", str("abc"));
    expectExpr('"abc"', str("abc"));
    expectExpr(String.raw`'it\'s'`, str("it's"));
    expectExpr(String.raw`"say \"hi\""`, str('say "hi"'));
    expectExpr(String.raw`'a\tb\nc\\d'`, str("a\tb\nc\\d"));
    expectExpr(String.raw`'\u0041\101'`, str("AA"));
    expectExpr(String.raw`'100\%'`, str("100\\%"));
    expectExpr("'a' 'b' \"c\"", str("abc"));
    // a doubled quote inside a literal is one quote (Spark 4), adjacent literals still concatenate
    expectExpr("'it''s'", str("it's"));
    expectExpr("'{''a''}'", str("{'a'}"));
    expectExpr('"x""y"', str('x"y'));
    expectExpr("''''", str("'"));
    expectExpr("'a' ''", str("a"));
    expectExpr("r'\\d+'", str("\\d+"));
  });
  it("reads booleans, NULL and binary", () => {
    expectExpr("TRUE", literal(true, BooleanType));
    expectExpr("false", literal(false, BooleanType));
    expectExpr("NULL", literal(null, NullType));
    expectExpr("X'0aFF'", literal(new Uint8Array([10, 255]), BinaryType));
  });
  it("keeps TIMESTAMP and DATE literals as casts of strings, printed as Spark prints the literal", () => {
    expectExpr("TIMESTAMP '2026-01-01 00:00:00'", typedLiteralCast(str("2026-01-01 00:00:00"), TimestampType));
    expectExpr("timestamp_ltz '2026-01-01'", typedLiteralCast(str("2026-01-01"), TimestampType));
    expectExpr("DATE '2026-01-31'", typedLiteralCast(str("2026-01-31"), DateType));
    assert.equal(exprToSql(parseExpression("DATE '2026-1-2'")), "DATE '2026-01-02'");
    assert.equal(exprToSql(parseExpression("TIMESTAMP '2026-01-01'")), "TIMESTAMP '2026-01-01 00:00:00'");
    assert.equal(exprToSql(parseExpression("TIMESTAMP '2026-01-01 10:11:12.500'")), "TIMESTAMP '2026-01-01 10:11:12.5'");
    // a zone makes the wall time the session's: printed as the cast
    assert.equal(exprToSql(parseExpression("TIMESTAMP '2026-01-01T10:00:00Z'")), "CAST(2026-01-01T10:00:00Z AS TIMESTAMP)");
    expectExpr("date", col("date"));
  });
});

describe("intervals", () => {
  // Spark's DayTimeIntervalType fields, from how the literal is written
  const iv = (micros: number, start: DayTimeField = "DAY", end: DayTimeField = start) =>
    literal(micros, start === "DAY" && end === "SECOND" ? IntervalType : DayTimeIntervalOf(start, end));
  const MIN = 60_000_000;
  it("reads unit forms", () => {
    expectExpr("INTERVAL 5 MINUTES", iv(5 * MIN, "MINUTE"));
    expectExpr("interval '5' minute", iv(5 * MIN, "MINUTE"));
    expectExpr("INTERVAL 1 HOUR 30 MINUTES", iv(90 * MIN, "HOUR", "MINUTE"));
    expectExpr("INTERVAL 2 DAYS", iv(2 * 86_400_000_000, "DAY"));
    expectExpr("INTERVAL 1 WEEK", iv(7 * 86_400_000_000, "DAY"));
    expectExpr("INTERVAL 1.5 SECONDS", iv(1_500_000, "SECOND"));
    expectExpr("INTERVAL 250 MILLISECONDS 7 MICROSECONDS", iv(250_007, "SECOND"));
    expectExpr("INTERVAL -5 MINUTES", iv(-5 * MIN, "MINUTE"));
    expectExpr("INTERVAL '-5' MINUTE", iv(-5 * MIN, "MINUTE"));
  });
  it("reads whole-string and unit-to-unit forms", () => {
    expectExpr("INTERVAL '10 seconds'", iv(10_000_000, "SECOND"));
    expectExpr("INTERVAL '1 minute 30 seconds'", iv(90_000_000, "MINUTE", "SECOND"));
    expectExpr("INTERVAL '10:30' HOUR TO MINUTE", iv(630 * MIN, "HOUR", "MINUTE"));
    expectExpr("INTERVAL '1 02:03:04.5' DAY TO SECOND", iv(86_400_000_000 + 7_384_500_000, "DAY", "SECOND"));
    expectExpr("INTERVAL '-00:01' HOUR TO MINUTE", iv(-MIN, "HOUR", "MINUTE"));
  });
  it("folds a negated interval", () => {
    expectExpr("- INTERVAL 5 MINUTES", iv(-5 * MIN, "MINUTE"));
  });
  it("works inside arithmetic", () => {
    expectExpr("ts - INTERVAL 10 SECONDS", op("-", col("ts"), iv(10_000_000, "SECOND")));
    expectExpr("a.ts >= b.ts + interval 5 minutes", op(">=", col("a", "ts"), op("+", col("b", "ts"), iv(5 * MIN, "MINUTE"))));
  });
  it("reads year-month intervals as a marker for + and -, refuses mixed ones and bad values", () => {
    const ym = (m: number) => call("__year_month_interval", [int(m)]);
    expectExpr("INTERVAL 1 MONTH", ym(1));
    expectExpr("INTERVAL 2 YEARS", ym(24));
    expectExpr("INTERVAL '1-2' YEAR TO MONTH", ym(14));
    expectExpr("INTERVAL '1 year'", ym(12));
    parseFails(() => parseExpression("INTERVAL 1 MONTH 2 DAYS"), "mixing years or months with days or times", 9);
    parseFails(() => parseExpression("INTERVAL '1-12' YEAR TO MONTH"), 'typed literal "INTERVAL" is invalid');
    parseFails(() => parseExpression("INTERVAL '10 sec'"), 'typed literal "INTERVAL" is invalid', 9);
    parseFails(() => parseExpression("INTERVAL 1.5 MINUTES"), "fractional");
    parseFails(() => parseExpression("INTERVAL '10:60' HOUR TO MINUTE"), "invalid");
  });
  it("still allows a column named interval", () => {
    expectExpr("interval", col("interval"));
  });
});

describe("names and star", () => {
  it("reads dotted and backticked names as one column reference", () => {
    expectExpr("a", col("a"));
    expectExpr("t.a", col("t", "a"));
    expectExpr("window.start", col("window", "start"));
    expectExpr("window.end", col("window", "end"));
    expectExpr("`weird name`", col("weird name"));
    expectExpr("`a.b`.c", col("a.b", "c"));
    expectExpr("`x``y`", col("x`y"));
    expectExpr("produk", col("produk"));
  });
  it("reads star forms", () => {
    expectExpr("*", star());
    expectExpr("t.*", star("t"));
  });
  it("turns field access on expressions into getfield and subscripts into getitem", () => {
    expectExpr("a[0]", op("getitem", col("a"), int(0)));
    expectExpr("m['k']", op("getitem", col("m"), str("k")));
    expectExpr("a[0].b", op("getfield", op("getitem", col("a"), int(0)), str("b")));
    expectExpr("f(x).y", op("getfield", op("f", col("x")), str("y")));
    expectExpr("(s).y", op("getfield", col("s"), str("y")));
    expectExpr("a.b[1 + 1]", op("getitem", col("a", "b"), op("+", int(1), int(1))));
  });
});

describe("function calls", () => {
  it("lower-cases names and keeps arguments", () => {
    expectExpr("UPPER(name)", op("upper", col("name")));
    expectExpr("f()", op("f"));
    expectExpr("coalesce(a, 'x', 1)", op("coalesce", col("a"), str("x"), int(1)));
    expectExpr("window(ts, '10 minutes', '5 minutes')", op("window", col("ts"), str("10 minutes"), str("5 minutes")));
  });
  it("reads count(*) and DISTINCT", () => {
    expectExpr("count(*)", op("count", star()));
    expectExpr("COUNT(DISTINCT a)", call("count", [col("a")], true));
    expectExpr("count(DISTINCT a, b)", call("count", [col("a"), col("b")], true));
    expectExpr("sum(ALL x)", op("sum", col("x")));
  });
  it("reads keyword-named functions and niladic keywords", () => {
    expectExpr("left(s, 2)", op("left", col("s"), int(2)));
    expectExpr("if(a, 1, 2)", op("if", col("a"), int(1), int(2)));
    expectExpr("current_timestamp", op("current_timestamp"));
    expectExpr("CURRENT_DATE()", op("current_date"));
    expectExpr("first(x) IGNORE NULLS", op("first", col("x"), literal(true, BooleanType)));
  });
  it("reads OVER clauses: partition, order, frames and IGNORE NULLS", () => {
    expectExpr("rank() OVER (ORDER BY a)", windowExpr(op("rank"), [], [sortOrder(col("a"))], null));
    expectExpr(
      "sum(v) OVER (PARTITION BY k, j ORDER BY a DESC NULLS FIRST ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING)",
      windowExpr(op("sum", col("v")), [col("k"), col("j")], [sortOrder(col("a"), false, true)], { type: "rows", lower: -2, upper: 1 }),
    );
    expectExpr(
      "count(*) OVER (ORDER BY a RANGE UNBOUNDED PRECEDING)",
      windowExpr(op("count", star()), [], [sortOrder(col("a"))], { type: "range", lower: null, upper: 0 }),
    );
    expectExpr(
      "lag(x) IGNORE NULLS OVER (ORDER BY a)",
      windowExpr(op("lag", col("x"), int(1), literal(null, NullType), literal(true, BooleanType)), [], [sortOrder(col("a"))], null),
    );
    parseFails(
      () => parseExpression("sum(v) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW)"),
      "cannot start at UNBOUNDED FOLLOWING",
      26,
    );
    parseFails(() => parseExpression("upper(s) IGNORE NULLS"), "does not support IGNORE NULLS", 21);
  });
  it("reads lambdas as lambdafunction(body, variables...) arguments", () => {
    const one = parseExpression("transform(a, x -> x + 1)");
    assert.equal(exprToSql(one), "transform(a, lambdafunction((x + 1), namedlambdavariable()))");
    const two = parseExpression("aggregate(a, 0, (acc, x) -> acc + x)") as Call;
    const lambda = two.args[2] as Call;
    assert.equal(lambda.name, "lambdafunction");
    assert.deepEqual(
      lambda.args.slice(1).map((v) => (v.kind === "lambdaVar" ? v.name : v.kind)),
      ["acc", "x"],
    );
    // a parenthesized expression is not a lambda's parameter list
    assert.equal(exprToSql(parseExpression("coalesce((a), b)")), "coalesce(a, b)");
  });
});

describe("operators and precedence", () => {
  it("multiplicative binds tighter than additive, left-associative", () => {
    expectExpr("a + b * c", op("+", col("a"), op("*", col("b"), col("c"))));
    expectExpr("a - b - c", op("-", op("-", col("a"), col("b")), col("c")));
    expectExpr("a / b % c DIV d", op("div", op("%", op("/", col("a"), col("b")), col("c")), col("d")));
    expectExpr("(a + b) * c", op("*", op("+", col("a"), col("b")), col("c")));
  });
  it("unary minus: negative() on expressions, folded into numeric literals", () => {
    expectExpr("-a", op("negative", col("a")));
    expectExpr("-5", int(-5));
    expectExpr("- 5 * a", op("*", int(-5), col("a")));
    expectExpr("a - -1", op("-", col("a"), int(-1)));
    expectExpr("-(1)", op("negative", int(1)));
    expectExpr("+a", op("positive", col("a")));
    expectExpr("~a & b", op("&", op("~", col("a")), col("b")));
  });
  it("|| is concat at the level of + and - (as in Spark)", () => {
    expectExpr("a || b", op("concat", col("a"), col("b")));
    expectExpr("a || b || c", op("concat", op("concat", col("a"), col("b")), col("c")));
    expectExpr("a || b = c", op("=", op("concat", col("a"), col("b")), col("c")));
    expectExpr("a * 2 || b", op("concat", op("*", col("a"), int(2)), col("b")));
  });
  it("normalizes comparison operators", () => {
    expectExpr("a = 1", op("=", col("a"), int(1)));
    expectExpr("a == 1", op("=", col("a"), int(1)));
    expectExpr("a <> 1", op("!=", col("a"), int(1)));
    expectExpr("a != 1", op("!=", col("a"), int(1)));
    expectExpr("a <=> NULL", op("<=>", col("a"), literal(null, NullType)));
    for (const o of ["<", "<=", ">", ">="]) expectExpr(`a ${o} b`, op(o, col("a"), col("b")));
    expectExpr("a + 1 > b * 2", op(">", op("+", col("a"), int(1)), op("*", col("b"), int(2))));
  });
  it("OR < AND < NOT < comparison", () => {
    const [a, b, c] = [op("=", col("a"), int(1)), op("=", col("b"), int(2)), op("=", col("c"), int(3))];
    expectExpr("a = 1 OR b = 2 AND c = 3", op("or", a, op("and", b, c)));
    expectExpr("(a = 1 OR b = 2) AND c = 3", op("and", op("or", a, b), c));
    expectExpr("NOT a = 1 AND b = 2", op("and", op("not", a), b));
    expectExpr("not not x", op("not", op("not", col("x"))));
    expectExpr("!x", op("not", col("x")));
  });
  it("casts with CAST(...) and ::", () => {
    expectExpr("CAST(a AS INT)", cast(col("a"), IntegerType));
    expectExpr("cast(a as array<string>)", cast(col("a"), ArrayOf(StringType)));
    expectExpr("a::bigint", cast(col("a"), LongType));
    expectExpr("a + b::double", op("+", col("a"), cast(col("b"), DoubleType)));
    expectExpr("-1::string", cast(int(-1), StringType));
  });
});

describe("predicates", () => {
  it("IS [NOT] NULL / TRUE / DISTINCT FROM", () => {
    expectExpr("a IS NULL", op("isnull", col("a")));
    expectExpr("a IS NOT NULL", op("isnotnull", col("a")));
    expectExpr("a + 1 IS NULL", op("isnull", op("+", col("a"), int(1))));
    expectExpr("a IS TRUE", op("<=>", col("a"), literal(true, BooleanType)));
    expectExpr("a IS NOT DISTINCT FROM b", op("<=>", col("a"), col("b")));
    expectExpr("a IS DISTINCT FROM b", op("not", op("<=>", col("a"), col("b"))));
    expectExpr("a IS NULL OR b", op("or", op("isnull", col("a")), col("b")));
  });
  it("[NOT] IN lists the value first", () => {
    expectExpr("a IN (1, 2, 3)", op("in", col("a"), int(1), int(2), int(3)));
    expectExpr("a NOT IN ('x')", op("not", op("in", col("a"), str("x"))));
    // a subquery: in_subquery(a) holding the query (analyzer/subqueries.ts plans it)
    const sub = parseExpression("a IN (SELECT 1)");
    assert.equal(sub.kind === "call" ? sub.name : sub.kind, "in_subquery");
    assert.equal(sub.kind === "call" ? sub.subquery?.kind : undefined, "project");
  });
  it("[NOT] BETWEEN rewrites to a range check (marked, so that it is named between(a, 1, 10))", () => {
    const range = { ...op("and", op(">=", col("a"), int(1)), op("<=", col("a"), int(10))), between: true };
    expectExpr("a BETWEEN 1 AND 10", range);
    expectExpr("a NOT BETWEEN 1 AND 10", op("not", range));
    expectExpr("a BETWEEN 1 AND 10 AND b", op("and", range, col("b")));
  });
  it("[NOT] LIKE / RLIKE / REGEXP / ILIKE", () => {
    expectExpr("s LIKE 'a%'", op("like", col("s"), str("a%")));
    expectExpr("s NOT LIKE 'a%'", op("not", op("like", col("s"), str("a%"))));
    expectExpr("s LIKE 'a!%' ESCAPE '!'", op("like", col("s"), str("a!%"), str("!")));
    expectExpr("s RLIKE '^a'", op("rlike", col("s"), str("^a")));
    expectExpr("s REGEXP '^a'", op("rlike", col("s"), str("^a")));
    expectExpr("s NOT RLIKE '^a'", op("not", op("rlike", col("s"), str("^a"))));
    expectExpr("s ILIKE 'A%'", op("ilike", col("s"), str("A%")));
  });
});

describe("CASE", () => {
  it("searched form", () => {
    expectExpr(
      "CASE WHEN a > 1 THEN 'big' WHEN a > 0 THEN 'small' ELSE 'none' END",
      caseWhen(
        [
          [op(">", col("a"), int(1)), str("big")],
          [op(">", col("a"), int(0)), str("small")],
        ],
        str("none"),
      ),
    );
    expectExpr("case when x then 1 end", caseWhen([[col("x"), int(1)]], null));
  });
  it("simple form becomes equality branches", () => {
    expectExpr(
      "CASE k WHEN 1 THEN 'one' WHEN 2 THEN 'two' END",
      caseWhen(
        [
          [op("=", col("k"), int(1)), str("one")],
          [op("=", col("k"), int(2)), str("two")],
        ],
        null,
      ),
    );
  });
  it("rejects a CASE without branches", () => {
    parseFails(() => parseExpression("CASE ELSE 1 END"), "Syntax error at or near 'ELSE'", 5);
  });
});

describe("aliases", () => {
  it("accepts AS name and a bare name", () => {
    expectExpr("a + 1 AS b", alias(op("+", col("a"), int(1)), "b"));
    expectExpr("count(*) n", alias(op("count", star()), "n"));
    expectExpr("x AS `my col`", alias(col("x"), "my col"));
    expectExpr("window(ts, '1 minute') AS window", alias(op("window", col("ts"), str("1 minute")), "window"));
  });
});

describe("expression errors", () => {
  it("points at the offending token", () => {
    parseFails(() => parseExpression("a +"), "Syntax error at or near end of input.", 3);
    parseFails(() => parseExpression("a * / 2"), "Syntax error at or near '/'", 4);
    parseFails(() => parseExpression("f(a,"), "end of input", 4);
    parseFails(() => parseExpression("(a + b"), "end of input", 6);
    parseFails(() => parseExpression("a b c"), "Syntax error at or near 'c'", 4);
    parseFails(() => parseExpression("a = FROM"), "Syntax error at or near 'FROM'", 4);
    parseFails(() => parseExpression("CAST(a AS FOO)"), '[UNSUPPORTED_DATATYPE] Unsupported data type "FOO"', 10);
    parseFails(() => parseExpression("'abc"), "unclosed string literal", 0);
    parseFails(() => parseExpression("a # b"), "Syntax error at or near '#'", 2);
    parseFails(() => parseExpression(""), "PARSE_EMPTY_STATEMENT", 0);
  });
  it("is a ParseException carrying Spark's error class and a caret", () => {
    const e = parseFails(() => parseExpression("a +"), "[PARSE_SYNTAX_ERROR]");
    assert.equal(e.errorClass, "PARSE_SYNTAX_ERROR");
    assert.match(e.message, /== SQL ==\na \+\n---\^\^\^/);
  });
  it("ignores comments", () => {
    expectExpr("a /* hint */ + -- trailing\n 1", op("+", col("a"), int(1)));
  });
});
