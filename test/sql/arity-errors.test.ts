/**
 * A call with the wrong number of arguments fails as Spark's does: WRONG_NUM_ARGS.WITHOUT_SUGGESTION,
 * the expected count written as Spark writes it ("1", "[2, 3]", "> 0" for one or more), and
 * the message's pointer to Spark's function reference. `range` takes Spark's fourth argument,
 * numPartitions; nvl and ifnull, coalesce under other names, take exactly two. Every message
 * below is PySpark 4.3's (local[1]), without its SQLSTATE and position suffixes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AnalysisException, ArusError } from "../../src/common/errors.js";
import { Session } from "../../src/index.js";

const session = Session.builder().getOrCreate();
const DOCS = "Please, refer to 'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a fix.";

/** [query, function named, expected count as Spark writes it, actual count]. */
const CASES: readonly (readonly [string, string, string, number])[] = [
  ["SELECT abs(1, 2)", "abs", "1", 2],
  ["SELECT abs()", "abs", "1", 0],
  ["SELECT grouping(1, 2) FROM VALUES (1) t(a) GROUP BY CUBE(a)", "grouping", "1", 2],
  ["SELECT int(1, 2)", "int", "1", 2],
  ["SELECT map(1)", "map", "2n (n > 0)", 1],
  ["SELECT * FROM range(1, 2, 3, 4, 5)", "range", "[1, 2, 3, 4]", 5],
  ["SELECT * FROM range()", "range", "[1, 2, 3, 4]", 0],
  ["SELECT concat_ws()", "concat_ws", "> 0", 0],
  ["SELECT coalesce()", "coalesce", "> 0", 0],
  ["SELECT hash()", "hash", "> 0", 0],
  ["SELECT xxhash64()", "xxhash64", "> 0", 0],
  ["SELECT elt(1)", "elt", "> 1", 1],
  ["SELECT json_tuple('a')", "json_tuple", "> 1", 1],
  ["SELECT decode(1)", "decode", "2", 1],
  ["SELECT locate('a')", "locate", "[2, 3]", 1],
  ["SELECT log()", "log", "[1, 2]", 0],
  ["SELECT percentile_cont(0.5, 1) WITHIN GROUP (ORDER BY a) FROM VALUES (1) t(a)", "percentile_cont", "1", 2],
  // aliases of coalesce that take exactly two, as Spark's own expressions for them
  ["SELECT nvl(1)", "nvl", "2", 1],
  ["SELECT nvl(1, 2, 3)", "nvl", "2", 3],
  ["SELECT ifnull(1, 2, 3)", "ifnull", "2", 3],
];

async function failure(query: string): Promise<Error> {
  try {
    await session.sql(query).collect();
  } catch (e) {
    return e as Error;
  }
  assert.fail(`${query} did not fail`);
}

describe("wrong number of arguments", () => {
  for (const [query, name, expected, got] of CASES) {
    it(query, async () => {
      const e = await failure(query);
      assert.ok(e instanceof ArusError, `${query}: ${e}`);
      const text = `[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The \`${name}\` requires ${expected} parameters but the actual number is ${got}. ${DOCS}`;
      assert.ok(e.message.startsWith(text), `${query}:\n  got  ${e.message}\n  want ${text}`);
    });
  }

  it("is an AnalysisException with Spark's error class where the analyzer finds it", async () => {
    const e = await failure("SELECT coalesce()");
    assert.ok(e instanceof AnalysisException);
    assert.equal((e as AnalysisException).errorClass, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
  });
});

describe("range's numPartitions", () => {
  it("is taken, in SQL and from the session, and does not change the rows", async () => {
    const rows = (await session.sql("SELECT * FROM range(0, 5, 2, 3)").collect()).map((r) => r.id);
    assert.deepEqual(rows, [0, 2, 4]);
    assert.deepEqual(
      (await session.range(0, 5, 2, 3).collect()).map((r) => r.id),
      [0, 2, 4],
    );
  });

  it("must be positive", async () => {
    for (const n of [0, -1]) {
      const e = await failure(`SELECT * FROM range(0, 5, 1, ${n})`);
      assert.match(e.message, /^Positive number of partitions required/);
      assert.throws(() => session.range(0, 5, 1, n), /Positive number of partitions required/);
    }
  });
});
