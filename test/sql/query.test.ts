/** parseQuery: each clause, plan shapes, joins, set operations, subqueries, errors. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { alias, attribute, call, cast, columnRef, type Expr, literal, sortOrder, star } from "../../src/plan/expressions.js";
import { type LogicalPlan, Plans } from "../../src/plan/logical.js";
import { parseQuery } from "../../src/sql/index.js";
import { IntegerType, LongType, StringType } from "../../src/types/datatypes.js";
import { parseFails, same } from "./helpers.js";

const col = (...parts: string[]) => columnRef(parts);
const int = (v: number) => literal(v, IntegerType);
const op = (name: string, ...args: Expr[]) => call(name, args);
const table = (name: string) => Plans.unresolvedRelation(name);
const expectPlan = (sql: string, plan: LogicalPlan) => same(parseQuery(sql), plan);
const oneRow = Plans.localRelation([], [{ columns: [], numRows: 1 }]);

describe("SELECT basics", () => {
  it("projects from a table", () => {
    expectPlan("SELECT a, b FROM t", Plans.project([col("a"), col("b")], table("t")));
    expectPlan("select * from t", Plans.project([star()], table("t")));
    expectPlan("SELECT t.*, x FROM t", Plans.project([star("t"), col("x")], table("t")));
    expectPlan("SELECT ALL a FROM t;", Plans.project([col("a")], table("t")));
  });
  it("keeps select-list aliases, with or without AS", () => {
    expectPlan(
      "SELECT a + 1 AS b, upper(s) u, c FROM t",
      Plans.project([alias(op("+", col("a"), int(1)), "b"), alias(op("upper", col("s")), "u"), col("c")], table("t")),
    );
  });
  it("names struct fields by their arguments' aliases, as Spark: struct(1 AS a, x AS b)", () => {
    expectPlan(
      "SELECT struct(1 AS a, x AS b, y) AS s FROM t",
      Plans.project([alias(op("struct", alias(int(1), "a"), alias(col("x"), "b"), col("y")), "s")], table("t")),
    );
  });
  it("reads Spark's cast functions int(x), float(x), string(x), ... as CAST (one argument only)", () => {
    expectPlan("SELECT int(x), string(y) FROM t", Plans.project([cast(col("x"), IntegerType), cast(col("y"), StringType)], table("t")));
    parseFails(
      () => parseQuery("SELECT int(1, 2)"),
      "[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `int` requires 1 parameters but the actual number is 2.",
    );
  });
  it("selects without FROM from a one-row relation", () => {
    const p = parseQuery("SELECT 1 AS one");
    same(p, Plans.project([alias(int(1), "one")], oneRow));
    assert.equal(p.kind === "project" && p.child.kind === "localRelation" && p.child.batches[0]!.numRows, 1);
  });
  it("aliases tables and qualifies multi-part names", () => {
    expectPlan("SELECT x.a FROM t AS x", Plans.project([col("x", "a")], Plans.subqueryAlias("x", table("t"))));
    expectPlan("SELECT a FROM t x", Plans.project([col("a")], Plans.subqueryAlias("x", table("t"))));
    expectPlan("SELECT a FROM db.t", Plans.project([col("a")], table("db.t")));
    expectPlan("SELECT a FROM `my table`", Plans.project([col("a")], table("my table")));
  });
  it("DISTINCT sits above the projection", () => {
    expectPlan("SELECT DISTINCT a FROM t", Plans.distinct(Plans.project([col("a")], table("t"))));
  });
});

describe("WHERE, GROUP BY, HAVING", () => {
  it("WHERE is a Filter under the projection", () => {
    expectPlan(
      "SELECT a FROM t WHERE a > 1 AND b IS NOT NULL",
      Plans.project([col("a")], Plans.filter(op("and", op(">", col("a"), int(1)), op("isnotnull", col("b"))), table("t"))),
    );
  });
  it("GROUP BY makes an Aggregate over the filter", () => {
    expectPlan(
      "SELECT k, count(*) AS n FROM t WHERE v > 0 GROUP BY k",
      Plans.aggregate([col("k")], [col("k"), alias(op("count", star()), "n")], Plans.filter(op(">", col("v"), int(0)), table("t"))),
    );
  });
  it("streaming-style window grouping", () => {
    const w = op("window", col("event_time"), literal("10 seconds", StringType));
    expectPlan(
      "SELECT window.start, count(*) FROM events GROUP BY window(event_time, '10 seconds')",
      Plans.aggregate([w], [col("window", "start"), op("count", star())], table("events")),
    );
  });
  it("GROUP BY ordinals resolve to select expressions", () => {
    expectPlan(
      "SELECT upper(k) AS uk, sum(v) FROM t GROUP BY 1",
      Plans.aggregate([op("upper", col("k"))], [alias(op("upper", col("k")), "uk"), op("sum", col("v"))], table("t")),
    );
    parseFails(() => parseQuery("SELECT a FROM t GROUP BY 2"), "GROUP BY position 2 is not in select list (valid range is [1, 1])", 25);
    parseFails(() => parseQuery("SELECT * FROM t GROUP BY 1"), "STAR_GROUP_BY_POS", 25);
  });
  it("HAVING is a Filter above the Aggregate, aggregate calls left as calls", () => {
    expectPlan(
      "SELECT k FROM t GROUP BY k HAVING count(*) > 2",
      Plans.filter(op(">", op("count", star()), int(2)), Plans.aggregate([col("k")], [col("k")], table("t"))),
    );
  });
  it("HAVING without GROUP BY is a global aggregate", () => {
    expectPlan(
      "SELECT sum(v) FROM t HAVING sum(v) > 0",
      Plans.filter(op(">", op("sum", col("v")), int(0)), Plans.aggregate([], [op("sum", col("v"))], table("t"))),
    );
  });
  it("reads ROLLUP, CUBE, GROUPING SETS, mixed elements and WITH ROLLUP as grouping sets over distinct expressions", () => {
    const a = col("a");
    const b = col("b");
    const agg = (groups: Expr[], sets: number[][]) => Plans.aggregate(groups, [a], table("t"), sets);
    expectPlan("SELECT a FROM t GROUP BY ROLLUP(a, b)", agg([a, b], [[0, 1], [0], []]));
    expectPlan("SELECT a FROM t GROUP BY a, b WITH ROLLUP", agg([a, b], [[0, 1], [0], []]));
    expectPlan("SELECT a FROM t GROUP BY CUBE(a, b)", agg([a, b], [[0, 1], [0], [1], []]));
    expectPlan("SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, ())", agg([a, b], [[0, 1], [0], []]));
    expectPlan("SELECT a FROM t GROUP BY a, ROLLUP(b)", agg([a, b], [[0, 1], [0]]));
    expectPlan("SELECT a FROM t GROUP BY ROLLUP((a, b))", agg([a, b], [[0, 1], []]));
    parseFails(() => parseQuery("SELECT a FROM t GROUP BY ROLLUP(a) WITH CUBE"), "cannot follow ROLLUP", 44);
  });
});

describe("ORDER BY and LIMIT", () => {
  it("Sort is above the projection and below the Limit", () => {
    expectPlan(
      "SELECT a, b FROM t ORDER BY a DESC, b ASC NULLS LAST, c LIMIT 10",
      Plans.limit(
        10,
        Plans.sort(
          [sortOrder(col("a"), false), sortOrder(col("b"), true, false), sortOrder(col("c"), true)],
          Plans.project([col("a"), col("b")], table("t")),
        ),
      ),
    );
  });
  it("defaults nulls ordering like Spark", () => {
    const p = parseQuery("SELECT a FROM t ORDER BY a, b DESC, c DESC NULLS FIRST");
    assert.ok(p.kind === "sort");
    assert.deepEqual(
      p.orders.map((o) => [o.ascending, o.nullsFirst]),
      [
        [true, true],
        [false, false],
        [false, true],
      ],
    );
  });
  it("DISTINCT then Sort", () => {
    expectPlan(
      "SELECT DISTINCT a FROM t ORDER BY a",
      Plans.sort([sortOrder(col("a"))], Plans.distinct(Plans.project([col("a")], table("t")))),
    );
  });
  it("ORDER BY ordinals refer to output columns", () => {
    expectPlan(
      "SELECT k, count(*) AS n FROM t GROUP BY k ORDER BY 2 DESC, 1",
      Plans.sort(
        [
          { ...sortOrder(col("n"), false), ordinal: 2 },
          { ...sortOrder(col("k")), ordinal: 1 },
        ],
        Plans.aggregate([col("k")], [col("k"), alias(op("count", star()), "n")], table("t")),
      ),
    );
  });
  it("validates LIMIT", () => {
    expectPlan("SELECT a FROM t LIMIT 0", Plans.limit(0, Plans.project([col("a")], table("t"))));
    expectPlan("SELECT a FROM t LIMIT ALL", Plans.project([col("a")], table("t")));
    parseFails(() => parseQuery("SELECT a FROM t LIMIT -1"), "must be equal to or greater than 0", 22);
    parseFails(() => parseQuery("SELECT a FROM t LIMIT a"), "INVALID_LIMIT_LIKE_EXPRESSION", 22);
  });
});

describe("joins", () => {
  const t = Plans.subqueryAlias("t", table("t1"));
  const u = Plans.subqueryAlias("u", table("t2"));
  const on = op("=", col("t", "k"), col("u", "k"));
  const cases: [string, string][] = [
    ["JOIN", "inner"],
    ["INNER JOIN", "inner"],
    ["LEFT JOIN", "left_outer"],
    ["LEFT OUTER JOIN", "left_outer"],
    ["RIGHT JOIN", "right_outer"],
    ["right outer join", "right_outer"],
    ["FULL JOIN", "full_outer"],
    ["FULL OUTER JOIN", "full_outer"],
    ["LEFT SEMI JOIN", "left_semi"],
    ["LEFT ANTI JOIN", "left_anti"],
  ];
  for (const [kw, type] of cases) {
    it(`${kw} → ${type}`, () => {
      expectPlan(`SELECT * FROM t1 t ${kw} t2 AS u ON t.k = u.k`, Plans.project([star()], Plans.join(t, u, type as "inner", on)));
    });
  }
  it("CROSS JOIN, USING and comma joins", () => {
    expectPlan("SELECT * FROM a CROSS JOIN b", Plans.project([star()], Plans.join(table("a"), table("b"), "cross", null)));
    expectPlan(
      "SELECT * FROM a JOIN b USING (k, `j`)",
      Plans.project([star()], Plans.join(table("a"), table("b"), "inner", null, ["k", "j"], false, true)),
    );
    expectPlan(
      "SELECT * FROM a, b WHERE a.k = b.k",
      Plans.project([star()], Plans.filter(op("=", col("a", "k"), col("b", "k")), Plans.join(table("a"), table("b"), "inner", null))),
    );
  });
  it("chains joins left-deep", () => {
    expectPlan(
      "SELECT * FROM a JOIN b ON a.x = b.x LEFT JOIN c ON b.y = c.y",
      Plans.project(
        [star()],
        Plans.join(
          Plans.join(table("a"), table("b"), "inner", op("=", col("a", "x"), col("b", "x"))),
          table("c"),
          "left_outer",
          op("=", col("b", "y"), col("c", "y")),
        ),
      ),
    );
  });
  it("reads parenthesized joins", () => {
    expectPlan(
      "SELECT * FROM (a JOIN b ON a.k = b.k) j",
      Plans.project([star()], Plans.subqueryAlias("j", Plans.join(table("a"), table("b"), "inner", op("=", col("a", "k"), col("b", "k"))))),
    );
  });
});

describe("subqueries, CTEs, range, UNION", () => {
  it("FROM subquery with alias", () => {
    expectPlan(
      "SELECT s.a FROM (SELECT a FROM t WHERE a > 0) s",
      Plans.project(
        [col("s", "a")],
        Plans.subqueryAlias("s", Plans.project([col("a")], Plans.filter(op(">", col("a"), int(0)), table("t")))),
      ),
    );
    expectPlan(
      "SELECT * FROM ((SELECT a FROM t) UNION ALL (SELECT a FROM u)) x",
      Plans.project(
        [star()],
        Plans.subqueryAlias("x", Plans.union([Plans.project([col("a")], table("t")), Plans.project([col("a")], table("u"))])),
      ),
    );
  });
  it("inlines CTEs as aliased subqueries", () => {
    const inner = Plans.project([col("a")], table("t"));
    expectPlan(
      "WITH c AS (SELECT a FROM t) SELECT a FROM c JOIN c AS d ON c.a = d.a",
      Plans.project(
        [col("a")],
        Plans.join(
          Plans.subqueryAlias("c", inner),
          Plans.subqueryAlias("d", Plans.subqueryAlias("c", inner)),
          "inner",
          op("=", col("c", "a"), col("d", "a")),
        ),
      ),
    );
  });
  it("range() table function", () => {
    const p = parseQuery("SELECT id FROM range(1, 10, 2)");
    assert.ok(p.kind === "project" && p.child.kind === "range");
    assert.deepEqual([p.child.start, p.child.end, p.child.step], [1, 10, 2]);
    same(p.child.output, [attribute("id", LongType, false)]);
  });
  it("UNION ALL flattens, UNION adds Distinct, ORDER BY/LIMIT apply to the whole", () => {
    const [a, b, c] = ["a", "b", "c"].map((n) => Plans.project([col("x")], table(n))) as [LogicalPlan, LogicalPlan, LogicalPlan];
    expectPlan("SELECT x FROM a UNION ALL SELECT x FROM b UNION ALL SELECT x FROM c", Plans.union([a, b, c]));
    expectPlan("SELECT x FROM a UNION SELECT x FROM b", Plans.distinct(Plans.union([a, b])));
    expectPlan(
      "SELECT x FROM a UNION ALL SELECT x FROM b ORDER BY x LIMIT 5",
      Plans.limit(5, Plans.sort([sortOrder(col("x"))], Plans.union([a, b]))),
    );
    expectPlan("SELECT x FROM a UNION SELECT x FROM b UNION ALL SELECT x FROM c", Plans.union([Plans.distinct(Plans.union([a, b])), c]));
  });
});

describe("query errors", () => {
  it("points at the offending token", () => {
    parseFails(() => parseQuery("SELECT FROM"), "[PARSE_SYNTAX_ERROR] Syntax error at or near 'FROM'.", 7);
    parseFails(() => parseQuery("SELECT a FROM"), "Syntax error at or near end of input", 13);
    parseFails(() => parseQuery("SELECT a FROM t WHERE"), "end of input", 21);
    parseFails(() => parseQuery("SELECT a, FROM t"), "Syntax error at or near 'FROM'", 10);
    parseFails(() => parseQuery("SELECT a FROM t t2 t3"), "Syntax error at or near 't3'", 19);
    parseFails(() => parseQuery("SELECT a FROM t JOIN"), "end of input", 20);
    parseFails(() => parseQuery("SELECT a FROM t GROUP a"), "Syntax error at or near 'GROUP'", 16);
    parseFails(() => parseQuery("SELECT a FROM (SELECT a FROM t"), "end of input", 30);
    parseFails(() => parseQuery("FROM t SELECT a"), "Syntax error at or near 'FROM'", 0);
    parseFails(() => parseQuery("SELECT a FROM t ORDER a"), "Syntax error at or near 'ORDER'", 16);
  });
  it("names unsupported features", () => {
    parseFails(() => parseQuery("SELECT * FROM a NATURAL SEMI JOIN b"), "NATURAL takes [INNER | LEFT | RIGHT | FULL] [OUTER] JOIN", 34);
    parseFails(() => parseQuery("SELECT * FROM my_udtf(x)"), "Table-valued function my_udtf", 14);
    parseFails(() => parseQuery("SELECT 1 FROM t WHERE a IN (SELECT)"), "Syntax error", 34);
  });
});
