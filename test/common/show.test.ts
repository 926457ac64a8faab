import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { daysFromCivil } from "../../src/common/datetime/index.js";
import { escapeMetaCharacters, formatCell, javaDoubleToString, showString, stringHalfWidth } from "../../src/common/show.js";
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  IntervalType,
  LongType,
  MapOf,
  NullType,
  StringType,
  StructOf,
  TimestampType,
  WindowStructType,
} from "../../src/types/datatypes.js";

const S = 1_000_000;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, us = 0) =>
  (daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s) * S + us;

describe("javaDoubleToString", () => {
  const cases: [number, string][] = [
    [1, "1.0"],
    [0, "0.0"],
    [-0, "-0.0"],
    [0.1, "0.1"],
    [-2.5, "-2.5"],
    [100, "100.0"],
    [1234567, "1234567.0"],
    [9999999.999, "9999999.999"],
    [1e7, "1.0E7"],
    [1e10, "1.0E10"],
    [12345678.9, "1.23456789E7"],
    [0.001, "0.001"],
    [0.00123, "0.00123"],
    [1e-4, "1.0E-4"],
    [1e-5, "1.0E-5"],
    [1.5e-7, "1.5E-7"],
    [1 / 3, "0.3333333333333333"],
    [Number.MAX_VALUE, "1.7976931348623157E308"],
    [Number.MIN_VALUE, "4.9E-324"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
  ];
  for (const [d, want] of cases) {
    it(`${d} → ${want}`, () => assert.equal(javaDoubleToString(d), want));
  }
});

describe("formatCell (ToPrettyString)", () => {
  it("formats atomic values", () => {
    assert.equal(formatCell(null, IntegerType, "UTC"), "NULL");
    assert.equal(formatCell(undefined, StringType, "UTC"), "NULL");
    assert.equal(formatCell(null, NullType, "UTC"), "NULL");
    assert.equal(formatCell(42, IntegerType, "UTC"), "42");
    assert.equal(formatCell(-9007199254740991, LongType, "UTC"), "-9007199254740991");
    assert.equal(formatCell(9223372036854775807n, LongType, "UTC"), "9223372036854775807");
    assert.equal(formatCell(3, DoubleType, "UTC"), "3.0");
    assert.equal(formatCell(1, BooleanType, "UTC"), "true");
    assert.equal(formatCell(0, BooleanType, "UTC"), "false");
    assert.equal(formatCell(true, BooleanType, "UTC"), "true");
    assert.equal(formatCell("héllo", StringType, "UTC"), "héllo");
    assert.equal(formatCell("", StringType, "UTC"), "");
    assert.equal(formatCell(new Uint8Array([1, 2, 0xab]), BinaryType, "UTC"), "[01 02 AB]");
    assert.equal(formatCell(new Uint8Array([]), BinaryType, "UTC"), "[]");
    assert.equal(formatCell(daysFromCivil(2026, 10, 16), DateType, "UTC"), "2026-10-16");
    assert.equal(formatCell(10 * S, IntervalType, "UTC"), "INTERVAL '0 00:00:10' DAY TO SECOND");
  });
  it("formats timestamps in the session zone", () => {
    const t = utc(2026, 10, 16, 14, 2, 30, 500_000);
    assert.equal(formatCell(t, TimestampType, "UTC"), "2026-10-16 14:02:30.5");
    assert.equal(formatCell(t, TimestampType, "Asia/Jakarta"), "2026-10-16 21:02:30.5");
    assert.equal(formatCell(new Date(Date.UTC(2026, 9, 16, 14, 2, 30)), TimestampType, "UTC"), "2026-10-16 14:02:30");
  });
  it("formats structs, arrays and maps with nested NULLs", () => {
    const w = { start: utc(2026, 10, 16, 14, 2, 30), end: utc(2026, 10, 16, 14, 2, 36) };
    assert.equal(formatCell(w, WindowStructType, "UTC"), "{2026-10-16 14:02:30, 2026-10-16 14:02:36}");
    assert.equal(formatCell({ start: null, end: w.end }, WindowStructType, "UTC"), "{NULL, 2026-10-16 14:02:36}");
    assert.equal(formatCell({}, WindowStructType, "UTC"), "{NULL, NULL}");
    assert.equal(formatCell([1, null, 3], ArrayOf(IntegerType), "UTC"), "[1, NULL, 3]");
    assert.equal(formatCell([], ArrayOf(IntegerType), "UTC"), "[]");
    assert.equal(formatCell([null], ArrayOf(IntegerType), "UTC"), "[NULL]");
    assert.equal(formatCell([1.5, 2], ArrayOf(DoubleType), "UTC"), "[1.5, 2.0]");
    assert.equal(
      formatCell(
        new Map<string, unknown>([
          ["a", 1],
          ["b", null],
        ]),
        MapOf(StringType, IntegerType),
        "UTC",
      ),
      "{a -> 1, b -> NULL}",
    );
    assert.equal(formatCell(new Map(), MapOf(StringType, IntegerType), "UTC"), "{}");
    const nested = StructOf([
      field("id", IntegerType),
      field("tags", ArrayOf(StringType)),
      field("inner", StructOf([field("x", DoubleType), field("bin", BinaryType)])),
    ]);
    assert.equal(
      formatCell({ id: 7, tags: ["p", null], inner: { x: 0.5, bin: new Uint8Array([255]) } }, nested, "UTC"),
      "{7, [p, NULL], {0.5, [FF]}}",
    );
    assert.equal(formatCell({ id: 7, tags: null, inner: null }, nested, "UTC"), "{7, NULL, NULL}");
  });
});

describe("escapeMetaCharacters / stringHalfWidth", () => {
  it("escapes control characters literally", () => {
    assert.equal(escapeMetaCharacters("a\nb\tc\rd\fe\bf\u000bg\u0007h"), "a\\nb\\tc\\rd\\fe\\bf\\vg\\ah");
    assert.equal(escapeMetaCharacters("plain \\n"), "plain \\n");
  });
  it("counts East Asian wide characters twice", () => {
    assert.equal(stringHalfWidth("abc"), 3);
    assert.equal(stringHalfWidth("日本語"), 6);
    assert.equal(stringHalfWidth("한국"), 4);
    assert.equal(stringHalfWidth("ＡＢ"), 4);
    assert.equal(stringHalfWidth("ｱ"), 1); // half-width katakana
    assert.equal(stringHalfWidth("é"), 1);
    assert.equal(stringHalfWidth(""), 0);
  });
});

describe("showString", () => {
  it("prints an empty table (header only)", () => {
    assert.equal(showString(["window", "count"], [], 20, 20, false), "+------+-----+\n|window|count|\n+------+-----+\n+------+-----+\n");
  });
  it("prints the window example truncated and right-aligned", () => {
    const cell = formatCell({ start: utc(2026, 10, 16, 14, 2, 30), end: utc(2026, 10, 16, 14, 2, 36) }, WindowStructType, "UTC");
    assert.equal(cell.length, 42);
    assert.equal(
      showString(["window", "count"], [[cell, "3"]], 20, 20, false),
      [
        "+--------------------+-----+",
        "|              window|count|",
        "+--------------------+-----+",
        "|{2026-10-16 14:02...|    3|",
        "+--------------------+-----+",
        "",
      ].join("\n"),
    );
    assert.equal(
      showString(["window", "count"], [[cell, "3"]], 20, 0, false),
      [
        "+------------------------------------------+-----+",
        "|window                                    |count|",
        "+------------------------------------------+-----+",
        "|{2026-10-16 14:02:30, 2026-10-16 14:02:36}|3    |",
        "+------------------------------------------+-----+",
        "",
      ].join("\n"),
    );
  });
  it("pads to a minimum width of 3 and shows NULL", () => {
    assert.equal(
      showString(
        ["a", "b"],
        [
          ["1", "NULL"],
          ["22", "x"],
        ],
        20,
        20,
        false,
      ),
      "+---+----+\n|  a|   b|\n+---+----+\n|  1|NULL|\n| 22|   x|\n+---+----+\n",
    );
  });
  it("prints the footer when more rows exist, showing only numRows rows", () => {
    const rows = [["0"], ["1"], ["2"]];
    assert.equal(showString(["id"], rows, 2, 20, true), "+---+\n| id|\n+---+\n|  0|\n|  1|\n+---+\nonly showing top 2 rows\n");
    assert.equal(showString(["id"], rows, 1, 20, true), "+---+\n| id|\n+---+\n|  0|\n+---+\nonly showing top 1 row\n");
    assert.equal(showString(["id"], rows, 0, 20, true), "+---+\n| id|\n+---+\n+---+\nonly showing top 0 rows\n");
  });
  it("measures wide characters in half-width units", () => {
    assert.equal(
      showString(
        ["produk", "kategori"],
        [
          ["日本茶", "minuman"],
          ["kopi", "ＡＢ"],
        ],
        20,
        20,
        false,
      ),
      [
        "+------+--------+",
        "|produk|kategori|",
        "+------+--------+",
        "|日本茶| minuman|",
        "|  kopi|    ＡＢ|",
        "+------+--------+",
        "",
      ].join("\n"),
    );
    assert.equal(
      showString(["名前"], [["山田太郎"], ["x"]], 20, 0, false),
      "+--------+\n|名前    |\n+--------+\n|山田太郎|\n|x       |\n+--------+\n",
    );
  });
  it("escapes meta characters in cells and headers, then truncates", () => {
    assert.equal(
      showString(["a\tb"], [["line1\nline2"]], 20, 20, false),
      "+------------+\n|        a\\tb|\n+------------+\n|line1\\nline2|\n+------------+\n",
    );
    // Escaping happens before truncation: "\n" counts as two characters.
    assert.equal(showString(["c"], [["\n\n\n"]], 20, 5, false), "+-----+\n|    c|\n+-----+\n|\\n...|\n+-----+\n");
  });
  it("truncates data cells but never headers; t < 4 has no dots", () => {
    assert.equal(
      showString(["a_very_long_header"], [["abcdefghij"]], 20, 5, false),
      "+------------------+\n|a_very_long_header|\n+------------------+\n|             ab...|\n+------------------+\n",
    );
    assert.equal(showString(["h"], [["abcdefghij"]], 20, 3, false), "+---+\n|  h|\n+---+\n|abc|\n+---+\n");
    assert.equal(showString(["h"], [["abcdefghij"]], 20, 1, false), "+---+\n|  h|\n+---+\n|  a|\n+---+\n");
    assert.equal(showString(["h"], [["abcd"]], 20, 4, false), "+----+\n|   h|\n+----+\n|abcd|\n+----+\n");
  });
  it("handles zero columns", () => {
    assert.equal(showString([], [[], []], 20, 20, false), "++\n||\n++\n||\n||\n++\n");
  });
});
