import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  compilePattern,
  DEFAULT_TIMESTAMP_PATTERN,
  daysFromCivil,
  formatWithPattern,
  parseWithPattern,
  unixTimestamp,
} from "../../src/common/datetime/index.js";
import { IllegalArgumentException } from "../../src/common/errors.js";

const S = 1_000_000;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, us = 0) =>
  (daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s) * S + us;
const NY = "America/New_York";
const JKT = "Asia/Jakarta";
const T = utc(2026, 10, 16, 14, 2, 30, 123_456); // a Friday, day 289

describe("date_format (formatting)", () => {
  const cases: [string, string, string][] = [
    ["yyyy-MM-dd HH:mm:ss", "UTC", "2026-10-16 14:02:30"],
    ["yyyy-MM-dd HH:mm:ss", NY, "2026-10-16 10:02:30"],
    ["yyyy-MM-dd HH:mm:ss", JKT, "2026-10-16 21:02:30"],
    ["yy/M/d", "UTC", "26/10/16"],
    ["y yyy yyyy yyyyy", "UTC", "2026 2026 2026 02026"],
    ["MMM MMMM", "UTC", "Oct October"],
    ["LLL", "UTC", "Oct"],
    ["E EEE EEEE", "UTC", "Fri Fri Friday"],
    ["h hh a", "UTC", "2 02 PM"],
    ["h a K k", NY, "10 AM 10 10"],
    ["H:m:s", "UTC", "14:2:30"],
    ["HH:mm:ss.S", "UTC", "14:02:30.1"],
    ["HH:mm:ss.SSS", "UTC", "14:02:30.123"],
    ["SSSSSS", "UTC", "123456"],
    ["SSSSSSSSS", "UTC", "123456000"],
    ["D DD DDD", "UTC", "289 289 289"],
    ["Q QQ QQQ QQQQ", "UTC", "4 04 Q4 4th quarter"],
    ["G GGGG", "UTC", "AD Anno Domini"],
    ["yyyy-MM-dd'T'HH:mm:ssXXX", "UTC", "2026-10-16T14:02:30Z"],
    ["yyyy-MM-dd'T'HH:mm:ssXXX", NY, "2026-10-16T10:02:30-04:00"],
    ["yyyy-MM-dd'T'HH:mm:ssXXX", JKT, "2026-10-16T21:02:30+07:00"],
    ["X XX XXX", "+05:30", "+0530 +0530 +05:30"],
    ["X XX XXX", JKT, "+07 +0700 +07:00"],
    ["x xx xxx", "UTC", "+00 +0000 +00:00"],
    ["Z ZZZZ ZZZZZ", NY, "-0400 GMT-04:00 -04:00"],
    ["Z ZZZZ ZZZZZ", "UTC", "+0000 GMT Z"],
    ["O OOOO", "+05:30", "GMT+5:30 GMT+05:30"],
    ["O OOOO", "UTC", "GMT GMT"],
    ["z zzzz", NY, "EDT Eastern Daylight Time"],
    ["z", "UTC", "UTC"],
    ["VV", NY, NY],
    ["'at' HH 'o''clock' ''", "UTC", "at 14 o'clock '"],
    ["yyyy[-MM]", "UTC", "2026-10"],
    ["dd.MM.yyyy, HH:mm", "UTC", "16.10.2026, 14:02"],
  ];
  for (const [pattern, tz, want] of cases) {
    it(`${JSON.stringify(pattern)} in ${tz}`, () => assert.equal(formatWithPattern(T, pattern, tz), want));
  }
  it("winter time in New York", () => {
    assert.equal(formatWithPattern(utc(2026, 1, 16, 14), "yyyy-MM-dd HH:mm z XXX", NY), "2026-01-16 09:00 EST -05:00");
  });
  it("pre-1970, negative years and midnight/noon edge hours", () => {
    assert.equal(formatWithPattern(-1, "yyyy-MM-dd HH:mm:ss.SSSSSS", "UTC"), "1969-12-31 23:59:59.999999");
    assert.equal(formatWithPattern(utc(-44, 3, 15), "yyyy-MM-dd", "UTC"), "-0044-03-15");
    assert.equal(formatWithPattern(utc(-44, 3, 15), "G yyyy", "UTC"), "BC 0045");
    assert.equal(formatWithPattern(utc(2026, 1, 1, 0), "h a k K", "UTC"), "12 AM 24 0");
    assert.equal(formatWithPattern(utc(2026, 1, 1, 12), "h a k K", "UTC"), "12 PM 12 0");
    assert.equal(formatWithPattern(utc(12026, 1, 1), "yyyy", "UTC"), "+12026");
  });
});

