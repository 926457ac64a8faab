/**
 * LIKE / ILIKE with an escape character, as Spark 4.3 (expected values and messages are PySpark's,
 * local[1]): `ESCAPE 'c'` in SQL and the functions' third argument; the escape makes the next `_`,
 * `%` or itself literal, and Spark refuses it before anything else or at the end — the default
 * `\` included.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AnalysisException } from "../../src/common/errors.js";
import { F, Session } from "../../src/index.js";
import { failureOf, firstRow } from "./sql-probe.js";

const session = Session.builder().getOrCreate();
const one = (query: string) => firstRow(session, query);
const failure = (query: string) => failureOf(session, query);

describe("LIKE ... ESCAPE", () => {
  it("makes _, % and the escape itself literal, and is named as Spark names it", async () => {
    const r = await one(
      "SELECT 'a%' LIKE 'a!%' ESCAPE '!', 'ab' LIKE 'a!%' ESCAPE '!', 'a!' LIKE 'a!!' ESCAPE '!', 'a_b' LIKE 'a#_b' ESCAPE '#'",
    );
    assert.deepEqual(r.columns, ["a% LIKE a!% ESCAPE '!'", "ab LIKE a!% ESCAPE '!'", "a! LIKE a!! ESCAPE '!'", "a_b LIKE a#_b ESCAPE '#'"]);
    assert.deepEqual(r.values, [true, false, true, true]);
  });

  it("works on a column pattern, negated, and as the functions' third argument", async () => {
    const rows = await session
      .sql("SELECT v LIKE p ESCAPE '!' AS m FROM VALUES ('a%', 'a!%'), ('ab', 'a!%'), ('xyz', '%y%') t(v, p)")
      .collect();
    assert.deepEqual(
      rows.map((r) => r.m),
      [true, false, true],
    );
    assert.deepEqual((await one("SELECT 'a%' NOT LIKE 'a!%' ESCAPE '!'")).values, [false]);
    assert.deepEqual(await one("SELECT like('a%', 'a!%', '!')"), { columns: ["a% LIKE a!% ESCAPE '!'"], values: [true] });
    // ILIKE is named without its escape, as Spark's ILike
    assert.deepEqual(await one("SELECT 'A%' ILIKE 'a!%' ESCAPE '!'"), { columns: ["ilike(A%, a!%)"], values: [true] });
    assert.deepEqual(await one("SELECT ilike('A%', 'a!%', '!')"), { columns: ["ilike(A%, a!%)"], values: [true] });
  });

  it("refuses an escape before anything but _ % or itself, or at the end (the default \\ too)", async () => {
    const cases: [string, string][] = [
      [
        "SELECT 'ab' LIKE 'a!b' ESCAPE '!'",
        "[INVALID_FORMAT.ESC_IN_THE_MIDDLE] The format is invalid: 'a!b'. The escape character is not allowed to precede 'b'.",
      ],
      [
        "SELECT 'a!' LIKE 'a!' ESCAPE '!'",
        "[INVALID_FORMAT.ESC_AT_THE_END] The format is invalid: 'a!'. The escape character is not allowed to end with.",
      ],
      [
        "SELECT 'ab' LIKE 'a\\\\b'",
        "[INVALID_FORMAT.ESC_IN_THE_MIDDLE] The format is invalid: 'a\\\\b'. The escape character is not allowed to precede 'b'.",
      ],
      [
        "SELECT 'a' LIKE 'a\\\\'",
        "[INVALID_FORMAT.ESC_AT_THE_END] The format is invalid: 'a\\\\'. The escape character is not allowed to end with.",
      ],
    ];
    for (const [query, message] of cases) {
      const e = await failure(query);
      assert.ok(e instanceof AnalysisException, query);
      assert.equal(e.message, message, query);
    }
    assert.deepEqual((await one("SELECT 'a%' LIKE 'a\\\\%'")).values, [true]);
  });

  it("F.like and F.ilike take it as their third argument", async () => {
    const df = session.sql("SELECT * FROM VALUES ('a%'), ('ab'), ('A%') t(v)");
    const rows = await df
      .select(F.like("v", F.lit("a!%"), F.lit("!")).alias("l"), F.ilike("v", F.lit("a!%"), F.lit("!")).alias("i"))
      .collect();
    assert.deepEqual(
      rows.map((r) => [r.l, r.i]),
      [
        [true, true],
        [false, false],
        [false, true],
      ],
    );
  });

  it("must be a string literal of one character", async () => {
    for (const [query, got] of [
      ["SELECT like('a', 'a', 'xy')", "xy"],
      ["SELECT like('a', 'a', a) FROM VALUES ('!') t(a)", "a"],
    ]) {
      const e = await failure(query!);
      assert.equal(e.message, `[INVALID_ESCAPE_CHAR] \`EscapeChar\` should be a string literal of length one, but got "${got}".`);
    }
  });
});
