/**
 * A STRING in arithmetic, as Spark 4's ANSI coercion takes it: cast to BIGINT beside an integral
 * operand, to DOUBLE beside a fractional one, refused beside another STRING or a NULL; the unary
 * operators take it as a DOUBLE. Every type, value and message is PySpark 4.3's (local[1]).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { failureOf, typeAndText } from "./sql-probe.js";

const session = Session.builder().getOrCreate();
const typed = (e: string) => typeAndText(session, e);
const failure = async (e: string) => (await failureOf(session, `SELECT ${e}`)).message;

describe("a STRING operand", () => {
  const CASES: readonly (readonly [string, string, string | null])[] = [
    ["'1' + 2", "bigint", "3"],
    ["2 - '1'", "bigint", "1"],
    ["'1' - 2L", "bigint", "-1"],
    ["'1' + CAST(2 AS TINYINT)", "bigint", "3"],
    ["'7' % 2", "bigint", "1"],
    ["pmod('7', 2)", "bigint", "1"],
    ["'1' div 2", "bigint", "0"],
    ["'3' / 2", "double", "1.5"],
    ["'1.5' + 2.5", "double", "4.0"],
    ["'1.5' * 2.5", "double", "3.75"],
    ["'1.5' + CAST(2 AS FLOAT)", "double", "3.5"],
    ["-'1'", "double", "-1.0"],
    ["negative('1.5')", "double", "-1.5"],
    ["NULL + NULL", "double", null],
    ["try_add('abc', 2)", "bigint", null],
    ["try_divide('x', 2)", "double", null],
  ];
  for (const [e, type, value] of CASES) {
    it(e, async () => assert.deepEqual(await typed(e), [type, value]));
  }

  it("beside an integral operand must be a whole number (ANSI)", async () => {
    assert.match(await failure("'1.5' * 2"), /^\[CAST_INVALID_INPUT\] The value '1\.5' of the type "STRING" cannot be cast to "BIGINT"/);
  });

  it("has no numeric type beside another STRING, a NULL or a BOOLEAN", async () => {
    const additive = '("NUMERIC" or "INTERVAL DAY TO SECOND" or "INTERVAL YEAR TO MONTH" or "INTERVAL")';
    const cases: [string, string, string, string][] = [
      ["'1' + '2'", "(1 + 2)", additive, "STRING"],
      ["'1' + NULL", "(1 + NULL)", additive, "STRING"],
      ["'1' + true", "(1 + true)", additive, "BOOLEAN"],
      ["'1' * '2'", "(1 * 2)", '"NUMERIC"', "STRING"],
      ["'6' / '2'", "(6 / 2)", '("DOUBLE" or "DECIMAL")', "STRING"],
      ["'7' div '2'", "(7 div 2)", '("BIGINT" or "DECIMAL" or "INTERVAL YEAR TO MONTH" or "INTERVAL DAY TO SECOND")', "STRING"],
    ];
    for (const [e, sql, takes, wrong] of cases) {
      assert.equal(
        await failure(e),
        `[DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE] Cannot resolve "${sql}" due to data type mismatch: the binary operator requires the input type ${takes}, not "${wrong}".`,
      );
    }
  });
});
