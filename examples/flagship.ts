/**
 * `npm start` — the TokoKita checkout stream.
 *
 * Checkouts arrive from the rate source: three in four come from the web shop, on time; one in
 * four comes from the mobile app, and phones sync late — 0, 6, 14 or 35 seconds after the
 * checkout happened. The query counts checkouts and sums their value per 10-second window and
 * per source, with a 10-second watermark, and prints the changed windows every 5 seconds.
 *
 * Output mode `update`: each batch prints only the windows whose totals changed in it, so the
 * same window comes back with a bigger count as more of its checkouts arrive, until the
 * watermark passes the window's end and it is final. (`append` would print each window once,
 * final, after the watermark passed it; `complete` would print every window every batch.)
 *
 * Spark drops rows that come too late without a word. arus can say what it dropped:
 *   - `writeStream.onLateRows(fn)` hands every dropped row to `fn`, with `_late_watermark`
 *     and `_late_by_ms` columns;
 *   - `q.lastProgress.arus` holds the batch's late-row count and a lateness profile
 *     (p50/p90/p99/max, and the watermark delay that would have kept 99 % of rows);
 *   - `q.explainWatermark()` says which windows are still open and when they will close.
 *
 * While it runs, the dashboard (Spark UI's Structured Streaming tab) is at the URL it prints.
 * It stops by itself after a minute, or on Ctrl-C (SIGINT → q.stop()).
 *
 *   npm start
 *   node --import tsx examples/flagship.ts [seconds] [--fast]    (--fast: manual clock, no waiting)
 */
import { dashboardUrl, functions as F, type Row, Session, type StreamingQuery } from "../src/index.js";
import { cliOptions, type ExampleOptions, isMain, printer, runFor } from "./lib/run.js";

/** Start instant of accelerated runs (`--fast`). */
export const FAST_START_MS = Date.UTC(2026, 9, 16, 9, 0, 0, 300);

export interface FlagshipOptions extends ExampleOptions {
  /** Run time before the query stops by itself (default 60 s). */
  seconds?: number;
  /** Checkouts per second (default 8). */
  rowsPerSecond?: number;
  /** Stop on Ctrl-C (default true). */
  handleSigint?: boolean;
}

export interface FlagshipResult {
  stoppedBy: "timeout" | "sigint";
  batches: number;
  /** Late rows dropped, per source (from onLateRows). */
  lateBySource: Record<string, number>;
  /** Sum of `lastProgress.arus.numLateInputRows` over the batches. */
  lateFromProgress: number;
  /** Largest delay (ms) arus suggested would have kept 99 % of the rows. */
  delayFor99Ms: number;
  statusAfterStop: string;
}

