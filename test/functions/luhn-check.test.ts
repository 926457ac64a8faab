/**
 * luhn_check (Spark 4.0): values from PySpark 4.3, and the checksum's own properties — a digit
 * string completed with its check digit passes, and changing any one digit of it fails (the
 * Luhn checksum catches every single-digit error).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { luhnValid } from "../../src/functions/luhn.js";
import { Session } from "../../src/index.js";

const session = Session.builder().getOrCreate();
const value = async (expr: string) => (await session.sql(`SELECT ${expr}`).toArray())[0]![0];

/** The digit that completes `body` (computed from the left, unlike luhnValid). */
function checkDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = Number(body[i]);
    const doubled = (body.length - i) % 2 === 1; // the check digit takes position 0 from the right
    sum += doubled ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][d]! : d;
  }
  return (10 - (sum % 10)) % 10;
}

describe("luhn_check", () => {
  it("gives PySpark 4.3's answers", async () => {
    const spark: [string, boolean | null][] = [
      ["'79927398713'", true],
      ["'79927398710'", false],
      ["''", false],
      ["'0'", true],
      ["' 79927398713'", false],
      ["'7992-7398-713'", false],
      ["NULL", null],
      ["79927398713", true],
      ["'4111111111111111'", true],
      ["'٣'", false],
      ["'+79927398713'", false],
      ["'59'", true],
      ["X'31'", false],
      ["1.5", false],
      ["true", false],
    ];
    for (const [arg, want] of spark) assert.equal(await value(`luhn_check(${arg})`), want, `luhn_check(${arg})`);
    assert.equal(await value("typeof(luhn_check('1'))"), "boolean");
    await assert.rejects(value("luhn_check('1', '2')"), /WRONG_NUM_ARGS/);
  });

  it("passes a number completed with its check digit and fails it after any single-digit change", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (body, at, delta) => {
          const full = `${body}${checkDigit(body)}`;
          assert.ok(luhnValid(full), full);
          const i = at % full.length;
          const changed = `${full.slice(0, i)}${(Number(full[i]) + delta) % 10}${full.slice(i + 1)}`;
          assert.ok(!luhnValid(changed), `${full} -> ${changed}`);
        },
      ),
      { numRuns: 500 },
    );
  });
});