describe("to_timestamp (parsing)", () => {
  const cases: [string, string, number | null][] = [
    ["2026-10-16 14:02:30", DEFAULT_TIMESTAMP_PATTERN, utc(2026, 10, 16, 14, 2, 30)],
    ["2026-10-16", "yyyy-MM-dd", utc(2026, 10, 16)],
    ["16/10/2026", "dd/MM/yyyy", utc(2026, 10, 16)],
    ["16/10/2026", "d/M/yyyy", utc(2026, 10, 16)],
    ["6/1/2026", "d/M/yyyy", utc(2026, 1, 6)],
    ["20261016", "yyyyMMdd", utc(2026, 10, 16)],
    ["20261016143000", "yyyyMMddHHmmss", utc(2026, 10, 16, 14, 30)],
    ["26-10-16", "yy-MM-dd", utc(2026, 10, 16)],
    ["99-10-16", "yy-MM-dd", utc(2099, 10, 16)],
    ["2026-10-16 02:30:00 PM", "yyyy-MM-dd hh:mm:ss a", utc(2026, 10, 16, 14, 30)],
    ["2026-10-16 12:30:00 am", "yyyy-MM-dd hh:mm:ss a", utc(2026, 10, 16, 0, 30)],
    ["2026-10-16 02:30", "yyyy-MM-dd hh:mm", utc(2026, 10, 16, 2, 30)],
    ["2026-10-16 PM", "yyyy-MM-dd a", utc(2026, 10, 16, 12)],
    ["Oct 16 2026", "MMM dd yyyy", utc(2026, 10, 16)],
    ["OCTOBER 16 2026", "MMMM dd yyyy", utc(2026, 10, 16)],
    ["2026-10-16 14:02:30.5", "yyyy-MM-dd HH:mm:ss.SSS", utc(2026, 10, 16, 14, 2, 30, 500_000)],
    ["2026-10-16 14:02:30.123456", "yyyy-MM-dd HH:mm:ss.SSSSSS", utc(2026, 10, 16, 14, 2, 30, 123_456)],
    ["2026-10-16T14:02:30+07:00", "yyyy-MM-dd'T'HH:mm:ssXXX", utc(2026, 10, 16, 7, 2, 30)],
    ["2026-10-16T14:02:30Z", "yyyy-MM-dd'T'HH:mm:ssXXX", utc(2026, 10, 16, 14, 2, 30)],
    ["2026-10-16T14:02:30-0500", "yyyy-MM-dd'T'HH:mm:ssZ", utc(2026, 10, 16, 19, 2, 30)],
    ["2026-10-16 14:02:30 UTC", "yyyy-MM-dd HH:mm:ss z", utc(2026, 10, 16, 14, 2, 30)],
    ["2026-10-16 14:02:30 PST", "yyyy-MM-dd HH:mm:ss z", utc(2026, 10, 16, 21, 2, 30)],
    ["2026-10-16 14:02:30 Asia/Jakarta", "yyyy-MM-dd HH:mm:ss VV", utc(2026, 10, 16, 7, 2, 30)],
    ["2026", "yyyy", utc(2026, 1, 1)],
    ["10:15", "HH:mm", utc(1970, 1, 1, 10, 15)],
    ["2026-289", "yyyy-DDD", utc(2026, 10, 16)],
    ["2026-10", "yyyy-MM[-dd]", utc(2026, 10, 1)],
    ["2026-10-16", "yyyy-MM[-dd]", utc(2026, 10, 16)],
    ["at 14 o'clock", "'at' HH 'o''clock'", utc(1970, 1, 1, 14)],
    // mismatches → null
    ["2026-1-16", "yyyy-MM-dd", null],
    ["2026-02-30", "yyyy-MM-dd", null],
    ["2026-13-01", "yyyy-MM-dd", null],
    ["2026-10-16 24:00:00", DEFAULT_TIMESTAMP_PATTERN, null],
    ["2026-10-16", DEFAULT_TIMESTAMP_PATTERN, null],
    ["2026-10-16 14:02:30 extra", DEFAULT_TIMESTAMP_PATTERN, null],
    [" 2026-10-16", "yyyy-MM-dd", null],
    ["20261-10-16", "yyyy-MM-dd", null],
    ["2026-10-16 14:02:30.1234", "yyyy-MM-dd HH:mm:ss.SSS", null],
    ["2025-366", "yyyy-DDD", null],
    ["Okt 16 2026", "MMM dd yyyy", null],
    ["2026-10-16 13:00 PM", "yyyy-MM-dd HH:mm a", utc(2026, 10, 16, 13)],
    ["2026-10-16 13:00 AM", "yyyy-MM-dd HH:mm a", null],
    ["", "yyyy", null],
    // java.time's adjacent value parsing does not reserve digits for a variable-width fraction,
    // so Spark 3+/4 returns null here.
    ["20200101120000123", "yyyyMMddHHmmssSSS", null],
  ];
  for (const [s, pattern, want] of cases) {
    it(`${JSON.stringify(s)} with ${JSON.stringify(pattern)}`, () => {
      assert.equal(parseWithPattern(s, pattern, "UTC"), want);
    });
  }
  it("uses the session zone when the text has none (DST gap shifts forward)", () => {
    assert.equal(parseWithPattern("2026-10-16 14:02:30", DEFAULT_TIMESTAMP_PATTERN, NY), utc(2026, 10, 16, 18, 2, 30));
    assert.equal(parseWithPattern("2026-03-08 02:30:00", DEFAULT_TIMESTAMP_PATTERN, NY), utc(2026, 3, 8, 7, 30));
    assert.equal(parseWithPattern("2026-11-01 01:30:00", DEFAULT_TIMESTAMP_PATTERN, NY), utc(2026, 11, 1, 5, 30));
  });
  it("unix_timestamp returns floor seconds", () => {
    assert.equal(unixTimestamp("2026-10-16 14:02:30", "UTC"), utc(2026, 10, 16, 14, 2, 30) / S);
    assert.equal(unixTimestamp("1969-12-31 23:59:59", "UTC"), -1);
    assert.equal(unixTimestamp("1969-12-31 23:59:59.5", "UTC", "yyyy-MM-dd HH:mm:ss.S"), -1);
    assert.equal(unixTimestamp("16/10/2026", JKT, "dd/MM/yyyy"), utc(2026, 10, 15, 17) / S);
    assert.equal(unixTimestamp("nope", "UTC"), null);
  });
  it("round-trips its own output", () => {
    const patterns = ["yyyy-MM-dd HH:mm:ss.SSSSSS", "dd MMM yyyy hh:mm:ss.SSSSSS a", "yyyyMMddHHmmss.SSSSSSXXX"];
    for (const pattern of patterns) {
      fc.assert(
        fc.property(fc.integer({ min: utc(1000, 1, 1), max: utc(2200, 1, 1) }), (x) => {
          const p = compilePattern(pattern);
          assert.equal(p.parse(p.format(x, "UTC"), "UTC"), x);
        }),
        { numRuns: 200 },
      );
    }
  });
});

