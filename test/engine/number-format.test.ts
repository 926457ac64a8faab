/**
 * to_number / try_to_number / to_char / to_varchar with Spark's number formats. Expected values,
 * result types and error messages were taken from PySpark 4.3; the round trip is a property.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { NumberFormat } from "../../src/functions/number-format.js";
import { Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

async function one(sql: string): Promise<{ type: string; value: string }> {
  const df = session.sql(`SELECT ${sql} AS x`);
  const [row] = await df.collect();
  return { type: df.dtypes[0]![1], value: String(row!.x) };
}

describe("to_number / try_to_number", () => {
  it("parses text in a format into the format's DECIMAL", async () => {
    const cases: [string, string, string, string][] = [
      ["454", "999", "decimal(3,0)", "454"],
      ["454.00", "000.00", "decimal(5,2)", "454.00"],
      ["12,454", "99,999", "decimal(5,0)", "12454"],
      ["$78.12", "$99.99", "decimal(4,2)", "78.12"],
      ["12,454.8-", "99,999.9S", "decimal(6,1)", "-12454.8"],
      ["-12", "S99", "decimal(2,0)", "-12"],
      ["<12>", "99PR", "decimal(2,0)", "-12"],
      ["12-", "99MI", "decimal(2,0)", "-12"],
      ["1.5", "9.99", "decimal(3,2)", "1.50"],
      [" 12", "999", "decimal(3,0)", "12"],
      ["0012", "0000", "decimal(4,0)", "12"],
      ["1,2", "9G9", "decimal(2,0)", "12"],
      ["1.2", "9D9", "decimal(2,1)", "1.2"],
    ];
    for (const [text, format, type, value] of cases) {
      assert.deepEqual(await one(`to_number('${text}', '${format}')`), { type, value }, `${text} / ${format}`);
      assert.deepEqual(await one(`try_to_number('${text}', '${format}')`), { type, value }, `${text} / ${format}`);
    }
    assert.deepEqual(
      session.sql("SELECT to_number('454', '999'), try_to_number('454', '999'), to_char(454, '999'), to_varchar(454, '999')").columns,
      ["to_number(454, 999)", "try_to_number(454, 999)", "to_char(454, 999)", "to_char(454, 999)"],
    );
  });

  it("fails (to_number) or gives NULL (try_to_number) when the text does not match", async () => {
    for (const [text, format] of [
      ["123", "99"],
      ["12", "0000"],
      ["abc", "999"],
      ["1234", "9,999"],
    ]) {
      await assert.rejects(
        one(`to_number('${text}', '${format}')`),
        new RegExp(
          `\\[INVALID_FORMAT\\.MISMATCH_INPUT\\] The format is invalid: ${format}\\. The input "STRING" ${text} does not match the format\\.`,
        ),
      );
      assert.equal((await one(`try_to_number('${text}', '${format}')`)).value, "null");
    }
  });

  it("refuses invalid formats at analysis, in Spark's order of rules", () => {
    const cases: [string, string][] = [
      ["", "EMPTY"],
      ["$", "WRONG_NUM_DIGIT"],
      ["9$", "CUR_MUST_BEFORE_DIGIT"],
      ["9.$", "CUR_MUST_BEFORE_DIGIT"],
      ["9,,9", "CONT_THOUSANDS_SEPS"],
      [",99", "CONT_THOUSANDS_SEPS"],
      ["9.9,9", "THOUSANDS_SEPS_MUST_BEFORE_DEC"],
      ["99.9.9", "WRONG_NUM_TOKEN"],
      ["S9S", "WRONG_NUM_TOKEN"],
      ["9A", "UNEXPECTED_TOKEN"],
      ["99S$", "CUR_MUST_BEFORE_DIGIT"],
    ];
    for (const [format, reason] of cases) {
      assert.throws(
        () => session.sql(`SELECT to_number('1', '${format}')`),
        new RegExp(`\\[INVALID_FORMAT\\.${reason}\\] The format is invalid: '`),
        format,
      );
    }
    assert.throws(() => session.sql("SELECT to_number('1', '99.9.9')"), /At most one \. or D is allowed in the number format\./);
  });
});

describe("to_char / to_varchar", () => {
  it("writes numbers in a format", async () => {
    const cases: [string, string, string][] = [
      ["12", "999", " 12"],
      ["-12", "999", " 12"],
      ["5", "9.99", "5.00"],
      ["0.5", "9.9", "0.5"],
      ["-0.5", "9.9", "0.5"],
      ["12", "9,999", "   12"],
      ["1234", "9,999", "1,234"],
      ["-1234.5", "S9,999.99", "-1,234.50"],
      ["1234.5", "9,999.99MI", "1,234.50 "],
      ["-1234.5", "$9,999.99PR", "<$1,234.50>"],
      ["0", "999", "   "],
      ["0", "0.00", "0.00"],
      ["1.555", "9.99", "#.##"],
      ["CAST(-5 AS INT)", "S000", "-005"],
      ["CAST(5 AS BIGINT)", "99", " 5"],
      ["1.5D", "9.9", "1.5"],
      ["-12", "99MI", "12-"],
      ["-12", "99PR", "<12>"],
      ["78.12", "$99.99", "$78.12"],
      ["12", "0000", "0012"],
      ["12345", "999", "###"],
    ];
    for (const [value, format, text] of cases) {
      assert.deepEqual(await one(`to_char(${value}, '${format}')`), { type: "string", value: text }, `${value} / ${format}`);
    }
    assert.equal((await one("to_varchar(454.5, '999.99')")).value, "454.50");
  });

  it("formats a date or timestamp as date_format does", async () => {
    assert.equal((await one("to_char(DATE '2024-01-02', 'yyyy-MM')")).value, "2024-01");
  });

  // Only for numbers filling every integer digit: Spark writes the unused ones as spaces before the
  // sign (to_char(1, 'S99') is ' +1'), which to_number does not read back.
  it("to_number reads back what to_char wrote for numbers filling the format (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 4 }),
        fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n }),
        (intDigits, scale, raw) => {
          const format = new NumberFormat(`S${"9".repeat(intDigits)}${scale > 0 ? `.${"9".repeat(scale)}` : ""}`);
          const limit = 10n ** BigInt(intDigits + scale);
          const smallest = 10n ** BigInt(intDigits - 1 + scale);
          const unscaled = raw % limit;
          fc.pre(unscaled >= smallest || unscaled <= -smallest);
          const abs = unscaled < 0n ? -unscaled : unscaled;
          const digits = abs.toString().padStart(scale + 1, "0");
          const plain = `${unscaled < 0n ? "-" : ""}${scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`;
          const text = format.format(plain);
          assert.equal(format.parse(text), unscaled, `${plain} → '${text}'`);
        },
      ),
    );
  });
});
