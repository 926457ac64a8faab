/**
 * array_position / remove / union / intersect / except / overlap / compact / append / prepend,
 * slice, flatten, sequence; levenshtein, soundex, split_part, btrim, octet_length, bit_length,
 * ilike, regexp_like, url_encode / url_decode, overlay. Expected values and error classes
 * checked against PySpark 4.3 (`SELECT CAST(<expr> AS STRING)`).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { soundex } from "../../src/functions/strings-more.js";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

async function text(expr: string): Promise<unknown> {
  return (await session.sql(`SELECT CAST(${expr} AS STRING) AS v`).collect())[0]!.v;
}

describe("array functions by element equality", () => {
  it("position, remove and the set functions", async () => {
    assert.equal(await text("array_position(array(3, 2, 1, 2), 2)"), "2");
    assert.equal(await text("array_position(array(3, 2, 1), 5)"), "0");
    assert.equal(await text("array_position(array(3, null, 1), null)"), null);
    assert.equal(await text("array_position(array(cast('NaN' as double)), cast('NaN' as double))"), "1");
    assert.equal(await text("array_remove(array(1, 2, 3, 2, null), 2)"), "[1, 3, null]");
    assert.equal(await text("array_remove(array(1, 2), null)"), null);
    assert.equal(await text("array_union(array(1, 2, 2, null), array(3, 2, null))"), "[1, 2, null, 3]");
    assert.equal(await text("array_intersect(array(1, 2, 2, 3, null), array(2, 3, 3, null, 5))"), "[2, 3, null]");
    assert.equal(await text("array_except(array(1, 2, 2, 3, null), array(2))"), "[1, 3, null]");
    assert.equal(await text("arrays_overlap(array(1, null), array(3))"), null);
    assert.equal(await text("arrays_overlap(array(1, 2), array(2, 3))"), "true");
    assert.equal(await text("array_compact(array(1, null, 2, null))"), "[1, 2]");
    assert.equal(await text("array_append(array(1, 2), null)"), "[1, 2, null]");
    assert.equal(await text("array_prepend(array(1, 2), 0)"), "[0, 1, 2]");
    await assert.rejects(text("array_union(array(1, 2), array(1.5))"), /BINARY_ARRAY_DIFF_TYPES/);
  });

  it("arrays_zip names fields after the columns and pads with NULLs; fields of array elements read", async () => {
    const df = session.sql("SELECT arrays_zip(a, b) AS z, arrays_zip(a, array(3)) AS y FROM VALUES (array(1, 2), array('x')) AS t(a, b)");
    assert.deepEqual(await df.collect(), [
      {
        z: [
          { a: 1, b: "x" },
          { a: 2, b: null },
        ],
        y: [
          { a: 1, 1: 3 },
          { a: 2, 1: null },
        ],
      },
    ]);
    assert.equal(await text("typeof(arrays_zip(array(1, 2), array('a')))"), "array<struct<0:int,1:string>>");
    assert.equal(await text("arrays_zip(array(1, 2), cast(null as array<int>))"), null);
    assert.deepEqual(session.sql("SELECT arrays_zip(a, b) FROM VALUES (array(1), array(2)) AS t(a, b)").columns, ["arrays_zip(a, b)"]);
    // A field of a struct that is an array's element (this crashed before: no field vectors).
    assert.equal(await text("arrays_zip(array(1), array('x'))[0]['1']"), "x");
    assert.equal(await text("array(struct(1 AS a, 'q' AS b))[0].b"), "q");
  });

  it("slice, flatten and sequence", async () => {
    assert.equal(await text("slice(array(1, 2, 3, 4), -2, 5)"), "[3, 4]");
    assert.equal(await text("slice(array(1, 2, 3, 4), -5, 2)"), "[]");
    await assert.rejects(text("slice(array(1, 2, 3, 4), 0, 1)"), /INVALID_PARAMETER_VALUE\.START/);
    await assert.rejects(text("slice(array(1, 2, 3, 4), 1, -1)"), /INVALID_PARAMETER_VALUE\.LENGTH/);
    assert.equal(await text("flatten(array(array(1), null))"), null);
    assert.equal(await text("flatten(array(array(array(1))))"), "[[1]]");
    assert.equal(await text("sequence(5, 1)"), "[5, 4, 3, 2, 1]");
    assert.equal(await text("sequence(1, 10, 3)"), "[1, 4, 7, 10]");
    assert.equal(await text("typeof(sequence(1, 5, 2L))"), "array<bigint>");
    assert.equal(await text("sequence(date'2024-01-01', date'2024-01-05', interval 2 day)"), "[2024-01-01, 2024-01-03, 2024-01-05]");
    assert.equal(
      await text("sequence(timestamp'2024-01-01 00:00:00', timestamp'2024-01-01 02:00:00', interval 1 hour)"),
      "[2024-01-01 00:00:00, 2024-01-01 01:00:00, 2024-01-01 02:00:00]",
    );
    await assert.rejects(text("sequence(1, 5, -1)"), /Illegal sequence boundaries: 1 to 5 by -1/);
  });
});

describe("more string functions", () => {
  it("levenshtein, soundex, split_part, btrim, byte lengths", async () => {
    assert.equal(await text("levenshtein('kitten', 'sitting')"), "3");
    assert.equal(await text("levenshtein('kitten', 'sitting', 2)"), "-1");
    assert.equal(await text("levenshtein('😀a', 'a')"), "1");
    assert.deepEqual(["Robert", "Rupert", "Tymczak", "Pfister", "Ashcraft", "Lloyd", "123", "éclair", ""].map(soundex), [
      "R163",
      "R163",
      "T522",
      "P236",
      "A261",
      "L300",
      "123",
      "éclair",
      "",
    ]);
    assert.equal(await text("split_part('a,b,c', ',', -1)"), "c");
    assert.equal(await text("split_part('a,b,c', ',', 5)"), "");
    await assert.rejects(text("split_part('a,b,c', ',', 0)"), /INVALID_INDEX_OF_ZERO/);
    assert.equal(await text("btrim('xyabyx', 'xy')"), "ab");
    assert.equal(await text("octet_length('héllo')"), "6");
    assert.equal(await text("bit_length('héllo')"), "48");
    assert.equal(await text("character_length('😀a')"), "2");
  });

  it("ilike, regexp_like, url_encode / url_decode, overlay", async () => {
    assert.equal(await text("'ABC' ilike 'a%'"), "true");
    assert.equal(await text("regexp_like('abc', '^a')"), "true");
    // The matchers are functions too, as in Spark.
    assert.equal(await text("ilike('ABC', 'a_c')"), "true");
    assert.equal(await text("regexp('abc', 'b')"), "true");
    assert.deepEqual(
      session.sql("SELECT ilike(s, s), like(s, s), rlike(s, s), regexp(s, s), regexp_like(s, s) FROM VALUES ('x') AS t(s)").columns,
      ["ilike(s, s)", "s LIKE s", "RLIKE(s, s)", "REGEXP(s, s)", "REGEXP_LIKE(s, s)"],
    );
    assert.equal(await text("url_encode('a b&c=d/é')"), "a+b%26c%3Dd%2F%C3%A9");
    assert.equal(await text("url_decode('a+b%26c%3Dd%2F%C3%A9')"), "a b&c=d/é");
    await assert.rejects(text("url_decode('%zz')"), /CANNOT_DECODE_URL/);
    assert.equal(await text("overlay('Spark SQL', '_', 6, 0)"), "Spark_ SQL");
    assert.equal(await text("overlay('Spark SQL', 'tructured', 2, 4)"), "Structured SQL");
    assert.equal(await text("overlay('Spark', 'XX', 10)"), "SparkXX");
  });

  it("F wrappers take PySpark's arguments", async () => {
    const df = session.sql("SELECT array(3, 1, 2) AS a, 'Spark SQL' AS s");
    const row = (
      await df
        .select(
          F.array_position("a", 1).alias("p"),
          F.slice("a", 2, 5).alias("sl"),
          F.overlay("s", F.lit("ANSI "), 7).alias("ov"),
          F.levenshtein("s", F.lit("Spark"), 1).alias("lv"),
        )
        .collect()
    )[0]!;
    assert.deepEqual([row.p, row.sl, row.ov, row.lv], [2, [1, 2], "Spark ANSI ", -1]);
  });
});
