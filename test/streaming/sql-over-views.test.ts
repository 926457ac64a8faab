/**
 * Streaming SQL over temp views, as PySpark 4.3.0 runs it on the same four JSON files (one file
 * per batch, availableNow, memory sink): `window.start` / `session_window.start` in the SELECT
 * list of a windowed GROUP BY (was UNRESOLVED_COLUMN), SQL DISTINCT and UNION on a stream as
 * aggregations (was a Deduplicate: no output-mode check, rows at once), and a generator under a
 * WHERE whose column the scan narrowed (was an internal error). Expected rows are PySpark's.
 */
import assert from "node:assert/strict";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const dirs = tempDirsSync("arus-sql-views-");
const spark = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const FILES: [string, string, number | null, string | null][][] = [
  [
    ["2024-01-01 00:00:01", "a", 1, "x"],
    ["2024-01-01 00:00:04", "b", 2, "y"],
    ["2024-01-01 00:00:12", "a", 3, "x"],
    ["2024-01-01 00:00:07", "a", 4, null],
  ],
  [
    ["2024-01-01 00:00:25", "b", 5, "y"],
    ["2024-01-01 00:00:03", "a", 6, "x"],
    ["2024-01-01 00:00:18", "c", 7, "z"],
    ["2024-01-01 00:00:26", "b", 8, "y"],
  ],
  [
    ["2024-01-01 00:00:41", "a", 9, "x"],
    ["2024-01-01 00:00:09", "b", 10, "y"],
    ["2024-01-01 00:00:33", "c", null, "z"],
    ["2024-01-01 00:00:41", "a", 9, "x"],
  ],
  [["2024-01-01 00:01:10", "d", 12, "w"]],
];

/** The input files, one per batch in this order (their modification times increase). */
function inputDir(): string {
  const dir = dirs();
  FILES.forEach((rows, i) => {
    const file = join(dir, `part-${i}.json`);
    writeFileSync(file, rows.map(([ts, k, v, s]) => JSON.stringify({ ts, k, v, s })).join("\n") + "\n");
    utimesSync(file, 1_700_000_000 + i * 10, 1_700_000_000 + i * 10);
  });
  return dir;
}

let queries = 0;
async function run(mode: string, watermark: string | null, sql: string): Promise<unknown[][]> {
  let events = spark.readStream.schema("ts TIMESTAMP, k STRING, v INT, s STRING").option("maxFilesPerTrigger", 1).json(inputDir());
  if (watermark) events = events.withWatermark("ts", watermark);
  events.createOrReplaceTempView("ev");
  const name = `sql_views_${queries++}`;
  const query = await spark
    .sql(sql)
    .writeStream.format("memory")
    .queryName(name)
    .outputMode(mode as "append")
    .option("checkpointLocation", dirs())
    .trigger({ availableNow: true })
    .start();
  await query.awaitTermination();
  return spark.sql(`SELECT * FROM ${name}`).toArray();
}

const text = (x: unknown): unknown =>
  x instanceof Date
    ? x
        .toISOString()
        .replace("T", " ")
        .replace(/\.000Z$/, "")
    : typeof x === "bigint"
      ? Number(x)
      : x;
const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r.map(text))).sort();

async function assertStreamAsPySpark(mode: string, watermark: string | null, sql: string, expected: unknown[][]): Promise<void> {
  assert.deepEqual(sorted(await run(mode, watermark, sql)), sorted(expected));
}

async function assertRefused(mode: string, watermark: string, sql: string): Promise<void> {
  await assert.rejects(
    () => run(mode, watermark, sql),
    (e: Error & { errorClass?: string }) => e.errorClass === "_LEGACY_ERROR_TEMP_3102" && /without watermark/.test(e.message),
  );
}

