import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IllegalArgumentException } from "../../src/common/errors.js";
import { delayMs, durationMicros, parseInterval } from "../../src/common/interval.js";
import { DayTimeIntervalOf, IntervalType } from "../../src/types/datatypes.js";
import { formatDayTimeInterval } from "../../src/types/interval-text.js";

const S = 1_000_000;

describe("parseInterval", () => {
  const ok: [string, number, number][] = [
    ["10 seconds", 0, 10 * S],
    ["10 second", 0, 10 * S],
    ["5 minutes", 0, 300 * S],
    ["1 hour", 0, 3600 * S],
    ["2 days", 0, 2 * 86_400 * S],
    ["100 milliseconds", 0, 100_000],
    ["1 microsecond", 0, 1],
    ["3 microseconds", 0, 3],
    ["1 week", 0, 7 * 86_400 * S],
    ["1 minute 30 seconds", 0, 90 * S],
    ["interval 10 seconds", 0, 10 * S],
    ["INTERVAL 10 SECONDS", 0, 10 * S],
    ["  10   Seconds  ", 0, 10 * S],
    ["1 month", 1, 0],
    ["2 years 3 months", 27, 0],
    ["1 year 1 day", 12, 86_400 * S],
    ["-5 seconds", 0, -5 * S],
    ["- 5 seconds", 0, -5 * S],
    ["+5 seconds", 0, 5 * S],
    ["1 day -1 hour", 0, 23 * 3600 * S],
    ["1.5 seconds", 0, 1.5 * S],
    [".25 second", 0, 250_000],
    ["-1.000001 seconds", 0, -1_000_001],
    ["0 seconds", 0, 0],
  ];
  for (const [text, months, micros] of ok) {
    it(`parses ${JSON.stringify(text)}`, () => {
      assert.deepEqual(parseInterval(text), { months, micros });
    });
  }

  const bad: [string, RegExp][] = [
    ["10 secs", /invalid unit 'secs'/],
    ["2 apples", /invalid unit 'apples'/],
    ["", /cannot be empty/],
    ["   ", /cannot be empty/],
    ["interval", /cannot be empty/],
    ["10", /expect a unit name after '10'/],
    ["-", /expect a number after/],
    ["1.5 minutes", /cannot have fractional part/],
    ["ten seconds", /unrecognized number 'ten'/],
    ["1 minute30 seconds", /invalid unit 'minute30'/],
    ["10 secondss", /invalid unit/],
    ["intervals 5 seconds", /invalid interval prefix/],
    ["1 2 seconds", /invalid unit/],
    ["1.0000000001 seconds", /nanosecond precision/],
  ];
  for (const [text, re] of bad) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => parseInterval(text),
        (e: unknown) =>
          e instanceof IllegalArgumentException &&
          e.message.startsWith(`The provided interval (${text}) did not correspond to a valid interval string`) &&
          re.test(e.message),
      );
    });
  }
});

describe("durationMicros", () => {
  it("returns fixed-length micros, a day being 24 h", () => {
    assert.equal(durationMicros("10 minutes", "windowDuration"), 600 * S);
    assert.equal(durationMicros("1 day", "windowDuration"), 86_400 * S);
    assert.equal(durationMicros("-2 minutes", "startTime"), -120 * S);
  });
  it("rejects month components with Spark's message", () => {
    assert.throws(() => durationMicros("1 month", "windowDuration"), {
      name: "IllegalArgumentException",
      message: "Intervals greater than a month is not supported (1 month).",
    });
    assert.throws(() => durationMicros("1 year", "windowDuration"), /Intervals greater than a month/);
  });
  it("names the argument when the value is not an interval string", () => {
    assert.throws(() => durationMicros(" ", "slideDuration"), /slideDuration/);
    assert.throws(() => durationMicros(5 as unknown as string, "windowDuration"), /windowDuration/);
  });
});

describe("delayMs", () => {
  it("converts to milliseconds, truncating micros", () => {
    assert.equal(delayMs("10 seconds"), 10_000);
    assert.equal(delayMs("0 seconds"), 0);
    assert.equal(delayMs("1500 microseconds"), 1);
    assert.equal(delayMs("1 hour 1 millisecond"), 3_600_001);
  });
  it("counts a month as 31 days", () => {
    assert.equal(delayMs("1 month"), 31 * 86_400_000);
    assert.equal(delayMs("1 year"), 12 * 31 * 86_400_000);
  });
  it("rejects negative delays with Spark's require message", () => {
    assert.throws(() => delayMs("-1 seconds"), {
      name: "IllegalArgumentException",
      message: "requirement failed: delay threshold (-1 seconds) should not be negative.",
    });
    // The total decides: 1 day - 1 hour is positive.
    assert.equal(delayMs("1 day -1 hour"), 23 * 3_600_000);
  });
  it("rejects bad text", () => {
    assert.throws(() => delayMs("10 sec"), IllegalArgumentException);
  });
});

describe("formatDayTimeInterval", () => {
  it("prints Spark's ANSI DAY TO SECOND form", () => {
    assert.equal(formatDayTimeInterval(10 * S, IntervalType), "INTERVAL '0 00:00:10' DAY TO SECOND");
    assert.equal(formatDayTimeInterval(0, IntervalType), "INTERVAL '0 00:00:00' DAY TO SECOND");
    assert.equal(formatDayTimeInterval(1.5 * S, IntervalType), "INTERVAL '0 00:00:01.5' DAY TO SECOND");
    assert.equal(formatDayTimeInterval(-(86_400 + 3723.25) * S, IntervalType), "INTERVAL '-1 01:02:03.25' DAY TO SECOND");
    assert.equal(formatDayTimeInterval(12 * 86_400 * S + 59 * S + 1, IntervalType), "INTERVAL '12 00:00:59.000001' DAY TO SECOND");
  });
  it("prints the type's own fields (Spark's toDayTimeIntervalString)", () => {
    assert.equal(formatDayTimeInterval(3 * 86_400 * S, DayTimeIntervalOf("DAY")), "INTERVAL '3' DAY");
    assert.equal(formatDayTimeInterval(25 * 3600 * S, DayTimeIntervalOf("HOUR")), "INTERVAL '25' HOUR");
    assert.equal(formatDayTimeInterval(-90 * 60 * S, DayTimeIntervalOf("MINUTE")), "INTERVAL '-90' MINUTE");
    assert.equal(formatDayTimeInterval(1.5 * S, DayTimeIntervalOf("SECOND")), "INTERVAL '01.5' SECOND");
    assert.equal(formatDayTimeInterval((2 * 3600 + 30) * S, DayTimeIntervalOf("HOUR", "SECOND")), "INTERVAL '02:00:30' HOUR TO SECOND");
    assert.equal(formatDayTimeInterval((3 * 86_400 + 4 * 60) * S, DayTimeIntervalOf("DAY", "MINUTE")), "INTERVAL '3 00:04' DAY TO MINUTE");
  });
});
