/**
 * Seed 000, part 1 — the pure-Python watermark simulation, with arus deciding.
 *
 * Ten TokoKita checkouts (web on time, mobile a few seconds late), 10-second tumbling windows,
 * 5 seconds of allowed lateness. The Python script applies the rule
 *
 *     wm = (max event time of the earlier events) - 5;   et < wm  → dropped
 *
 * Here every event is one micro-batch of a *stateless* arus query, and the decision is made by
 * arus itself with its `current_watermark()` function (the watermark in force for the batch):
 *
 *     withWatermark("event_time", "5 seconds").where(col("event_time").geq(current_watermark()))
 *
 * The printout is exactly the seed's. Then the same ten events go, one per micro-batch, through
 * a Spark-style windowed count (withWatermark + groupBy(window).count(), append mode), where the
 * engine drops late rows with *Spark's* rule — late iff event time <= the previous batch's
 * watermark — and arus's `onLateRows` shows each dropped row. Both rules are printed side by side.
 *
 *   node --import tsx examples/seed000-watermark-simulation.ts
 */
import { type DataFrame, functions as F, type Row, Session } from "../src/index.js";
import { type ExampleOptions, isMain, printer, seedSession } from "./lib/run.js";

const TOLERANSI = 5; // allowed lateness (seconds)
const DURASI = 10; // tumbling window length (seconds)

/** (event_time, arrival time, source) — TokoKita checkouts, times in seconds. */
export const EVENTS: readonly (readonly [number, number, string])[] = [
  [12, 12, "web"],
  [20, 20, "web"],
  [27, 27, "web"],
  [13, 28, "mobile"],
  [24, 29, "web"],
  [33, 30, "web"],
  [22, 31, "mobile"],
  [31, 32, "web"],
  [25, 33, "mobile"],
  [38, 34, "web"],
];

const SCHEMA = "event_time TIMESTAMP, tiba INT, sumber STRING";
const pad = (v: number | string, n: number) => String(v).padStart(n);
const sec = (d: Date | number) => (typeof d === "number" ? d : d.getTime()) / 1000;
const windowMulai = (et: number) => Math.floor(et / DURASI) * DURASI;

export interface SparkRuleEvent {
  et: number;
  sumber: string;
  batchId: number;
  /** Watermark of this batch (eviction, current_watermark()). */
  watermark: number;
  /** Watermark of the previous batch: Spark's late-row filter. */
  lateFilterWatermark: number;
  dropped: boolean;
}

export interface EmittedWindow {
  batchId: number;
  start: number;
  end: number;
  count: number;
}

export interface Seed000SimulationResult {
  /** Exactly what the Python script prints. */
  simulationText: string;
  accepted: number;
  dropped: number;
  windows: { start: number; count: number; closed: boolean }[];
  /** The windowed count (append mode) under Spark's rule. */
  sparkWindowed: {
    events: SparkRuleEvent[];
    /** Windows the query emitted, with the batch that emitted them. */
    emitted: EmittedWindow[];
    /** Batches that ran without data (the watermark moved: state eviction). */
    noDataBatches: number[];
  };
  /** dropDuplicates(event_time, tiba) under Spark's rule: late iff et <= previous batch's watermark. */
  sparkDropDuplicates: { events: SparkRuleEvent[] };
}

