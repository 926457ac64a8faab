/**
 * Child process of the crash tests (started by driver.ts; not a test file itself):
 *
 *   node --import tsx test/recovery/crash-harness.ts '<ChildConfig as JSON>'
 *
 * Runs the workload's checkpointed query — file source (maxFilesPerTrigger=1) → watermark →
 * count per 10 s window and key, append mode, trigger availableNow — into a JSON file sink
 * and/or a foreachBatch writer to PostgreSQL (examples/postgres-upsert.ts), each with its own
 * checkpoint under `work`. availableNow makes every run end on its own once the input is done.
 *
 * Protocol on stdout: `boot` (modules loaded), `ready` (every query started, i.e. recovered
 * from its checkpoint), `done` (all queries finished). Exit 0 after `done`; any query failure
 * prints the error on stderr and exits 1. The parent SIGKILLs it at random moments; a named
 * crash point (`crashPoint: "afterOffsetLog:3"`) makes it SIGKILL itself through the engine's
 * `arus.test.crashPoint` conf. For the PostgreSQL writer, `insideSink` fires between the
 * upsert and COMMIT (the writer's transaction is open), via a wrapper around the client.
 *
 * Before each PostgreSQL write the child appends `{"b":batchId,"d":digest,"n":rows}` (fsynced)
 * to `deliveries-pg.log`, and `{"b":batchId,"a":applied}` after it, so the parent can check that
 * a replayed batch id carried the same rows and was never applied twice.
 */
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ensureTables, type SqlClient, windowCountsWriter } from "../../examples/postgres-upsert.js";
import { crashPoint } from "../../src/common/crash-points.js";
import { partialCounters } from "../../src/execution/partial/partial-read.js";
import {
  type DataFrame,
  functions as F,
  type ProcessorRow,
  Session,
  StatefulProcessor,
  type StatefulProcessorHandle,
  type StreamingQuery,
  type ValueState,
} from "../../src/index.js";
import { DELAY_MS, outRow, SCHEMA, WINDOW_MS } from "./workload.js";

export type SinkKind = "file" | "pg";

export interface ChildConfig {
  input: string;
  /** Episode directory: ckpt-file/, out/, ckpt-pg/, deliveries-pg.log. */
  work: string;
  sinks: SinkKind[];
  /** `point:batchId`, see src/common/crash-points.ts. */
  crashPoint?: string;
  /** `module`: resolved URL of the `pg` package (the child's bundle may live elsewhere). */
  pg?: { url: string; module?: string; schema: string; table: string };
  /** Engine confs (state snapshot interval, retention, ...). */
  conf?: Record<string, string>;
  /**
   * The stateful part: `window` (default) a windowed count; `tws` the same counts through
   * transformWithState (WindowCounter below); `join` the same counts over a stream-stream join
   * of the events with themselves; all three have the same expected output.
   */
  query?: CrashQuery;
}

export type CrashQuery = "window" | "tws" | "join";

export const PG_MODULE = "pg";

export function paths(work: string) {
  return {
    fileCheckpoint: join(work, "ckpt-file"),
    fileOutput: join(work, "out"),
    pgCheckpoint: join(work, "ckpt-pg"),
    pgDeliveries: join(work, "deliveries-pg.log"),
  };
}

/**
 * transformWithState version of the windowed count: grouped by (key, window start), a ValueState
 * running count per group and an event-time timer at the window's end; the timer emits the
 * count and clears the state, as append mode emits a closed window. Every row of a window comes
 * before the watermark passes its end (no row is ever late), so the output is the windowed
 * count's whatever the batch boundaries.
 */
export class WindowCounter extends StatefulProcessor {
  private handle!: StatefulProcessorHandle;
  private count!: ValueState;

  init(handle: StatefulProcessorHandle): void {
    this.handle = handle;
    this.count = handle.getValueState("count", "n BIGINT");
  }

  handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[]): ProcessorRow[] {
    const n = Number(this.count.get()?.n ?? 0);
    if (n === 0) this.handle.registerTimer((key[1] as Date).getTime() + WINDOW_MS);
    this.count.update({ n: n + rows.length });
    return [];
  }

  override handleExpiredTimer(key: readonly unknown[]): ProcessorRow[] {
    const start = key[1] as Date;
    const n = Number(this.count.get()?.n ?? 0);
    this.count.clear();
    return [{ window: { start, end: new Date(start.getTime() + WINDOW_MS) }, key: key[0], count: n }];
  }
}

