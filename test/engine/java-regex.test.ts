// Spark's regular expressions are Java's (src/functions/java-regex.ts): what JS reads differently
// is translated, what JS cannot run is refused with the construct named, never run as something
// else. The expected values were checked against PySpark 4.3 (and the conformance case
// projections/java-regex runs the translatable ones against Spark).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { javaReplacement, translateJavaRegex } from "../../src/functions/java-regex.js";
import { Session } from "../../src/index.js";

const spark = Session.builder().getOrCreate();
const one = async (sql: string): Promise<unknown> => Object.values((await spark.sql(sql).collect())[0]!)[0];

describe("Java regular expressions (rlike, regexp_replace, regexp_extract)", () => {
  it("matches one code point where Java does (., negated classes, \\S \\W \\D \\H) and Java's ASCII \\s (PySpark 4.3's values)", async () => {
    const cases: [string, unknown][] = [
      ["SELECT regexp_replace('a😀 b', '[^a]', 'x')", "axxx"],
      ["SELECT regexp_replace('a😀 b', '\\\\S', '*')", "** *"],
      ["SELECT regexp_replace('a😀 b', '\\\\W', '*')", "a**b"],
      ["SELECT regexp_replace('a😀1', '\\\\D', '*')", "**1"],
      ["SELECT regexp_replace('a😀-b', '[^a-]', 'x')", "ax-x"],
      ["SELECT regexp_replace('a\\u00A0b', '\\\\s', '_')", "a b"],
      ["SELECT regexp_replace('a\\u00A0b', '\\\\S', '_')", "___"],
      ["SELECT regexp_replace('a\\tb c', '\\\\s+', '_')", "a_b_c"],
      ["SELECT regexp_count('😀😀', '[^x]')", 2],
      ["SELECT split('a😀b😀c', '[^a-z]')", ["a", "b", "c"]],
      ["SELECT regexp_replace('😀', '\\\\H', 'h')", "h"],
      ["SELECT regexp_replace('x]y', '[^]]', '-')", "-]-"],
      ["SELECT regexp_replace('a-b', '[^-]', '+')", "+-+"],
      ["SELECT regexp_replace('a b', '[\\\\s]', '_')", "a_b"],
      ["SELECT regexp_replace('ab12', '[^\\\\d]', '_')", "__12"],
      ["SELECT '😀' RLIKE '^[^a]$'", true],
      ["SELECT '😀' RLIKE '^\\\\S$'", true],
      ["SELECT '😀' RLIKE '^.$'", true],
      ["SELECT '😀' RLIKE '^..$'", false],
      ["SELECT regexp_replace('a😀b', '.', 'x')", "xxx"],
      ["SELECT regexp_count('😀😀', '.')", 2],
      ["SELECT regexp_extract('😀😀', '^(.)', 1)", "😀"],
      ["SELECT regexp_substr('😀x', '.')", "😀"],
      ["SELECT regexp_replace('a😀b', '(?s).', 'x')", "xxx"],
      ["SELECT split('a😀b', '.')", ["", "", "", ""]],
    ];
    for (const [sql, expected] of cases) assert.deepEqual(await one(sql), expected, sql);
  });

  it("translates what JS reads differently: flags, input boundaries, $, \\Q..\\E, POSIX classes, \\h \\R", async () => {
    const cases: [string, unknown][] = [
      ["SELECT 'Error here' RLIKE '(?i)error'", true],
      [String.raw`SELECT 'a\nb' RLIKE '(?s)a.b'`, true],
      [String.raw`SELECT 'a\nb' RLIKE 'a.b'`, false],
      ["SELECT 'a\u0085b' RLIKE 'a.b'", false],
      ["SELECT 'a\u0085b' RLIKE '(?s)a.b'", true],
      [String.raw`SELECT 'x\nab' RLIKE '(?m)^ab'`, true],
      [String.raw`SELECT 'abc' RLIKE '\\Aab'`, true],
      [String.raw`SELECT 'xab' RLIKE '\\Aab'`, false],
      [String.raw`SELECT 'abc\n' RLIKE 'c$'`, true],
      [String.raw`SELECT 'abc\n' RLIKE 'c\\z'`, false],
      [String.raw`SELECT 'abc\n' RLIKE 'c\\Z'`, true],
      [String.raw`SELECT 'abc' RLIKE '\\Qa.c\\E'`, false],
      [String.raw`SELECT 'a.c' RLIKE '\\Qa.c\\E'`, true],
      [String.raw`SELECT 'ab1' RLIKE '\\p{Alpha}\\p{Digit}'`, true],
      [String.raw`SELECT 'é1' RLIKE '\\p{Alpha}\\p{Digit}'`, false],
      [String.raw`SELECT 'ab' RLIKE '[\\p{Lower}]{2}'`, true],
      [String.raw`SELECT 'a\tb' RLIKE 'a\\hb'`, true],
      [String.raw`SELECT 'x\r\ny' RLIKE 'x\\Ry'`, true],
      [String.raw`SELECT regexp_replace('John Smith', '(\\w+) (\\w+)', '$2, $1')`, "Smith, John"],
      [String.raw`SELECT regexp_replace('a.b', '\\.', '\\$')`, "a$b"],
      // $0 is the whole match (PySpark 4.3: a11b22); it was written out as "$0"
      [String.raw`SELECT regexp_replace('a1b2', '\\d', '$0$0')`, "a11b22"],
      [String.raw`SELECT regexp_replace('a1b2', '(\\d)', '<$0|$1>')`, "a<1|1>b<2|2>"],
      [String.raw`SELECT regexp_extract('foo123', '(?i)([A-Z]+)(\\d+)', 2)`, "123"],
    ];
    for (const [sql, expected] of cases) assert.equal(await one(sql), expected, sql);
  });

  it("refuses, naming it, what JS cannot run instead of matching something else", async () => {
    for (const [pattern, what] of [
      ["a*+", "possessive quantifier"],
      ["(?>ab)", "atomic group"],
      ["a(?i)b", "inline flags after the start"],
      ["\\p{L}", "\\p{L}"],
      ["[a[b]]", "nested character class"],
      ["\\G", "\\G"],
    ]) {
      assert.throws(
        () => translateJavaRegex(pattern!),
        (e: Error) => e.message.includes(what!) && e.message.includes(pattern!),
        pattern,
      );
    }
    await assert.rejects(one("SELECT 'aaa' RLIKE 'a++'"), /possessive quantifier \+\+/);
  });

  it("reads Java replacement strings", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Java replacement string, not a template
    assert.equal(javaReplacement("$1-${name}-\\$-\\\\"), "$1-$<name>-$$-\\");
    assert.equal(javaReplacement("[$0]"), "[$&]");
    assert.throws(() => javaReplacement("cost: $"), /Illegal group reference/);
  });
});