export async function seed000WatermarkSimulation(opts: ExampleOptions = {}): Promise<Seed000SimulationResult> {
  const say = printer(opts.out);
  const spark = seedSession(Session, "seed000-watermark-simulation", opts.timeZone ?? "UTC");
  const rows = EVENTS.map(([et, tiba, sumber]) => ({ event_time: new Date(et * 1000), tiba, sumber }));

  // ---- Part 1: the simulation's rule, decided by current_watermark() in a stateless query.
  const ms = spark.memoryStream(SCHEMA);
  const kept = ms
    .toDF()
    .withWatermark("event_time", `${TOLERANSI} seconds`)
    .where(F.col("event_time").geq(F.current_watermark()))
    .withColumn("wm", F.current_watermark());
  const keptByBatch = new Map<number, Row[]>();
  const q = await kept.writeStream
    .foreachBatch(async (df, batchId) => {
      keptByBatch.set(batchId, await df.collect());
    })
    .start();

  const lines: string[] = [];
  const emit = (line = "") => {
    lines.push(line);
    say(line);
  };
  const status = new Map<number, number>(); // window_start -> rows counted
  const ditutup = new Set<number>();
  let diterima = 0;
  let dibuang = 0;
  for (const row of rows) {
    const et = sec(row.event_time);
    ms.addData([row]); // one event = one micro-batch
    await q.processAllAvailable();
    const p = q.lastProgress!;
    // The watermark in force for this batch (what current_watermark() returned).
    const wm = sec(Date.parse(p.eventTime!.watermark!));
    const out = keptByBatch.get(p.batchId) ?? [];
    const awal = windowMulai(et);
    if (out.length === 0) {
      dibuang++;
      emit(
        `tiba=${pad(row.tiba, 3)} et=${pad(et, 3)} ${pad(row.sumber, 6)} | wm=${pad(wm, 3)} -> DIBUANG  (et ${wm - et} detik di bawah watermark)`,
      );
    } else {
      if (sec(out[0]!.wm as Date) !== wm) throw new Error("current_watermark() disagrees with the progress watermark");
      diterima++;
      status.set(awal, (status.get(awal) ?? 0) + 1);
      emit(
        `tiba=${pad(row.tiba, 3)} et=${pad(et, 3)} ${pad(row.sumber, 6)} | wm=${pad(wm, 3)} -> diterima, window [${awal},${awal + DURASI}) = ${status.get(awal)}`,
      );
    }
    // The watermark after this batch: max event time so far minus the allowed lateness.
    const wmBaru = sec(q.currentWatermarkMs);
    for (const w0 of [...status.keys()].sort((a, b) => a - b)) {
      if (!ditutup.has(w0) && wmBaru >= w0 + DURASI) {
        ditutup.add(w0);
        emit(
          `    >> watermark ${wmBaru} menyentuh akhir window [${w0},${w0 + DURASI}) -> window ditutup, hitungan final ${status.get(w0)}`,
        );
      }
    }
  }
  await q.stop();
  emit();
  emit("ringkasan window:");
  const windows = [...status.keys()].sort((a, b) => a - b).map((w0) => ({ start: w0, count: status.get(w0)!, closed: ditutup.has(w0) }));
  for (const w of windows) {
    emit(`  [${pad(w.start, 2)},${pad(w.start + DURASI, 2)})  hitungan=${pad(w.count, 2)}  ${w.closed ? "ditutup" : "masih terbuka"}`);
  }
  emit(`diterima=${diterima} dibuang=${dibuang} dari ${EVENTS.length} event`);

  // ---- Part 2: the same ten events, one per micro-batch, through stateful operators that drop
  // late rows with Spark's rule: late iff the operator's event-time column <= the watermark of
  // the previous batch. For a windowed count that column is the window (its end); for
  // dropDuplicates on event_time it is the event time itself.
  const windowed = await runSparkRule(spark, rows, (df) =>
    df
      .withWatermark("event_time", `${TOLERANSI} seconds`)
      .groupBy(F.window("event_time", `${DURASI} seconds`))
      .count(),
  );
  const dedup = await runSparkRule(spark, rows, (df) =>
    df.withWatermark("event_time", `${TOLERANSI} seconds`).dropDuplicates(["event_time", "tiba"]),
  );

  say();
  say("== Spark's rule, windowed count: withWatermark + groupBy(window).count(), append mode, one event per micro-batch ==");
  for (const e of windowed.events) {
    const w0 = windowMulai(e.et);
    const verdict = e.dropped
      ? `DIBUANG  (window [${w0},${w0 + DURASI}) berakhir ${w0 + DURASI} <= ${e.lateFilterWatermark})`
      : `diterima, window [${w0},${w0 + DURASI})`;
    say(
      `batch ${pad(e.batchId, 2)}  et=${pad(e.et, 3)} ${pad(e.sumber, 6)} | wm batch sebelumnya=${pad(e.lateFilterWatermark, 3)} -> ${verdict}`,
    );
    for (const w of windowed.emitted.filter((x) => x.batchId === e.batchId + 1)) {
      say(
        `    >> batch ${pad(w.batchId, 2)} tanpa data, wm=${windowed.watermarks.get(w.batchId)} -> window [${w.start},${w.end}) final ${w.count}`,
      );
    }
  }
  say();
  say("Late or not, per event (wm: the watermark each rule compares with):");
  say(" et  sumber | simulasi = current_watermark() | Spark, dropDuplicates   | Spark, window count");
  say("            | et < wm -> buang               | et <= wm sebelumnya     | akhir window <= wm sebelumnya");
  const sim = lines.filter((l) => l.startsWith("tiba="));
  const cell = (wm: number, dropped: boolean, width: number) => `wm=${pad(wm, 3)} ${dropped ? "DIBUANG " : "diterima"}`.padEnd(width);
  rows.forEach((r, i) => {
    const simWm = Number(/wm=\s*(\d+)/.exec(sim[i]!)![1]);
    const d = dedup.events[i]!;
    const w = windowed.events[i]!;
    say(
      `${pad(sec(r.event_time), 3)} ${pad(r.sumber, 7)} | ${cell(simWm, sim[i]!.includes("DIBUANG"), 31)}| ${cell(d.lateFilterWatermark, d.dropped, 24)}| ${cell(w.lateFilterWatermark, w.dropped, 0)}`.trimEnd(),
    );
  });
  const counted = windowed.events.filter((e) => !e.dropped).length;
  say(
    `window count (Spark's rule): diterima=${counted} dibuang=${windowed.events.length - counted}; ` +
      windowed.emitted.map((w) => `[${w.start},${w.end}) final ${w.count}`).join(", "),
  );

  await spark.stop();
  return {
    simulationText: `${lines.join("\n")}\n`,
    accepted: diterima,
    dropped: dibuang,
    windows,
    sparkWindowed: { events: windowed.events, emitted: windowed.emitted, noDataBatches: windowed.noDataBatches },
    sparkDropDuplicates: { events: dedup.events },
  };
}