describe("pattern validation", () => {
  it("rejects what Spark rejects", () => {
    for (const bad of [
      "YYYY",
      "ww",
      "u",
      "e",
      "yyyyyyy",
      "MMMMM",
      "EEEEE",
      "ddd",
      "HHH",
      "aa",
      "A",
      "n",
      "B",
      "b",
      "dd{",
      "'abc",
      "dd]",
      "SSSSSSSSSS",
    ]) {
      assert.throws(() => compilePattern(bad), IllegalArgumentException, bad);
    }
    // Spark 4: Y, W, w and u are not recognized (DATETIME_PATTERN_RECOGNITION); e and c are week-based
    assert.throws(() => compilePattern("YYYY"), /DATETIME_PATTERN_RECOGNITION[\s\S]*Fail to recognize 'YYYY' pattern/);
    assert.throws(() => compilePattern("e"), /week-based/);
  });
  it("refuses E/Q for parsing but allows them for formatting", () => {
    const p = compilePattern("EEE yyyy");
    assert.equal(p.format(T, "UTC"), "Fri 2026");
    assert.throws(() => p.parse("Fri 2026", "UTC"), /E/);
  });
  it("caches compiled patterns", () => {
    assert.equal(compilePattern("yyyy-MM-dd"), compilePattern("yyyy-MM-dd"));
  });
});
