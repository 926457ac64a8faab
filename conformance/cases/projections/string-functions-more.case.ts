import { defineCase } from "../../case.js";

/**
 * The string functions past the basics, over columns with NULLs, non-ASCII and astral
 * characters: PySpark's F functions on one side, arus's F functions (same names, same argument
 * order) on the other, plus SQL-only forms through selectExpr.
 */
const SQL = [
  "position('😀' IN s) AS pos_in",
  "trim(LEADING 'a' FROM s) AS trim_leading",
  "split(s, '') AS chars",
  "regexp_count(s, '[a-z]') AS letters",
  "regexp_substr(s, '[0-9]+') AS digits",
  "format_number(x, 2) AS fmt_num",
  "format_number(x, '#,##0.0#') AS fmt_pattern",
  "printf('%s=%05d|%.2f|%x', s, n, x, n) AS printed",
  "base64(s) AS b64",
  "hex(unbase64(base64(s))) AS roundtrip",
  "cast(unhex(hex(s)) AS STRING) AS unhexed",
  "md5(s) AS md5",
  "sha1(s) AS sha1",
  "sha2(s, 512) AS sha512",
  "sha2(s, 1) AS sha_bad_bits",
  "ascii(s) AS first_cp",
  "chr(n) AS ch",
  "right(s, 2) AS r2",
  "translate(s, 'a😀', 'Z') AS tr",
];

export default defineCase({
  description:
    "split, locate/position, lpad/rpad by code points, ltrim/rtrim/trim with characters, repeat, left/right, hex, base64, digests, crc32, format_number, printf, regexp_count/_extract_all/_substr, over NULLs and astral characters.",
  input: {
    schema: "s STRING, n INT, x DOUBLE",
    batches: [
      [
        { s: "a,b,,c,,", n: 2, x: 1234.5 },
        { s: "😀x😀", n: 5, x: -0.125 },
      ],
      [
        { s: "", n: 321, x: 2.5 },
        { s: "straße 42 ab", n: -1, x: 1e20 },
        { s: null, n: null, x: null },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.select("s", "n", "x",
    F.split("s", ",").alias("split"), F.split("s", ",", 2).alias("split2"),
    F.locate("x", "s").alias("loc"), F.locate("a", "s", 2).alias("loc2"),
    F.lpad("s", 6, "😀").alias("lp"), F.rpad("s", F.col("n"), F.lit("ab")).alias("rp"),
    F.ltrim("s", F.lit("a😀")).alias("lt"), F.rtrim("s", F.lit(",")).alias("rt"), F.trim("s", F.lit("😀")).alias("tm"),
    F.repeat("s", "n").alias("rep"), F.left("s", F.lit(3)).alias("l3"),
    F.hex("s").alias("hx"), F.hex("n").alias("hxn"), F.crc32("s").alias("crc"),
    F.sha2("s", 256).alias("sh256"),
    F.format_string("%s|%d", "s", "n").alias("fs"),
    F.regexp_extract_all("s", F.lit("([a-z])([a-z]?)"), 2).alias("xs"),
    F.position(F.lit("x"), "s"), F.trim("s", F.lit("😀")), F.lpad("s", 6, "😀"), F.split("s", ","), F.printf(F.lit("%s!"), "s"),
    ).selectExpr("*", *${JSON.stringify(SQL)})`,
  arus: ({ df, F }) =>
    df
      .select(
        "s",
        "n",
        "x",
        F.split("s", ",").alias("split"),
        F.split("s", ",", 2).alias("split2"),
        F.locate("x", "s").alias("loc"),
        F.locate("a", "s", 2).alias("loc2"),
        F.lpad("s", 6, "😀").alias("lp"),
        F.rpad("s", F.col("n"), F.lit("ab")).alias("rp"),
        F.ltrim("s", F.lit("a😀")).alias("lt"),
        F.rtrim("s", F.lit(",")).alias("rt"),
        F.trim("s", F.lit("😀")).alias("tm"),
        F.repeat("s", "n").alias("rep"),
        F.left("s", F.lit(3)).alias("l3"),
        F.hex("s").alias("hx"),
        F.hex("n").alias("hxn"),
        F.crc32("s").alias("crc"),
        F.sha2("s", 256).alias("sh256"),
        F.format_string("%s|%d", "s", "n").alias("fs"),
        F.regexp_extract_all("s", F.lit("([a-z])([a-z]?)"), 2).alias("xs"),
        // Unaliased: the column names must be Spark's too.
        F.position(F.lit("x"), "s"),
        F.trim("s", F.lit("😀")),
        F.lpad("s", 6, "😀"),
        F.split("s", ","),
        F.printf(F.lit("%s!"), "s"),
      )
      .selectExpr("*", ...SQL),
});
