/**
 * Spark 4's longer forms of instr (position, occurrence: overlapping matches, backward from a
 * negative position) and regexp_replace (a starting position). Every expected value and message
 * is PySpark 4.3's (local[1]).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { failureOf, firstRow } from "./sql-probe.js";

const session = Session.builder().getOrCreate();
const one = (query: string) => firstRow(session, query);
const failure = async (query: string) => (await failureOf(session, query)).message;

describe("instr(str, substr, position, occurrence)", () => {
  const CASES: readonly (readonly [string, readonly unknown[]])[] = [
    [
      "SELECT instr('abcabc', 'b', 3), instr('abcabc', 'b', 1, 2), instr('abcabc', 'b', 1, 3), instr('abcabc', 'b', -1), instr('abcabc', 'b', -1, 2)",
      [5, 5, 0, 5, 2],
    ],
    ["SELECT instr('abcabc', 'b', 0), instr('abcabc', 'b', 10), instr('abcabc', 'b', -10), instr('abcabc', 'b', 2147483647)", [0, 0, 0, 0]],
    ["SELECT instr('aaa', 'aa', 1, 2), instr('aaa', 'aa', -1), instr('aaa', 'aa', -1, 2), instr('aaa', 'aa', -2)", [2, 2, 1, 2]],
    ["SELECT instr('abcabc', 'b', -2), instr('abcabc', 'c', -1, 2)", [5, 3]],
    ["SELECT instr('😀b😀b', 'b', 3), instr('😀b😀b', 'b', -1, 2)", [4, 2]],
    ["SELECT instr('abcabc', '', 3), instr('abc', '', -1), instr('abc', '', 0), instr('', '', 1), instr('abc', '', 5)", [1, 1, 1, 1, 1]],
    ["SELECT instr(NULL, 'b', 1), instr('ab', 'b', NULL), instr('abcabc', 'b', 1, NULL)", [null, null, null]],
    ["SELECT instr('abc', 'b', 1.5), instr('abcabc', 'b')", [2, 2]],
  ];
  for (const [query, values] of CASES) {
    it(query, async () => assert.deepEqual((await one(query)).values, values));
  }

  it("is named with its default occurrence, as Spark", async () => {
    assert.deepEqual((await one("SELECT instr('abcabc', 'b', 3), instr('abcabc', 'b', -1, 2), instr('abcabc', 'b')")).columns, [
      "instr(abcabc, b, 3, 1)",
      "instr(abcabc, b, -1, 2)",
      "instr(abcabc, b)",
    ]);
  });

  it("refuses an occurrence below 1", async () => {
    for (const o of [0, -1]) {
      assert.equal(
        await failure(`SELECT instr('abcabc', 'b', 1, ${o})`),
        `[INVALID_PARAMETER_VALUE.OCCURRENCE] The value of parameter(s) \`occurrence\` in \`instr\` is invalid: expects a positive integer, but got ${o}.`,
      );
    }
  });
});

describe("regexp_replace(str, regexp, rep, position)", () => {
  it("replaces from the position on, the text before kept", async () => {
    const r = await one(
      "SELECT regexp_replace('aaa', 'a', 'b', 1), regexp_replace('aaa', 'a', 'b', 3), regexp_replace('aaa', 'a', 'b', 4), regexp_replace('aaa', 'a', 'b', 10), regexp_replace('aaa', '^a', 'b', 2), regexp_replace('😀aa', 'a', 'b', 3), regexp_replace('ab', '(a)', '$1$1', 1)",
    );
    assert.deepEqual(r.values, ["bbb", "aab", "aaa", "aaa", "aba", "😀ab", "aab"]);
  });

  it("takes a whole or decimal literal (NULL: NULL), named as written", async () => {
    const r = await one(
      "SELECT regexp_replace('aaa', 'a', 'b', 2L), regexp_replace('aaa', 'a', 'b', 1.5), regexp_replace('aaa', 'a', 'b', NULL)",
    );
    assert.deepEqual(r.columns, ["regexp_replace(aaa, a, b, 2)", "regexp_replace(aaa, a, b, 1.5)", "regexp_replace(aaa, a, b, NULL)"]);
    assert.deepEqual(r.values, ["abb", "bbb", null]);
  });

  it("refuses a position below 1, or one that is not a literal", async () => {
    assert.equal(
      await failure("SELECT regexp_replace('aaa', 'a', 'b', 0)"),
      '[DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE] Cannot resolve "regexp_replace(aaa, a, b, 0)" due to data type mismatch: The position must be between (0, 2147483647] (current value = 0).',
    );
    assert.equal(
      await failure("SELECT regexp_replace('abc', 'a', 'x', a) FROM VALUES (2) t(a)"),
      '[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve "regexp_replace(abc, a, x, a)" due to data type mismatch: the input `position` should be a foldable "INT" expression; however, got "a".',
    );
  });
});
