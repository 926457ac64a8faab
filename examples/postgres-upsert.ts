/**
 * Exactly-once windowed counts in PostgreSQL, from `foreachBatch`.
 *
 * foreachBatch is at-least-once: when the process dies after the function ran but before the
 * engine wrote `commits/N`, the restarted query hands the function the same batch id with the
 * same rows again. Two things make the table come out exactly once anyway:
 *
 *   1. A batch-id fence. Every batch inserts `(query_id, batch_id)` into `arus_batches` in the
 *      same transaction as its rows. A replayed batch finds its fence row already there and
 *      does nothing; a batch whose transaction never committed left no fence row and no data.
 *      `query_id` is the StreamingQuery id, which lives in the checkpoint (`metadata`), so a
 *      new checkpoint (a new query, batch ids from 0 again) is never mistaken for a replay.
 *   2. An upsert keyed by the window (plus any grouping keys):
 *      `INSERT ... ON CONFLICT (window_start, window_end, ...) DO UPDATE SET count = ...`, so
 *      rows *set* the count instead of adding to it, and an update-mode query that emits a
 *      window again simply overwrites it (never with an older batch's value).
 *
 * Run it (needs a server; scripts/start-postgres.sh starts one and prints its URL):
 *
 *   ARUS_PG_URL="$(scripts/start-postgres.sh)" node --import tsx examples/postgres-upsert.ts
 *
 * It writes a few JSON files into a work directory, counts events per 10-second window and
 * sensor, and prints the table. Run it again with `--dir <that directory>` (after killing it
 * half way with `kill -9` if you like): it resumes from the checkpoint there, and the table
 * ends up exactly the same.
 * test/recovery/crash.test.ts SIGKILLs this writer at random moments and at named points.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DataFrame, functions as F, Session, type StreamingQuery } from "../src/index.js";
import { isMain } from "./lib/run.js";

/** What the writer needs from a PostgreSQL client: `pg.Client` and `pg.PoolClient` fit. */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rowCount: number | null; rows: Record<string, unknown>[] }>;
}

export interface WindowCountsTable {
  /** Table of counts; created by ensureTables. */
  table: string;
  /** Grouping columns besides the window, stored as TEXT and part of the conflict key. */
  keys?: readonly string[];
  /** Name of the output column holding the count (default "count"). */
  countColumn?: string;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`not a plain SQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** Create the fence table and the counts table if missing. */
export async function ensureTables(client: SqlClient, spec: WindowCountsTable): Promise<void> {
  const keys = spec.keys ?? [];
  await client.query(
    `CREATE TABLE IF NOT EXISTS arus_batches (
       query_id   TEXT        NOT NULL,
       batch_id   BIGINT      NOT NULL,
       written_at TIMESTAMPTZ NOT NULL DEFAULT now(),
       PRIMARY KEY (query_id, batch_id))`,
  );
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${ident(spec.table)} (
       window_start TIMESTAMPTZ NOT NULL,
       window_end   TIMESTAMPTZ NOT NULL,
       ${keys.map((k) => `${ident(k)} TEXT NOT NULL,`).join("\n       ")}
       count        BIGINT      NOT NULL,
       batch_id     BIGINT      NOT NULL,
       PRIMARY KEY (window_start, window_end${keys.map((k) => `, ${ident(k)}`).join("")}))`,
  );
}

export interface WriterOptions extends WindowCountsTable {
  client: SqlClient;
  /** The fence key: the StreamingQuery id (stable across restarts of one checkpoint). */
  queryId: () => string | Promise<string>;
}

/**
 * A foreachBatch function writing `(window, keys..., count)` rows: one transaction per batch,
 * fence row first; a batch already fenced is skipped whole. Resolves true when the batch was
 * written, false when it was a replay of a batch already in the table.
 */
