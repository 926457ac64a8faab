import { defineCase } from "../../case.js";

/** SQL text as Spark reads it (String.raw: `\\A` here is the SQL literal '\\A', i.e. the regex \A). */
const EXPRS = [
  String.raw`s RLIKE '(?i)error' AS ci`,
  String.raw`s RLIKE '\\Aab' AS input_start`,
  String.raw`s RLIKE 'c$' AS dollar`,
  String.raw`s RLIKE 'c\\z' AS input_end`,
  String.raw`s RLIKE '\\Qa.c\\E' AS quoted`,
  String.raw`s RLIKE '\\p{Alpha}\\p{Digit}' AS posix`,
  String.raw`s RLIKE 'x\\Ry' AS linebreak`,
  String.raw`s RLIKE 'a\\hb' AS hspace`,
  String.raw`regexp_replace(s, '(\\w+) (\\w+)', '$2, $1') AS swapped`,
  String.raw`regexp_replace(s, '\\.', '\\$') AS dollar_literal`,
  String.raw`regexp_extract(s, '(?i)([A-Z]+)(\\d+)', 2) AS digits`,
];

export default defineCase({
  description:
    "Spark's regular expressions are Java's: leading inline flags, \\A / \\z, a $ that also matches before a final line break, \\Q...\\E, POSIX classes, \\R and \\h, and Java replacement strings ($n, \\$) in rlike, regexp_replace and regexp_extract.",
  input: {
    schema: "s STRING",
    batches: [
      [{ s: "Error here" }, { s: "abc\n" }, { s: "a.c" }, { s: "ab1" }, { s: "John Smith" }],
      [{ s: "x\r\ny" }, { s: "a\tb" }, { s: "foo123" }, { s: null }],
    ],
  },
  outputMode: "append",
  pyspark: `df.selectExpr("s", ${EXPRS.map((e) => JSON.stringify(e)).join(", ")})`,
  arus: ({ df }) => df.selectExpr("s", ...EXPRS),
});