function counts(session: Session, input: string, query: CrashQuery = "window"): DataFrame {
  const read = () => session.readStream.format("json").schema(SCHEMA).option("maxFilesPerTrigger", 1).load(input);
  const events = read().withWatermark("ts", `${DELAY_MS / 1000} seconds`);
  if (query === "join") {
    // Each event meets itself (ids are unique) through a stream-stream join with a time range,
    // so the windowed count over the join's output is the plain windowed count.
    const again = read()
      .select(F.col("id").alias("rid"), F.col("ts").alias("rts"))
      .withWatermark("rts", `${DELAY_MS / 1000} seconds`);
    return events
      .join(again, F.expr("id = rid AND rts >= ts AND rts <= ts + interval 1 seconds"))
      .groupBy(F.window("ts", `${WINDOW_MS / 1000} seconds`), F.col("key"))
      .count();
  }
  if (query === "tws") {
    return events
      .withColumn("wstart", F.expr(`CAST(FLOOR(CAST(ts AS BIGINT) / ${WINDOW_MS / 1000}) * ${WINDOW_MS / 1000} AS TIMESTAMP)`))
      .groupBy("key", "wstart")
      .transformWithState(
        new WindowCounter(),
        "window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, key STRING, count BIGINT",
        "append",
        "eventTime",
      );
  }
  return events.groupBy(F.window("ts", `${WINDOW_MS / 1000} seconds`), F.col("key")).count();
}

function appendDurably(file: string, text: string): void {
  const fd = openSync(file, "a");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function startPg(session: Session, cfg: ChildConfig, close: (() => Promise<void>)[]): Promise<StreamingQuery> {
  const p = paths(cfg.work);
  const pgcfg = cfg.pg!;
  const { default: pg } = (await import(pgcfg.module ?? PG_MODULE)) as {
    default: { Client: new (url: string) => SqlClient & { connect(): Promise<void>; end(): Promise<void> } };
  };
  const client = new pg.Client(pgcfg.url);
  await client.connect();
  close.push(() => client.end());
  await client.query(`SET search_path TO "${pgcfg.schema}"`);
  let batch = -1;
  // The writer's COMMIT is where "inside the sink write" is for a database: rows written, the
  // transaction still open.
  const hooked: SqlClient = {
    query(text, values) {
      if (text === "COMMIT") crashPoint("insideSink", batch);
      return client.query(text, values);
    },
  };
  const spec = { table: pgcfg.table, keys: ["key"] };
  await ensureTables(client, spec);
  let resolveId!: (id: string) => void;
  const queryId = new Promise<string>((r) => {
    resolveId = r;
  });
  const write = windowCountsWriter({ ...spec, client: hooked, queryId: () => queryId });
  const q = await counts(session, cfg.input, cfg.query)
    .writeStream.outputMode("append")
    .option("checkpointLocation", p.pgCheckpoint)
    .trigger({ availableNow: true })
    .foreachBatch(async (df, batchId) => {
      batch = batchId;
      const rows = (await df.collect()).map((r) => {
        const w = r.window as { start: Date; end: Date };
        return outRow(w.start, w.end, r.key, r.count);
      });
      rows.sort();
      const digest = createHash("sha1").update(rows.join("\n")).digest("hex").slice(0, 16);
      appendDurably(p.pgDeliveries, `${JSON.stringify({ b: batchId, d: digest, n: rows.length })}\n`);
      const applied = await write(df, batchId);
      appendDurably(p.pgDeliveries, `${JSON.stringify({ b: batchId, a: applied })}\n`);
    })
    .start();
  resolveId(q.id);
  return q;
}

async function main(cfg: ChildConfig): Promise<void> {
  const p = paths(cfg.work);
  let b = Session.builder()
    .appName("arus-crash-harness")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2");
  for (const [k, v] of Object.entries(cfg.conf ?? {})) b = b.config(k, v);
  if (cfg.crashPoint) b = b.config("arus.test.crashPoint", cfg.crashPoint);
  const session = b.getOrCreate();
  process.stdout.write("boot\n");
  const close: (() => Promise<void>)[] = [];
  const queries: StreamingQuery[] = [];
  for (const sink of cfg.sinks) {
    if (sink === "file") {
      queries.push(
        await counts(session, cfg.input, cfg.query)
          .writeStream.format("json")
          .outputMode("append")
          .option("checkpointLocation", p.fileCheckpoint)
          .trigger({ availableNow: true })
          .start(p.fileOutput),
      );
    } else {
      queries.push(await startPg(session, cfg, close));
    }
  }
  process.stdout.write("ready\n");
  await Promise.all(queries.map((q) => q.awaitTermination()));
  for (const c of close) await c();
  // file ranges through stage A on the decode threads (arus.exec.partialAggregation), and of them those shipped as rows
  process.stdout.write(`stageA ${partialCounters.ranges} ${partialCounters.rowRanges}\n`);
  process.stdout.write("done\n");
}

/** Entry point: config from argv[2]; exits the process. */
export async function runMain(): Promise<never> {
  try {
    await main(JSON.parse(process.argv[2]!) as ChildConfig);
    process.exit(0);
  } catch (e) {
    process.stderr.write(`crash-harness: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await runMain();