export function windowCountsWriter(opts: WriterOptions): (df: DataFrame, batchId: number) => Promise<boolean> {
  const keys = opts.keys ?? [];
  const countCol = opts.countColumn ?? "count";
  const cols = ["window_start", "window_end", ...keys, "count", "batch_id"];
  const types = ["timestamptz", "timestamptz", ...keys.map(() => "text"), "bigint", "bigint"];
  const upsert = `INSERT INTO ${ident(opts.table)} AS t (${cols.map(ident).join(", ")})
     SELECT * FROM unnest(${types.map((ty, i) => `$${i + 1}::${ty}[]`).join(", ")})
     ON CONFLICT (window_start, window_end${keys.map((k) => `, ${ident(k)}`).join("")})
     DO UPDATE SET count = EXCLUDED.count, batch_id = EXCLUDED.batch_id
     WHERE t.batch_id <= EXCLUDED.batch_id`;
  return async (df, batchId) => {
    const queryId = await opts.queryId();
    const rows = await df.collect();
    const columns: unknown[][] = cols.map(() => []);
    for (const r of rows) {
      const w = r.window as { start: Date; end: Date };
      const values = [w.start, w.end, ...keys.map((k) => String(r[k])), Number(r[countCol]), batchId];
      for (let i = 0; i < values.length; i++) columns[i]!.push(values[i]);
    }
    await opts.client.query("BEGIN");
    try {
      const fence = await opts.client.query("INSERT INTO arus_batches (query_id, batch_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
        queryId,
        batchId,
      ]);
      if (fence.rowCount === 0) {
        // Committed by an earlier attempt of this batch: nothing to do.
        await opts.client.query("ROLLBACK");
        return false;
      }
      if (rows.length > 0) await opts.client.query(upsert, columns);
      await opts.client.query("COMMIT");
      return true;
    } catch (e) {
      await opts.client.query("ROLLBACK").catch(() => {});
      throw e;
    }
  };
}

export interface StartOptions extends WindowCountsTable {
  client: SqlClient;
  checkpointLocation: string;
  /** Defaults to availableNow: process what is there, then stop. */
  trigger?: Parameters<DataFrame["writeStream"]["trigger"]>[0];
  outputMode?: "append" | "update";
}

/** Start `counts.writeStream.foreachBatch(windowCountsWriter(...))` with the fence keyed by the query id. */
export async function startWindowCountsToPostgres(counts: DataFrame, opts: StartOptions): Promise<StreamingQuery> {
  await ensureTables(opts.client, opts);
  let resolveId!: (id: string) => void;
  const queryId = new Promise<string>((r) => {
    resolveId = r;
  });
  const q = await counts.writeStream
    .outputMode(opts.outputMode ?? "append")
    .option("checkpointLocation", opts.checkpointLocation)
    .trigger(opts.trigger ?? { availableNow: true })
    .foreachBatch(windowCountsWriter({ ...opts, queryId: () => queryId }))
    .start();
  resolveId(q.id);
  return q;
}

// The `pg` package is imported by name at run time so this file type-checks without it.
const PG_MODULE = "pg";

async function main(): Promise<void> {
  const url = process.env.ARUS_PG_URL;
  if (!url) throw new Error('set ARUS_PG_URL (e.g. ARUS_PG_URL="$(scripts/start-postgres.sh)")');
  const argDir = process.argv.indexOf("--dir");
  const work = argDir > 0 ? process.argv[argDir + 1]! : mkdtempSync(join(tmpdir(), "arus-pg-example-"));
  const checkpoint = join(work, "checkpoint");
  const input = join(work, "events");
  mkdirSync(input, { recursive: true });
  const t0 = Date.UTC(2024, 0, 1);
  for (let f = 0; f < 4; f++) {
    const file = join(input, `events-${f}.json`);
    if (existsSync(file)) continue;
    const lines = [];
    for (let i = 0; i < 6; i++) lines.push(JSON.stringify({ sensor: `s${i % 2}`, ts: new Date(t0 + f * 7_000 + i * 1_000).toISOString() }));
    writeFileSync(file, `${lines.join("\n")}\n`);
  }

  const { default: pg } = (await import(PG_MODULE)) as {
    default: { Client: new (url: string) => SqlClient & { connect(): Promise<void>; end(): Promise<void> } };
  };
  const client = new pg.Client(url);
  await client.connect();
  const spark = Session.builder()
    .appName("postgres-upsert")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2")
    .getOrCreate();
  const counts = spark.readStream
    .format("json")
    .schema("sensor STRING, ts TIMESTAMP")
    .option("maxFilesPerTrigger", 1)
    .load(input)
    .withWatermark("ts", "5 seconds")
    .groupBy(F.window("ts", "10 seconds"), F.col("sensor"))
    .count();
  try {
    const q = await startWindowCountsToPostgres(counts, {
      client,
      checkpointLocation: checkpoint,
      table: "sensor_counts",
      keys: ["sensor"],
    });
    await q.awaitTermination();
    const { rows } = await client.query("SELECT window_start, window_end, sensor, count, batch_id FROM sensor_counts ORDER BY 1, 3");
    for (const r of rows)
      console.log(
        `${(r.window_start as Date).toISOString()} .. ${(r.window_end as Date).toISOString()}  ${r.sensor}  count=${r.count}  (batch ${r.batch_id})`,
      );
    console.log(`input and checkpoint: ${work} (run again with --dir ${work})`);
  } finally {
    await client.end();
    await spark.stop();
  }
}

if (isMain(import.meta.filename)) await main();