describe("streaming SQL over temp views as PySpark", () => {
  it("SQL SELECT DISTINCT on a stream is an aggregation: complete mode", async () => {
    await assertStreamAsPySpark("complete", null, "SELECT DISTINCT k FROM ev", [["d"], ["c"], ["a"], ["b"]]);
  });

  it("SQL SELECT DISTINCT on a stream in update mode: each batch's new or changed groups", async () => {
    await assertStreamAsPySpark("update", null, "SELECT DISTINCT k, s FROM ev", [
      ["a", "x"],
      ["a", null],
      ["b", "y"],
      ["a", "x"],
      ["b", "y"],
      ["c", "z"],
      ["a", "x"],
      ["b", "y"],
      ["c", "z"],
      ["d", "w"],
    ]);
  });

  it("SQL SELECT DISTINCT with the event-time column in append mode: a row once the watermark passes it", async () => {
    await assertStreamAsPySpark("append", "10 seconds", "SELECT DISTINCT ts, k FROM ev", [
      ["2024-01-01 00:00:01", "a"],
      ["2024-01-01 00:00:04", "b"],
      ["2024-01-01 00:00:12", "a"],
      ["2024-01-01 00:00:03", "a"],
      ["2024-01-01 00:00:09", "b"],
      ["2024-01-01 00:00:07", "a"],
      ["2024-01-01 00:00:26", "b"],
      ["2024-01-01 00:00:18", "c"],
      ["2024-01-01 00:00:25", "b"],
      ["2024-01-01 00:00:33", "c"],
      ["2024-01-01 00:00:41", "a"],
    ]);
  });

  it("SELECT window.start ... GROUP BY window(ts, ...)", async () => {
    await assertStreamAsPySpark(
      "append",
      "10 seconds",
      "SELECT window.start AS ws, window.end AS we, count(*) AS c FROM ev GROUP BY window(ts, '10 seconds')",
      [
        ["2024-01-01 00:00:00", "2024-01-01 00:00:10", 5],
        ["2024-01-01 00:00:10", "2024-01-01 00:00:20", 2],
        ["2024-01-01 00:00:20", "2024-01-01 00:00:30", 2],
        ["2024-01-01 00:00:30", "2024-01-01 00:00:40", 1],
        ["2024-01-01 00:00:40", "2024-01-01 00:00:50", 2],
      ],
    );
  });

  it("window.start with another key, update mode", async () => {
    await assertStreamAsPySpark(
      "update",
      "10 seconds",
      "SELECT window.start AS ws, k, count(*) AS c FROM ev GROUP BY window(ts, '10 seconds'), k",
      [
        ["2024-01-01 00:00:00", "a", 2],
        ["2024-01-01 00:00:00", "b", 1],
        ["2024-01-01 00:00:10", "a", 1],
        ["2024-01-01 00:00:20", "b", 2],
        ["2024-01-01 00:00:00", "a", 3],
        ["2024-01-01 00:00:10", "c", 1],
        ["2024-01-01 00:00:40", "a", 2],
        ["2024-01-01 00:00:30", "c", 1],
        ["2024-01-01 00:00:00", "b", 2],
        ["2024-01-01 00:01:10", "d", 1],
      ],
    );
  });

  it("session_window.start / .end in the SELECT list", async () => {
    await assertStreamAsPySpark(
      "append",
      "10 seconds",
      "SELECT session_window.start AS ss, session_window.end AS se, k, count(*) AS c FROM ev GROUP BY session_window(ts, '5 seconds'), k",
      [
        ["2024-01-01 00:00:04", "2024-01-01 00:00:14", "b", 2],
        ["2024-01-01 00:00:18", "2024-01-01 00:00:23", "c", 1],
        ["2024-01-01 00:00:01", "2024-01-01 00:00:17", "a", 4],
        ["2024-01-01 00:00:25", "2024-01-01 00:00:31", "b", 2],
        ["2024-01-01 00:00:33", "2024-01-01 00:00:38", "c", 1],
        ["2024-01-01 00:00:41", "2024-01-01 00:00:46", "a", 2],
      ],
    );
  });

  it("window.start with WHERE and HAVING", async () => {
    await assertStreamAsPySpark(
      "append",
      "10 seconds",
      "SELECT window.start AS ws, count(*) AS c, avg(v) AS av, min(s) AS ms FROM ev WHERE s IS NOT NULL GROUP BY window(ts, '10 seconds') HAVING count(*) > 1",
      [
        ["2024-01-01 00:00:00", 4, 4.75, "x"],
        ["2024-01-01 00:00:10", 2, 5.0, "x"],
        ["2024-01-01 00:00:20", 2, 6.5, "y"],
        ["2024-01-01 00:00:40", 2, 9.0, "x"],
      ],
    );
  });

  it("explode in the SELECT list under a WHERE on a pruned stream column", async () => {
    await assertStreamAsPySpark("append", null, "SELECT k, explode(array(v, v + 100)) AS e FROM ev WHERE k = 'a'", [
      ["a", 1],
      ["a", 101],
      ["a", 3],
      ["a", 103],
      ["a", 4],
      ["a", 104],
      ["a", 6],
      ["a", 106],
      ["a", 9],
      ["a", 109],
      ["a", 9],
      ["a", 109],
    ]);
  });

  it("LATERAL VIEW explode under a WHERE", async () => {
    await assertStreamAsPySpark("append", null, "SELECT k, e FROM ev LATERAL VIEW explode(split(s, '')) t AS e WHERE v > 5", [
      ["a", "x"],
      ["c", "z"],
      ["b", "y"],
      ["a", "x"],
      ["b", "y"],
      ["a", "x"],
      ["d", "w"],
    ]);
  });

  it("HAVING on window.start", async () => {
    await assertStreamAsPySpark(
      "append",
      "10 seconds",
      "SELECT window.start AS ws, k, count(*) AS c FROM ev GROUP BY window(ts, '10 seconds'), k HAVING window.start >= '2024-01-01 00:00:10'",
      [
        ["2024-01-01 00:00:20", "b", 2],
        ["2024-01-01 00:00:10", "c", 1],
        ["2024-01-01 00:00:10", "a", 1],
        ["2024-01-01 00:00:30", "c", 1],
        ["2024-01-01 00:00:40", "a", 2],
      ],
    );
  });

  it("SQL DISTINCT / UNION without the event-time key is refused in append mode (Spark: STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION): SELECT DISTINCT k, s FROM ev", async () => {
    await assertRefused("append", "10 seconds", "SELECT DISTINCT k, s FROM ev");
  });

  it("SQL DISTINCT / UNION without the event-time key is refused in append mode (Spark: STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION): SELECT DISTINCT window(ts, '10 seconds').start AS ws, k FROM ev", async () => {
    await assertRefused("append", "10 seconds", "SELECT DISTINCT window(ts, '10 seconds').start AS ws, k FROM ev");
  });

  it("SQL DISTINCT / UNION without the event-time key is refused in append mode (Spark: STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION): SELECT k FROM ev UNION SELECT s FROM ev", async () => {
    await assertRefused("append", "10 seconds", "SELECT k FROM ev UNION SELECT s FROM ev");
  });

  it("DataFrame distinct() on a stream stays dropDuplicates: append mode without a watermark", async () => {
    const events = spark.readStream.schema("ts TIMESTAMP, k STRING, v INT, s STRING").option("maxFilesPerTrigger", 1).json(inputDir());
    const query = await events
      .select("k")
      .distinct()
      .writeStream.format("memory")
      .queryName("sql_views_df_distinct")
      .outputMode("append")
      .option("checkpointLocation", dirs())
      .trigger({ availableNow: true })
      .start();
    await query.awaitTermination();
    assert.deepEqual(sorted(await spark.sql("SELECT * FROM sql_views_df_distinct").toArray()), sorted([["a"], ["b"], ["c"], ["d"]]));
  });
});