const fmtTime = (d: Date) => d.toISOString().slice(11, 19);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function flagship(opts: FlagshipOptions = {}): Promise<FlagshipResult> {
  const say = printer(opts.out);
  let builder = Session.builder().appName("tokokita-checkout").master("local[2]").config("spark.sql.shuffle.partitions", "2");
  if (opts.timeZone) builder = builder.config("spark.sql.session.timeZone", opts.timeZone);
  const spark = builder.getOrCreate();
  const seconds = opts.seconds ?? 60;

  const v = F.col("value");
  const checkout = spark.readStream
    .format("rate")
    .option("rowsPerSecond", opts.rowsPerSecond ?? 8)
    .option("numPartitions", 1)
    .load()
    .withColumn("sumber", F.when(v.mod(4).equalTo(3), "mobile").otherwise("web"))
    // How late the phone synced: 0, 6, 14 or 35 seconds (web checkouts are on time).
    .withColumn(
      "tertunda",
      F.when(
        F.col("sumber").equalTo("mobile"),
        F.element_at(F.array(F.lit(0), F.lit(6), F.lit(14), F.lit(35)), F.floor(v.divide(4)).mod(4).plus(1).cast("int")),
      ).otherwise(0),
    )
    .withColumn("event_time", F.unix_timestamp("timestamp").minus(F.col("tertunda")).cast("timestamp"))
    // Checkout value in rupiah, 50.000 – 500.000.
    .withColumn("nilai", v.multiply(7919).mod(451).plus(50).multiply(1000));

  const perWindow = checkout
    .withWatermark("event_time", "10 seconds")
    .groupBy(F.window("event_time", "10 seconds"), "sumber")
    .agg(F.count("*").alias("checkout"), F.sum("nilai").alias("omzet_rp"));

  const lateBySource: Record<string, number> = {};
  // Late-row lines of a batch, printed under that batch's table (onLateRows runs before the sink writes).
  const lateLines = new Map<number, string[]>();
  let batches = 0;
  let lateFromProgress = 0;
  let delayFor99Ms = 0;
  let q: StreamingQuery | null = null;
  spark.streams.addListener({
    onQueryProgress: (e) => {
      batches++;
      // arus extra: the late-row count and lateness profile of this batch.
      const arus = (q?.lastProgress ?? e.progress).arus;
      const late = lateLines.get(e.progress.batchId) ?? [];
      lateLines.delete(e.progress.batchId);
      if (!arus) {
        for (const line of late) say(line);
        return;
      }
      lateFromProgress += arus.numLateInputRows;
      for (const [column, p] of Object.entries(arus.lateness ?? {})) {
        delayFor99Ms = Math.max(delayFor99Ms, p.delayFor99);
        say(
          `  [arus] batch ${e.progress.batchId}: ${e.progress.numInputRows} rows in, ${arus.numLateInputRows} dropped as late; ` +
            `${column} lateness p50 ${secs(p.p50)}, p99 ${secs(p.p99)}, max ${secs(p.max)} (a ${secs(p.delayFor99)} watermark would keep 99 %)`,
        );
      }
      for (const line of late) say(line);
    },
  });

  let writer = perWindow.writeStream
    .format("console")
    .outputMode("update")
    .trigger({ processingTime: "5 seconds" })
    .option("truncate", "false")
    // arus extra: the rows the watermark dropped, instead of silence.
    .onLateRows(async (late, batchId) => {
      const rows = (await late
        .groupBy("sumber")
        .agg(F.count("*").alias("n"), F.max("_late_by_ms").alias("by"), F.max("_late_watermark").alias("wm"))
        .collect()) as Row[];
      for (const r of rows) {
        lateBySource[r.sumber as string] = (lateBySource[r.sumber as string] ?? 0) + (r.n as number);
        const lines = lateLines.get(batchId) ?? [];
        lines.push(
          `  [arus] batch ${batchId}: ${r.n} late ${r.sumber} checkout(s) dropped — up to ${secs(r.by as number)} behind the watermark ${fmtTime(r.wm as Date)} UTC`,
        );
        lateLines.set(batchId, lines);
      }
    });
  if (opts.clock) writer = writer.withClock(opts.clock);

  say(`TokoKita checkouts: web on time, mobile up to 35 s late; 10 s windows, 10 s watermark. Stops after ${seconds} s or on Ctrl-C.`);
  say(
    "Output mode: update — a batch prints only the windows that changed, so a window reappears with a bigger count as its checkouts arrive, until the watermark passes its end.",
  );
  say(
    "Under each table: 'lateness p99' = how far 99 % of the batch's rows trailed the newest event time seen; 'behind the watermark' = how far a dropped row fell below the watermark (too late to count).",
  );
  // The dashboard starts with the session (spark.ui.enabled, Spark's default; docs/monitoring.md).
  const ui = await dashboardUrl(spark);
  if (ui) say(`Dashboard: ${ui} (live charts, alerts, explainWatermark; Prometheus metrics at ${ui}/metrics)`);
  q = await writer.queryName("tokokita_checkout").start();

  let stoppedBy: FlagshipResult["stoppedBy"] = "timeout";
  const onSigint = () => {
    stoppedBy = "sigint";
    say("\nCtrl-C: stopping the query after the batch in flight…");
    void q!.stop();
  };
  if (opts.handleSigint ?? true) process.once("SIGINT", onSigint);
  try {
    await runFor(q, seconds, opts.clock);
  } finally {
    process.removeListener("SIGINT", onSigint);
    await q.stop();
  }

  say();
  say("== why are these windows still open? (q.explainWatermark()) ==");
  say(q.explainWatermark().trimEnd());
  say();
  say(`late checkouts dropped: ${JSON.stringify(lateBySource)}; arus.numLateInputRows over all batches: ${lateFromProgress}`);
  if (delayFor99Ms > 0) say(`a watermark delay of ${secs(delayFor99Ms)} would have kept 99 % of the rows in every batch`);
  say(`status: ${q.status.message} after ${batches} batches`);
  await spark.stop();
  return { stoppedBy, batches, lateBySource, lateFromProgress, delayFor99Ms, statusAfterStop: q.status.message };
}

if (isMain(import.meta.filename)) {
  const seconds = process.argv.slice(2).find((a) => /^\d+$/.test(a));
  await flagship({ ...cliOptions(FAST_START_MS), ...(seconds ? { seconds: Number(seconds) } : {}) });
}