interface SparkRuleRun {
  events: SparkRuleEvent[];
  emitted: EmittedWindow[];
  noDataBatches: number[];
  watermarks: Map<number, number>;
}

type EventRow = { event_time: Date; tiba: number; sumber: string };

/** Feed `rows` one per micro-batch into `build(stream)`; record what each batch kept or dropped. */
async function runSparkRule(spark: Session, rows: EventRow[], build: (df: DataFrame) => DataFrame): Promise<SparkRuleRun> {
  const ms = spark.memoryStream(SCHEMA);
  const emitted: EmittedWindow[] = [];
  const lateByBatch = new Map<number, Row[]>();
  const watermarks = new Map<number, number>();
  const inputs = new Map<number, number>();
  const q = await build(ms.toDF())
    .writeStream.outputMode("append")
    .onLateRows(async (late, batchId) => {
      lateByBatch.set(batchId, [...(lateByBatch.get(batchId) ?? []), ...(await late.collect())]);
    })
    .foreachBatch(async (df, batchId) => {
      for (const r of await df.collect()) {
        const w = r.window as { start: Date; end: Date } | undefined;
        if (w) emitted.push({ batchId, start: sec(w.start), end: sec(w.end), count: r.count as number });
      }
    })
    .start();
  const record = () => {
    for (const p of q.recentProgress) {
      watermarks.set(p.batchId, sec(Date.parse(p.eventTime!.watermark!)));
      inputs.set(p.batchId, p.numInputRows);
    }
  };
  const events: SparkRuleEvent[] = [];
  for (const row of rows) {
    const before = q.lastProgress?.batchId ?? -1;
    ms.addData([row]);
    await q.processAllAvailable(); // also runs the no-data batch a moved watermark calls for
    record();
    const batchId = [...inputs.keys()].find((b) => b > before && inputs.get(b)! > 0)!;
    const late = lateByBatch.get(batchId) ?? [];
    const lateFilterWatermark = batchId > 0 ? watermarks.get(batchId - 1)! : 0;
    if (late.length > 0 && sec(late[0]!._late_watermark as Date) !== lateFilterWatermark) {
      throw new Error("onLateRows reports another late-row watermark than the previous batch's");
    }
    events.push({
      et: sec(row.event_time),
      sumber: row.sumber,
      batchId,
      watermark: watermarks.get(batchId)!,
      lateFilterWatermark,
      dropped: late.length > 0,
    });
  }
  await q.stop();
  const noDataBatches = [...inputs.entries()].filter(([, n]) => n === 0).map(([b]) => b);
  return { events, emitted, noDataBatches, watermarks };
}

if (isMain(import.meta.filename)) await seed000WatermarkSimulation();
