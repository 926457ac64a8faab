/**
 * Integer overflow under ANSI, in PySpark 4.3.0's words: `[ARITHMETIC_OVERFLOW] overflow.` for
 * INT and BIGINT (arus said "integer overflow." / "long overflow.", Spark 3's and Java's words),
 * and BINARY_ARITHMETIC_OVERFLOW's "to ignore overflow problem and return NULL." for TINYINT and
 * SMALLINT.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const session = Session.builder().getOrCreate();

const PYSPARK: [string, string][] = [
  [
    "SELECT 2147483647 + CAST(id + 1 AS INT) FROM range(1)",
    `[ARITHMETIC_OVERFLOW] overflow. Use 'try_add' to tolerate overflow and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  ],
  [
    "SELECT CAST(id + 10 AS INT) * 2147483647 FROM range(1)",
    `[ARITHMETIC_OVERFLOW] overflow. Use 'try_multiply' to tolerate overflow and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  ],
  [
    "SELECT 9223372036854775807 + (id + 1) FROM range(1)",
    `[ARITHMETIC_OVERFLOW] overflow. Use 'try_add' to tolerate overflow and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  ],
  [
    "SELECT CAST(id + 2 AS TINYINT) * 127Y FROM range(1)",
    "[BINARY_ARITHMETIC_OVERFLOW] 2S * 127S caused overflow. Use `try_multiply` to ignore overflow problem and return NULL.",
  ],
  [
    "SELECT CAST(id + 32767 AS SMALLINT) + 1S FROM range(1)",
    "[BINARY_ARITHMETIC_OVERFLOW] 32767S + 1S caused overflow. Use `try_add` to ignore overflow problem and return NULL.",
  ],
];

describe("overflow errors, as PySpark 4.3 words them", () => {
  for (const [query, message] of PYSPARK) {
    it(query, async () => {
      await assert.rejects(
        async () => session.sql(query).collect(),
        (e: Error) => e.message.split("\n")[0] === message,
      );
    });
  }
});
