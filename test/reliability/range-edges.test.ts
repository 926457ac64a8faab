// Issue 13 item 5 and issue 17: BIGINT and TIMESTAMP range edges as Spark: a valid long is
// accepted exactly (a bigint beyond ±2^53 − 1), an out-of-range value is a corrupt record, in
// every reader path.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { utcSession } from "../engine/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tmp = tempDirs("arus-ranges-");

async function file(name: string, text: string): Promise<string> {
  const f = join(await tmp(), name);
  await writeFile(f, text);
  return f;
}

const LONGS = [
  ["9223372036854775807", true],
  ["-9223372036854775808", true],
  ["9007199254740993", true],
  ["-9007199254740993", true],
  ["9007199254740991", true],
  ["9223372036854775808", false],
  ["-9223372036854775809", false],
  ["99999999999999999999", false],
] as const;

/** What collect() gives for a BIGINT: a number while it is a safe integer, else the exact bigint. */
function exactLong(text: string): number | bigint {
  const b = BigInt(text);
  return Number.isSafeInteger(Number(b)) && BigInt(Number(b)) === b ? Number(b) : b;
}

describe("BIGINT range edges", () => {
  for (const nested of [false, true]) {
    it(`JSON (${nested ? "JSON.parse path" : "byte scanner"}): valid longs accepted, out-of-range corrupt`, async () => {
      // a top-level array sends the line to JSON.parse; a flat object stays on the byte scanner
      const lines = LONGS.map(([v]) => (nested ? `[{"v":${v},"s":"x\\"${v}"}]` : `{"v":${v}}`));
      const f = await file("a.json", `${lines.join("\n")}\n`);
      const rows = await session.read.schema("v BIGINT, _corrupt_record STRING").json(f).collect();
      rows.forEach((r, i) => {
        const [text, ok] = LONGS[i]!;
        if (ok) assert.deepEqual(r, { v: exactLong(text), _corrupt_record: null }, text);
        else assert.deepEqual(r, { v: null, _corrupt_record: lines[i] }, text);
      });
      // a DOUBLE column takes any of them, a STRING column keeps the text
      const d = await session.read.schema("v DOUBLE").json(f).collect();
      assert.deepEqual(
        d.map((r) => r.v),
        LONGS.map(([v]) => Number(v)),
      );
    });
  }

  it("CSV: valid longs accepted, out-of-range corrupt", async () => {
    const f = await file("a.csv", `${LONGS.map(([v]) => v).join("\n")}\n`);
    const rows = await session.read.schema("v BIGINT, _corrupt_record STRING").csv(f).collect();
    assert.deepEqual(
      rows.map((r) => r.v),
      LONGS.map(([v, ok]) => (ok ? exactLong(v) : null)),
    );
  });
});

describe("TIMESTAMP range edges", () => {
  it("JSON: a year past Spark's range and epoch seconds that overflow microseconds are corrupt", async () => {
    const lines = ['{"t":"+294248-01-01"}', '{"t":1e20}', '{"t":100000000000000}', '{"t":"+294247-01-01T00:00:00Z"}', '{"t":1700000000}'];
    const f = await file("t.json", `${lines.join("\n")}\n`);
    const rows = await session.read.schema("t TIMESTAMP, _corrupt_record STRING").json(f).collect();
    assert.deepEqual(
      rows.map((r) => r._corrupt_record),
      [lines[0], lines[1], lines[2], null, null],
    );
    assert.equal((rows[4]!.t as Date).getTime(), 1_700_000_000_000);
  });

  it("CSV and CAST: a timestamp past +294247 is invalid", async () => {
    const f = await file("t.csv", "+294248-01-01\n2024-01-01 00:00:00\n");
    const rows = await session.read.schema("t TIMESTAMP, _corrupt_record STRING").csv(f).collect();
    assert.deepEqual(
      rows.map((r) => r._corrupt_record),
      ["+294248-01-01", null],
    );
    const c = await session.sql("SELECT try_cast('+294248-01-01' AS TIMESTAMP) AS t").collect();
    assert.deepEqual(c, [{ t: null }]);
  });
});

describe("TIMESTAMP microseconds: exact over Spark's whole range", () => {
  // Within ±2^53 µs (1684-07-28 .. 2255-06-05) micros are doubles; beyond, bigints (the wide
  // lane of columnar/int64.ts): every microsecond survives parsing, CAST and show().
  const texts = [
    "2255-06-05 23:47:34.740991",
    "2255-06-05 23:47:34.740992",
    "2255-06-05 23:47:34.740993",
    "1684-07-28 00:12:25.259008",
    "1684-07-28 00:12:25.259007",
    "2024-02-29 12:34:56.789123",
    "2300-01-01 00:00:00.000001",
    "9999-12-31 23:59:59.999999",
    "0001-01-01 00:00:00.000001",
  ];

  it("CAST", async () => {
    const sql = `SELECT ${texts.map((v, i) => `CAST(CAST('${v}' AS TIMESTAMP) AS STRING) AS c${i}`).join(", ")}`;
    const [row] = await session.sql(sql).collect();
    assert.deepEqual(Object.values(row!), texts);
  });

  it("collect() carries the exact micros", async () => {
    const [row] = await session.sql("SELECT CAST('2300-01-01 00:00:00.000001' AS TIMESTAMP) AS t").collect();
    const t = row!.t as Date & { micros: number | bigint };
    assert.equal(t.micros, BigInt(Date.UTC(2300, 0, 1)) * 1000n + 1n);
    assert.equal(t.getTime(), Date.UTC(2300, 0, 1));
  });

  for (const format of ["json", "csv"] as const) {
    it(format, async () => {
      const lines = format === "json" ? texts.map((t) => JSON.stringify({ t })) : texts;
      const f = await file(`micros.${format}`, `${lines.join("\n")}\n`);
      const df = session.read.schema("t TIMESTAMP")[format](f);
      const rows = await df.selectExpr("CAST(t AS STRING) AS s").collect();
      assert.deepEqual(
        rows.map((r) => r.s),
        texts,
      );
    });
  }

  it("JSON ISO-8601 UTC text (the byte scanner's fast path) past 2255", async () => {
    const lines = ['{"t":"2300-01-01T00:00:00.000001Z"}', '{"t":"2024-01-01T00:00:00.5Z"}'];
    const f = await file("iso.json", `${lines.join("\n")}\n`);
    const rows = await session.read.schema("t TIMESTAMP").json(f).selectExpr("CAST(t AS STRING) AS s").collect();
    assert.deepEqual(
      rows.map((r) => r.s),
      ["2300-01-01 00:00:00.000001", "2024-01-01 00:00:00.5"],
    );
  });
});
